/**
 * The GGUF policy's own weights as a learner. Each step: the step's rollouts sampled from the current
 * weights in the environment's protocol (menu ids under the grammar, Harness-1 tool calls, free queries),
 * group advantages and per-step credit turned into token-mean weights (rl/trainer tokenBatch), then one
 * update in the native trainer (a child process): the whole batch's gradient, one optimizer step, the KL
 * guard on a fixed probe of held-out prompts (gguf-probe.ts). The weights are saved as a GGUF with the
 * optimizer state beside it (gguf-files.ts), and the next step's rollouts load them. A warm start
 * (config.gguf.teacher) imitates the teacher policy the caller hands over.
 *
 * Resume: the trainer starts from the last saved GGUF and its optimizer state, with the learning rate the
 * guard left; the probe is the base model's held-out prompts (kept in probe.json, or played again), so a
 * resumed run stores the same figures and the same final file as the uninterrupted one.
 */
import { existsSync } from 'node:fs'
import type SQLite from 'better-sqlite3'
import type { GgufTrainConfig } from '../../../../preload/contract'
import type { Policy, Trajectory } from '../../../harness'
import { type LlmHome } from '../../../llm/llama-runtime'
import { GgufTrainer, type TrainResult } from '../../../llm/training'
import { TeacherForcedPolicy, type LlmPolicy } from '../../../policy/llm-policy'
import { imitationBatch, stepDiagnostics, tokenBatch, type TokenBatch, type TrainConfig } from '../../../rl/trainer'
import { ggufPolicyOn, loadRequestFor, needsBase, trainerBackend, trainerThreadCount, trainRequestFor, untrainable } from '../config/gguf-policy'
import type { TrainingCheckpoint } from '../store'
import { GgufRunFiles, sha256File } from './gguf-files'
import { decisionsOf, KlProbe } from './gguf-probe'
import type { GgufStepDiagnostics, Learner, LearnerSummary, LearnerUpdate, PhasePolicy, StepGroupRollout, TrainedGguf } from './learner'

export type { TrainedGguf }

export interface GgufLearnerDeps {
  /** Folder for the run's GGUF files (default: trained-models/ beside the workspace database). */
  ggufDir?: string
  /** Sees each step's token batch (the weighted sequences the trainer is given) before the update. */
  onBatch?(step: number, batch: TokenBatch): void
  progress(progress: number, stage: string, message?: string): void
  throwIfCancelled(): void
  /** The LLM home (handed by the job's composition root): GGUF policies, a head's prior and the trainer's backend come from it. */
  llm?: LlmHome
}

export interface GgufLearnerSetup {
  raw: SQLite.Database
  config: TrainConfig
  runId: number
  checkpoint: TrainingCheckpoint | null
  deps: GgufLearnerDeps
  /** The policy a warm start imitates (config.gguf.teacher, built by the caller); null when the run is RL. */
  teacher: Policy | null
  /** Plays the held-out split with a policy (to rebuild the probe of a resumed run whose probe.json is gone). */
  heldOutPass(policy: Policy, onTrajectory: (t: Trajectory) => void): Promise<void>
}

/** What one step's updates (one per epoch) measured, for its diagnostics. */
interface StepMeasures {
  batch: TokenBatch
  updates: TrainResult[]
  /** The learning rate the step trained with, and the one the guard left for the next. */
  lrUsed: number
  lr: number
  kl: number | null
}

export class GgufLearner implements Learner {
  private lr: number
  /** The last KL measured on the probe (0 at the base; unknown on resume until measured). */
  private lastKl: number | null
  private baseSha256 = ''

  private constructor(
    private readonly setup: GgufLearnerSetup,
    private readonly gguf: GgufTrainConfig,
    private readonly trainer: GgufTrainer,
    private readonly files: GgufRunFiles,
    private readonly probe: KlProbe,
    /** The weights the next rollouts and held-out pass play: the base model, then the last committed step's. */
    private current: string,
  ) {
    this.lr = setup.checkpoint?.gguf?.lr ?? gguf.learningRate
    this.lastKl = setup.checkpoint ? null : 0
  }

  /** Starts the trainer and loads the weights (a resumed run's last saved ones, with their optimizer state). */
  static async open(setup: GgufLearnerSetup): Promise<GgufLearner> {
    const { raw, config, runId, checkpoint, deps } = setup
    const gguf = config.gguf
    if (!gguf) throw new Error('GgufLearner needs config.gguf')
    if (Boolean(gguf.teacher) !== Boolean(setup.teacher)) throw new Error(gguf.teacher ? `A warm start from ${gguf.teacher} needs its teacher policy` : 'A teacher policy without config.gguf.teacher')
    const current = checkpoint?.gguf?.modelPath ?? gguf.modelPath
    if (!existsSync(current)) throw new Error(`The run's last saved weights (${current}) are gone: cannot resume run #${runId}`)
    const optimizerState = checkpoint?.gguf?.optimizerState ?? null
    if (optimizerState && !existsSync(optimizerState)) throw new Error(`The run's optimizer state (${optimizerState}) is gone: cannot resume run #${runId} exactly`)
    const files = new GgufRunFiles(raw.name, runId, deps.ggufDir, gguf.modelPath, checkpoint)
    deps.progress(0, 'training', 'Starting the GGUF trainer')
    const trainer = await GgufTrainer.start({ backend: await trainerBackend(gguf, deps.llm) })
    const learner = new GgufLearner(setup, gguf, trainer, files, new KlProbe(files.dir), current)
    try {
      await learner.load(optimizerState)
    } catch (err) {
      trainer.kill()
      throw err
    }
    return learner
  }

