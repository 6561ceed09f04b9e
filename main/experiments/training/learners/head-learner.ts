/**
 * The policy head as a learner: a linear or MLP head over candidate features (optionally on a frozen
 * GGUF menu prior), sampled for rollouts and argmax on the held-out split, updated by the configured loss
 * with Adam. Its checkpoint is the head's weights and Adam's state.
 */
import { type Protocol } from '../../../harness'
import { runtimeFrom, type LlmHome } from '../../../llm/llama-runtime'
import { Adam, createHead, restoreHead, type PolicyHead } from '../../../policy/head'
import { candidateBuilder, HeadPolicy, headInputDim, type CandidateBuilder, type PriorProvider } from '../../../policy/head-policy'
import { createPolicy, menuPrior, type MenuLlmPolicy } from '../../../policy/llm-policy'
import { policySide } from '../../../policy/protocols'
import { trainOnBatch, updateConfigOf, type TrainConfig } from '../../../rl/trainer'
import type { TrainingCheckpoint } from '../store'
import { warmStartHead, type WarmStartReport, type WarmStartSetup } from '../warm-start'
import type { HeadStepDiagnostics, Learner, LearnerUpdate, PhasePolicy, StepGroupRollout } from './learner'

/** The frozen LLM that scores the menu ids (a prior is refused for protocols without a menu: resolve-config.ts). */
interface Prior {
  policy: MenuLlmPolicy
  provider: PriorProvider
}

async function loadPrior(protocol: Protocol, modelPath: string, llm: LlmHome | undefined): Promise<Prior> {
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
export class HeadLearner implements Learner {
  private readonly priorOption: { prior?: PriorProvider }
  /** Whether step diagnostics already carried the warm start's report (only the first step's do). */
  private reported = false

  private constructor(
    private readonly config: TrainConfig,
    private readonly builder: CandidateBuilder,
    private readonly head: PolicyHead,
    private readonly adam: Adam,
    private readonly prior: Prior | null,
    private readonly warmStart: WarmStartReport | null,
  ) {
    this.priorOption = prior ? { prior: prior.provider } : {}
  }

  static async create(config: TrainConfig, protocol: Protocol, checkpoint: TrainingCheckpoint | null, llm?: LlmHome, warm?: HeadWarmStartDeps): Promise<HeadLearner> {
    const builder = candidateBuilder(protocol)
    const head = checkpoint ? restoreHead(checkpoint.head) : createHead(config.head.arch, { inputDim: headInputDim(protocol), hidden: config.head.hidden, seed: config.seed, temperature: config.temperature })
    // After a warm start RL steps at its own (smaller) rate: see HeadWarmStartSchema.rlLearningRate.
    const adam = checkpoint ? Adam.restore(checkpoint.adam) : new Adam(head.size, { lr: config.warmStart ? config.warmStart.rlLearningRate : config.learningRate })
    // The frozen LLM (on the GPU when there is one) scores every menu id; only beta and the head train.
    const prior = config.prior ? await loadPrior(protocol, config.prior.modelPath, llm) : null
    let warmStart: WarmStartReport | null = null
    if (!checkpoint && config.warmStart) {
      if (!warm) throw new Error('A warm start needs the run\'s environment and train questions')
      warmStart = await warmStartHead({ ...warm, config, head, builder, ...(prior ? { prior: prior.provider } : {}) })
    }
    return new HeadLearner(config, builder, head, adam, prior, warmStart)
  }

  async rolloutPolicy(): Promise<PhasePolicy> {
    return { policy: new HeadPolicy(this.head, this.builder, { mode: 'sample', temperature: this.config.temperature, ...this.priorOption }), dispose: kept }
  }

  async evalPolicy(): Promise<PhasePolicy> {
    return { policy: new HeadPolicy(this.head, this.builder, { mode: 'greedy', ...this.priorOption }), dispose: kept }
  }

  async update(step: number, groups: StepGroupRollout[][]): Promise<LearnerUpdate> {
    const result = trainOnBatch(this.head, this.adam, groups.map((g) => g.map((x) => x.rollout)), updateConfigOf(this.config))
    const update = {
      diagnostics: {
        ...result.diagnostics,
        loss: result.update.loss,
        gradNorm: result.update.gradNorm,
        entropy: result.update.entropy,
        clippedFraction: result.update.clippedFraction,
        keptGroups: result.kept.length,
        creditScale: result.creditScale,
        ...(this.warmStart && !this.reported ? { warmStart: this.warmStart } : {}),
      } satisfies HeadStepDiagnostics,
      stepAdvantages: result.stepAdvantages,
      checkpoint: { step, head: this.head.checkpoint(), adam: this.adam.state() },
    }
    this.reported = true
    return update
  }

  model(): null {
    return null
  }

  async dispose(): Promise<void> {
    await this.prior?.policy.dispose()
  }
}
