/**
 * The policy head as a learner: a linear or MLP head over candidate features (optionally on a frozen
 * GGUF menu prior), sampled for rollouts and argmax on the held-out split, updated by the configured loss
 * with Adam. Its checkpoint is the head's weights and Adam's state.
 */
import { type Protocol } from '../../harness'
import { runtimeFrom, type LlmHome } from '../../llm/llama-runtime'
import { Adam, createHead, restoreHead } from '../../policy/head'
import { candidateBuilder, HeadPolicy, headInputDim, type PriorProvider } from '../../policy/head-policy'
import { createPolicy, menuPrior, type MenuLlmPolicy } from '../../policy/llm-policy'
import { policySide } from '../../policy/protocols'
import { trainOnBatch, updateConfigOf, type TrainConfig } from '../../rl/trainer'
import type { Learner } from './learner'
import type { TrainingCheckpoint } from './store'

/** The frozen LLM that scores the menu ids (a prior is refused for protocols without a menu: resolve-config.ts). */
async function loadPrior(protocol: Protocol, modelPath: string, llm: LlmHome | undefined): Promise<{ policy: MenuLlmPolicy; provider: PriorProvider }> {
  const policy = (await createPolicy({ kind: policySide(protocol).llmKind, modelPath }, await runtimeFrom(llm, `The head's GGUF prior ${modelPath}`))) as MenuLlmPolicy
  return { policy, provider: menuPrior(policy) }
}

const kept = async (): Promise<void> => {}

export async function createHeadLearner(config: TrainConfig, protocol: Protocol, checkpoint: TrainingCheckpoint | null, llm?: LlmHome): Promise<Learner> {
  const builder = candidateBuilder(protocol)
  const head = checkpoint ? restoreHead(checkpoint.head) : createHead(config.head.arch, { inputDim: headInputDim(protocol), hidden: config.head.hidden, seed: config.seed, temperature: config.temperature })
  const adam = checkpoint ? Adam.restore(checkpoint.adam) : new Adam(head.size, { lr: config.learningRate })
  // The frozen LLM (on the GPU when there is one) scores every menu id; only beta and the head train.
  const prior = config.prior ? await loadPrior(protocol, config.prior.modelPath, llm) : null
  const priorOption = prior ? { prior: prior.provider } : {}
  return {
    rolloutPolicy: async () => ({ policy: new HeadPolicy(head, builder, { mode: 'sample', temperature: config.temperature, ...priorOption }), dispose: kept }),
    evalPolicy: async () => ({ policy: new HeadPolicy(head, builder, { mode: 'greedy', ...priorOption }), dispose: kept }),
    update: async (step, groups) => {
      const result = trainOnBatch(head, adam, groups.map((g) => g.map((x) => x.rollout)), updateConfigOf(config))
      return {
        diagnostics: {
          ...result.diagnostics,
          loss: result.update.loss,
          gradNorm: result.update.gradNorm,
          entropy: result.update.entropy,
          clippedFraction: result.update.clippedFraction,
          keptGroups: result.kept.length,
          creditScale: result.creditScale,
        },
        stepAdvantages: result.stepAdvantages,
        checkpoint: { step, head: head.checkpoint(), adam: adam.state() },
      }
    },
    dispose: async () => {
      await prior?.policy.dispose()
    },
  }
}