  private async load(optimizerState: string | null): Promise<void> {
    const { gguf, current, setup } = this
    const common = { model: current, optimizer: gguf.optimizer, contextSize: gguf.contextSize, lastBlocks: gguf.lastBlocks ?? -1 }
    const estimate = await this.cancellable(this.trainer.estimate({ ...common, withBase: needsBase(gguf) }))
    if (!estimate.trainable) throw untrainable(gguf.modelPath, estimate.reason)
    setup.deps.progress(0, 'training', `Loading ${estimate.nTrainable.toLocaleString('en')} trainable parameters: about ${Math.ceil(estimate.estimatedBytes / 2 ** 20)} MiB for training`)
    await this.cancellable(this.trainer.load(loadRequestFor(gguf, current, { baseModel: needsBase(gguf) ? gguf.modelPath : null, optimizerState, threads: trainerThreadCount() })))
    this.baseSha256 = await sha256File(gguf.modelPath)
    if (!gguf.klTarget) {
      // no KL guard: no probe to collect or measure
    } else if (setup.checkpoint) await this.probe.restore(() => this.playBase())
    else this.probe.collect()
  }

  /** The base model's held-out episodes (a resumed run's probe when probe.json is gone). */
  private async playBase(): Promise<Trajectory[]> {
    const base = await this.policyOn(this.gguf.modelPath, 0)
    const played: Trajectory[] = []
    try {
      await this.setup.heldOutPass(base, (t) => played.push(t))
    } finally {
      await base.dispose()
    }
    return played
  }

  private policyOn(path: string, temperature: number): Promise<LlmPolicy> {
    const { config, deps } = this.setup
    return ggufPolicyOn(this.gguf, config.environment, config.envConfig, path, { temperature, seed: config.seed }, deps.llm, true)
  }

  /**
   * The trainer's calls take seconds (longer than the job manager's grace before it stops the thread, which
   * would leave the trainer behind): while one runs, the cancel flag is looked at every 100 ms, and a
   * cancel kills the trainer and ends the run as cancelled at once.
   */
  private async cancellable<T>(work: Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined
    const cancelled = new Promise<never>((_, reject) => {
      timer = setInterval(() => {
        try {
          this.setup.deps.throwIfCancelled()
        } catch (err) {
          this.trainer.kill()
          reject(err)
        }
      }, 100)
    })
    try {
      return await Promise.race([work, cancelled])
    } finally {
      clearInterval(timer)
    }
  }

  async rolloutPolicy(): Promise<PhasePolicy> {
    const policy = await this.policyOn(this.current, this.setup.config.temperature)
    // A warm start: the teacher plays, the model's decisions record its choices as replies to learn.
    if (this.gguf.teacher) {
      const forced = new TeacherForcedPolicy(this.setup.teacher!, policy)
      return { policy: forced, dispose: () => forced.dispose() }
    }
    return { policy, dispose: () => policy.dispose() }
  }

  async evalPolicy(): Promise<PhasePolicy> {
    const policy = await this.policyOn(this.current, 0)
    return {
      policy,
      dispose: async () => {
        await policy.dispose()
        // The first held-out pass plays the base weights: its prompts are the run's fixed KL probe.
        this.probe.settle()
      },
    }
  }

  observeHeldOut(t: Trajectory): void {
    this.probe.observe(t)
  }

  async update(step: number, groups: StepGroupRollout[][]): Promise<LearnerUpdate> {
    const gguf = this.gguf
    const rollouts = groups.map((g) => g.map((x) => ({ summary: x.rollout.summary, credit: x.rollout.credit, decisions: decisionsOf(x.rollout.trajectory) })))
    const batch = gguf.teacher ? imitationBatch(rollouts, (gi, ri) => groups[gi]![ri]!.rollout.trajectory.steps.length) : tokenBatch(rollouts, this.setup.config, gguf.klCoef)
    this.setup.deps.onBatch?.(step, batch)
    this.setup.deps.throwIfCancelled()
    const lrUsed = this.lr
    const updates = await this.train(batch)
    const kl = await this.klAfter(updates)
    const saved = await this.files.saveStep(step, (path, state) => this.cancellable(this.trainer.save(path, state)))
    return {
      diagnostics: ggufDiagnostics(gguf, groups, { batch, updates, lrUsed, lr: this.lr, kl }),
      stepAdvantages: batch.stepAdvantages,
      checkpoint: { step, head: null, adam: null, gguf: { modelPath: saved.path, sha256: saved.sha256, optimizerState: saved.state, lr: this.lr } },
    }
  }

