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
import type { HeadStepDiagnostics, Learner } from './learner'
import type { TrainingCheckpoint } from './store'
import { warmStartHead, type WarmStartReport, type WarmStartSetup } from './warm-start'

/** The frozen LLM that scores the menu ids (a prior is refused for protocols without a menu: resolve-config.ts). */
async function loadPrior(protocol: Protocol, modelPath: string, llm: LlmHome | undefined): Promise<{ policy: MenuLlmPolicy; provider: PriorProvider }> {
  const policy = (await createPolicy({ kind: policySide(protocol).llmKind, modelPath }, await runtimeFrom(llm, `The head's GGUF prior ${modelPath}`))) as MenuLlmPolicy
  return { policy, provider: menuPrior(policy) }
}

const kept = async (): Promise<void> => {}

/** What the warm start needs from the run beyond the head (the environment, the train questions, progress and cancel). */
export type HeadWarmStartDeps = Omit<WarmStartSetup, 'config' | 'head' | 'builder' | 'prior'>

/**
 * A new run with config.warmStart first fits the head to its teacher (warm-start.ts); the report goes into
 * step 0's diagnostics (`warmStart`). A resumed run continues from its checkpoint, which holds the fitted head.
 */
export async function createHeadLearner(config: TrainConfig, protocol: Protocol, checkpoint: TrainingCheckpoint | null, llm?: LlmHome, warm?: HeadWarmStartDeps): Promise<Learner> {
  const builder = candidateBuilder(protocol)
  const head = checkpoint ? restoreHead(checkpoint.head) : createHead(config.head.arch, { inputDim: headInputDim(protocol), hidden: config.head.hidden, seed: config.seed, temperature: config.temperature })
  // After a warm start RL steps at its own (smaller) rate: see HeadWarmStartSchema.rlLearningRate.
  const adam = checkpoint ? Adam.restore(checkpoint.adam) : new Adam(head.size, { lr: config.warmStart ? config.warmStart.rlLearningRate : config.learningRate })
  // The frozen LLM (on the GPU when there is one) scores every menu id; only beta and the head train.
  const prior = config.prior ? await loadPrior(protocol, config.prior.modelPath, llm) : null
  const priorOption = prior ? { prior: prior.provider } : {}
  let warmStart: WarmStartReport | null = null
  if (!checkpoint && config.warmStart) {
    if (!warm) throw new Error('A warm start needs the run\'s environment and train questions')
    warmStart = await warmStartHead({ ...warm, config, head, builder, ...(prior ? { prior: prior.provider } : {}) })
  }
  let reported = false
  return {
    rolloutPolicy: async () => ({ policy: new HeadPolicy(head, builder, { mode: 'sample', temperature: config.temperature, ...priorOption }), dispose: kept }),
    evalPolicy: async () => ({ policy: new HeadPolicy(head, builder, { mode: 'greedy', ...priorOption }), dispose: kept }),
    update: async (step, groups) => {
      const result = trainOnBatch(head, adam, groups.map((g) => g.map((x) => x.rollout)), updateConfigOf(config))
      const update = {
        diagnostics: {
          ...result.diagnostics,
          loss: result.update.loss,
          gradNorm: result.update.gradNorm,
          entropy: result.update.entropy,
          clippedFraction: result.update.clippedFraction,
          keptGroups: result.kept.length,
          creditScale: result.creditScale,
          ...(warmStart && !reported ? { warmStart } : {}),
        } satisfies HeadStepDiagnostics,
        stepAdvantages: result.stepAdvantages,
        checkpoint: { step, head: head.checkpoint(), adam: adam.state() },
      }
      reported = true
      return update
    },
    model: () => null,
    dispose: async () => {
      await prior?.policy.dispose()
    },
  }
}