  /** One update per epoch; the KL guard's backtracks shrink the learning rate for the rest of the run. */
  private async train(batch: TokenBatch): Promise<TrainResult[]> {
    const gguf = this.gguf
    const updates: TrainResult[] = []
    // A warm start moves away from the base on purpose: no KL guard (its KL is still measured and charted).
    const request = gguf.teacher ? { ...gguf, klTarget: 0 } : gguf
    for (let e = 0; e < gguf.epochs; e++) {
      const r = await this.cancellable(this.trainer.train(trainRequestFor(request, batch.items, this.lr, gguf.teacher ? [] : this.probe.items)))
      updates.push(r)
      // The guard kept only part of the step: the rest of the run steps that much smaller.
      if (r.optimizerSteps > 0 && r.stepScale < 1) this.lr *= r.stepScale
      else if (r.sequences > 0 && r.optimizerSteps === 0) this.lr *= 0.5 ** (gguf.maxBacktracks + 1)
    }
    return updates
  }

  /** KL(policy || base) on the probe after the step's updates (null without a probe). */
  private async klAfter(updates: TrainResult[]): Promise<number | null> {
    const probe = this.probe.items
    // An update with nothing to train leaves the weights, so the KL is the last one measured (0 at the base).
    const measured = updates.at(-1)?.probeKl ?? null
    const kl = !probe.length ? null : measured !== null ? measured : this.lastKl !== null && updates.every((u) => u.sequences === 0) ? this.lastKl : (await this.cancellable(this.trainer.kl(probe))).mean
    this.lastKl = kl
    return kl
  }

  committed(step: number, checkpoint: TrainingCheckpoint): void {
    const saved = checkpoint.gguf!
    this.files.committed(step, saved)
    this.current = saved.modelPath
  }

  async finish(): Promise<LearnerSummary> {
    const m = this.model()
    if (m) GgufRunFiles.writeProvenance(m)
    return { ggufModel: m }
  }

  model(): TrainedGguf | null {
    return this.files.model(this.baseSha256, this.setup.runId)
  }

  async dispose(): Promise<void> {
    await this.trainer.close().catch(() => this.trainer.kill())
  }
}

/** A step's diagnostics: the shared ones over its groups, the trainer's figures summed over its epochs, the KL guard's words. */
function ggufDiagnostics(gguf: GgufTrainConfig, groups: StepGroupRollout[][], { batch, updates, lrUsed, lr, kl }: StepMeasures): GgufStepDiagnostics {
  const first = updates[0]!
  const last = updates.at(-1)!
  const sum = (f: (u: TrainResult) => number) => updates.reduce((s, u) => s + f(u), 0)
  const seconds = sum((u) => u.seconds)
  const backtracks = sum((u) => u.backtracks)
  const undone = updates.some((u) => u.sequences > 0 && u.optimizerSteps === 0)
  const guard = backtracks > 0 ? `KL(policy || base) above the target ${gguf.klTarget} nats: ${undone ? 'the step was undone' : `the step was halved ${backtracks} time${backtracks === 1 ? '' : 's'}`}; learning rate now ${lr.toPrecision(3)}` : null
  return {
    ...stepDiagnostics(groups.map((g) => g.map((x) => x.rollout.summary)), batch.outcomeAdvantages.flat()),
    loss: first.objective,
    pgLoss: first.pgObjective,
    klLoss: first.klObjective,
    // measured only when something trained: a step with no update has no gradient to chart
    gradNorm: first.sequences > 0 ? first.gradNorm : null,
    entropy: first.sequences > 0 ? first.entropy : null,
    clippedFraction: updates.filter((u) => u.clipped).length / updates.length,
    stepScale: last.stepScale,
    backtracks,
    learningRate: lrUsed,
    keptGroups: batch.kept.length,
    creditScale: batch.creditScale,
    decisionsTrained: batch.decisions,
    tokensTrained: first.weightedTokens,
    optimizerSteps: sum((u) => u.optimizerSteps),
    secondsPerUpdate: seconds,
    tokensPerSecond: seconds > 0 ? sum((u) => u.tokensProcessed) / seconds : 0,
    trainedTokensPerSecond: seconds > 0 ? sum((u) => u.weightedTokens) / seconds : 0,
    // positions of the training graph that carry no token (packing shares prefixes and fills datapoints)
    paddingShare: first.tokensProcessed > 0 ? 1 - first.packedTokens / first.tokensProcessed : 0,
    sharedPrefixShare: first.sequenceTokens > 0 ? 1 - first.packedTokens / first.sequenceTokens : 0,
    datapoints: first.datapoints,
    klToBase: kl,
    klToBaseMax: last.probeKlMax,
    klWarning: guard,
    trainerPeakRssBytes: last.peakRssBytes,
  }
}
