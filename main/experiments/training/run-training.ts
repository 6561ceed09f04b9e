/**
 * The one training loop, for every learner (the policy head, the GGUF policy's own weights): each step
 * plays G rollouts on each of Q train questions through the one episode loop, scores and credits them,
 * lets the learner update, and stores the step (rollouts, diagnostics, checkpoint) in one transaction.
 * Question order and every rollout seed derive from the run seed and the step number (schedule.ts), so a
 * run resumed from its last checkpoint continues exactly as an uninterrupted run would. Held-out
 * evaluation (before the first step, every evalInterval steps, after the last), cancel and the run's row
 * are the loop's; what a learner trains and how is its own (learners/).
 */
import type SQLite from 'better-sqlite3'
import type { TrainConfigRequestInput } from '../../../preload/contract'
import { createEnvironment, environmentContext, environmentFactory } from '../../harness'
import type { Answerer, Environment, EnvironmentFactory, Policy, Protocol, Trajectory } from '../../harness'
import type { TrainConfig } from '../../rl/trainer'
import { EvidenceResolver } from '../metrics/evidence'
import { scriptedPolicyFor } from '../scripted-policy'
import { corpusSignature, loadQuestions, type StoredQuestion } from '../questions'
import { rewarderFor, type EpisodeRewarder } from '../metrics/rewards'
import { RunStore } from '../runs/store'
import { GgufLearner, type GgufLearnerDeps } from './learners/gguf-learner'
import { checkGgufTrainable } from './config/gguf-policy'
import type { LlmHome } from '../../llm/llama-runtime'
import { formatDuration, remainingSeconds, type StepTiming } from '../../../common'
import { HeadLearner } from './learners/head-learner'
import { evaluatePolicy, firstHeldOut, type HeldOutResult } from './held-out'
import type { Learner, LearnerDiagnostics, StepGroupRollout, TrainedGguf } from './learners/learner'
import { resolveTrainConfig } from './config/resolve-config'
import { playRollout, type RolloutContext } from './rollouts'
import { rolloutSeed, stepQuestions } from './schedule'
import { TrainingStore, type TrainingCheckpoint } from './store'

export interface TrainingDeps extends GgufLearnerDeps {
  answerer: Answerer
  /** How to rebuild the answerer when the run is resumed in another process (stored with the run). */
  answererSpec?: { kind: 'lexical' } | { kind: 'gguf'; modelPath: string }
  appVersion: string
  jobId: string | null
  /** Called after each completed step with its diagnostics (live charts). */
  onStep?(step: number, diagnostics: StepRecord): void
}

export interface TrainingOutcome {
  runId: number
  steps: number
  before: HeldOutResult | null
  after: HeldOutResult | null
  config: TrainConfig
  /** GGUF runs: the final weights and their provenance (null for the head). */
  model: TrainedGguf | null
}

/** A config that trains a GGUF model's own weights needs the LLM home: required then, so a caller that forgets it does not compile. */
export type DepsFor<I> = [I] extends [{ gguf: object }] ? TrainingDeps & { llm: LlmHome } : TrainingDeps

const meanOf = (r: HeldOutResult) => Object.fromEntries(Object.entries(r.aggregates).map(([k, v]) => [k, v.mean]))

/**
 * Resolves a training config built in code (an ablation cell, a test, a bench) and runs it: see
 * runResolvedTraining. The train.run job runs the config its preflight resolved instead.
 */
export async function runTraining<I extends TrainConfigRequestInput>(raw: SQLite.Database, input: I, deps: DepsFor<I>, runId: number | null = null): Promise<TrainingOutcome> {
  return runResolvedTraining(raw, resolveTrainConfig(raw, input), deps, runId)
}

/**
 * Runs (or resumes) a training run of a config resolved by resolve-config.ts (its checks are not run
 * again). `runId` null creates the run; otherwise it continues from the run's last checkpoint.
 * Cancelling stops between steps (a GGUF update is cut at once); the completed steps stay.
 * A GGUF model the trainer cannot train is refused before the run's row or any file exists.
 */
export async function runResolvedTraining(raw: SQLite.Database, config: TrainConfig, deps: TrainingDeps, runId: number | null = null): Promise<TrainingOutcome> {
  const factory = environmentFactory(config.environment)
  if (config.gguf && runId === null) await checkGgufTrainable(config.gguf, deps.llm)
  const runs = new RunStore(raw)
  const store = new TrainingStore(raw)
  const id = runId ?? createTrainingRun(raw, runs, config, deps, factory.defaults)
  if (runId !== null) runs.resumeRun(id, deps.jobId)
  const loop = new TrainingLoop(raw, config, deps, factory, runs, store, id)
  let learner: Learner | null = null
  try {
    learner = await openLearner(raw, config, deps, factory.protocol, loop)
    return await loop.run(learner)
  } catch (err) {
    loop.failed(err)
    throw err
  } finally {
    await learner?.dispose()
  }
}

/** The run's row: its name (given, or from the config), the config with the environment's defaults filled in, the answerer. */
function createTrainingRun(raw: SQLite.Database, runs: RunStore, config: TrainConfig, deps: TrainingDeps, envDefaults: Record<string, unknown>): number {
  const name = config.name || (config.gguf?.teacher ? `warm start · gguf · ${config.environment} · from ${config.gguf.teacher}` : `train · ${config.gguf ? `gguf · ${config.environment}` : config.environment} · ${config.credit.scheme}`)
  return runs.createRun({ kind: 'train', name, config: { kind: 'training', ...config, envConfig: { ...envDefaults, ...config.envConfig }, answerer: deps.answererSpec ?? { kind: 'lexical' }, answererName: deps.answerer.name }, seed: config.seed, appVersion: deps.appVersion, corpusSignature: corpusSignature(raw), jobId: deps.jobId })
}

/**
 * The learner the config trains: the GGUF policy's own weights (config.gguf; a warm start is handed its
 * scripted teacher), else the policy head.
 */
async function openLearner(raw: SQLite.Database, config: TrainConfig, deps: TrainingDeps, protocol: Protocol, loop: TrainingLoop): Promise<Learner> {
  if (!config.gguf) return HeadLearner.create(config, protocol, loop.checkpoint, deps.llm, { raw, env: loop.env, train: loop.train, progress: deps.progress, throwIfCancelled: deps.throwIfCancelled })
  const teacher = config.gguf.teacher ? scriptedPolicyFor(config.gguf.teacher, config.environment, raw, config.envConfig) : null
  return GgufLearner.open({ raw, config, runId: loop.id, checkpoint: loop.checkpoint, deps, teacher, heldOutPass: (policy, onTrajectory) => loop.heldOutPass(policy, onTrajectory) })
}

type Guards = { episodes: number; steps: number }

/** What the loop stores for a step: the learner's diagnostics, the step's timing and its held-out pass (at evaluation steps). */
export type StepRecord = LearnerDiagnostics & {
  rolloutsPerSecond: number
  rolloutSeconds: number
  heldOutSeconds: number | null
  seconds: number
  /** Held-out metric means, at evaluation steps. */
  heldOut: Record<string, number | null> | null
  heldOutWallClockGuards: Guards | null
}

/** One run's loop: its environments, questions and stores; the steps, held-out evaluation and the run's row. */
class TrainingLoop {
  readonly checkpoint: TrainingCheckpoint | null
  readonly env: Environment
  private readonly evalEnv: Environment
  private readonly evidence: EvidenceResolver
  readonly train: StoredQuestion[]
  private readonly heldOut: StoredQuestion[]
  private readonly rolloutCtx: RolloutContext
  private readonly heldOutRewarder: EpisodeRewarder | null
  /** Held-out episodes of this process's last evaluation that a wall-clock guard cut short (their figures then depend on load). */
  private heldOutGuards: Guards = { episodes: 0, steps: 0 }

  constructor(
    raw: SQLite.Database,
    private readonly config: TrainConfig,
    private readonly deps: TrainingDeps,
    factory: EnvironmentFactory,
    private readonly runs: RunStore,
    private readonly store: TrainingStore,
    readonly id: number,
  ) {
    this.checkpoint = store.lastCheckpoint(id)
    const ctx = environmentContext(raw)
    this.env = createEnvironment(config.environment, ctx, config.envConfig)
    this.evalEnv = createEnvironment(config.environment, ctx, config.envConfig)
    this.evidence = new EvidenceResolver(raw)
    this.train = loadQuestions(raw, config.train)
    this.heldOut = loadQuestions(raw, config.heldOut)
    this.rolloutCtx = { raw, evidence: this.evidence, answerer: deps.answerer, reward: config.reward, rewardScheme: factory.rewardScheme, credit: config.credit.scheme }
    // The environment's own reward on the held-out split (Harness-1's, with the run's weight edits), as an evaluation run stores it.
    this.heldOutRewarder = rewarderFor(factory.rewardScheme, raw, config.reward.harness1Weights)
  }

  /** The steps from the checkpoint on, the final held-out pass, the finished run's row. */
  async run(learner: Learner): Promise<TrainingOutcome> {
    const { config, deps, id } = this
    let before: HeldOutResult | null = null
    const first = this.checkpoint ? this.checkpoint.step + 1 : 0
    const timing: StepTiming[] = []
    // Each progress line carries the last finished step's mean reward, so a terminal shows the curve as it grows.
    let lastStep = ''
    for (let step = first; step < config.steps; step++) {
      deps.throwIfCancelled()
      deps.progress(step / config.steps, 'training', `Step ${step + 1}/${config.steps}${lastStep}`)
      const done = await this.step(learner, step, timing)
      if (step === 0) before = done.heldOut
      lastStep = done.lastStep
    }
    const after = await this.evaluate(learner)
    before ??= firstHeldOut(this.store, id, config.seed)
    const extra = (await learner.finish?.()) ?? {}
    this.runs.finishRun(id, 'done', this.summary({ aggregates: after.aggregates, before: before?.aggregates ?? null, heldOutAfter: after.perQuestion, heldOutBefore: before?.perQuestion ?? null, ...extra }, this.heldOutGuards))
    deps.progress(1, 'done', `${config.steps} steps${lastStep}`)
    return { runId: id, steps: config.steps, before, after, config, model: learner.model() }
  }

  /** One step: held-out evaluation when due, the groups' rollouts, the learner's update, the step stored in one transaction. */
  private async step(learner: Learner, step: number, timing: StepTiming[]): Promise<{ heldOut: HeldOutResult | null; lastStep: string }> {
    const { config, deps } = this
    const t0 = performance.now()
    const heldOutNow = step % config.evalInterval === 0 ? await this.evaluate(learner) : null
    const tRollouts = performance.now()
    const heldOutSeconds = heldOutNow ? (tRollouts - t0) / 1000 : null
    const groups = await this.playGroups(learner, step)
    const rolloutSeconds = (performance.now() - tRollouts) / 1000
    const update = await learner.update(step, groups)
    const rollouts = groups.flat().length
    const diagnostics: StepRecord = {
      ...update.diagnostics,
      rolloutsPerSecond: rolloutSeconds > 0 ? rollouts / rolloutSeconds : 0,
      rolloutSeconds,
      heldOutSeconds,
      seconds: (performance.now() - t0) / 1000,
      heldOut: heldOutNow ? meanOf(heldOutNow) : null,
      heldOutWallClockGuards: heldOutNow ? this.heldOutGuards : null,
    }
    timing.push({ seconds: diagnostics.seconds, heldOutSeconds })
    this.store.saveStep(
      this.id,
      step,
      groups.flatMap((g, gi) => g.map((x, ri) => ({ ...x, stepAdvantages: update.stepAdvantages[gi]![ri]! }))),
      { ...diagnostics, heldOutPerQuestion: heldOutNow?.perQuestion ?? null },
      update.checkpoint,
    )
    learner.committed?.(step, update.checkpoint)
    const rewards = groups.flat().map((x) => x.rollout.reward.total)
    const lastStep = ` · step ${step + 1} mean reward ${(rewards.reduce((a, b) => a + b, 0) / Math.max(1, rewards.length)).toFixed(3)}${remainingWords(timing, config, step)}`
    deps.onStep?.(step, diagnostics)
    return { heldOut: heldOutNow, lastStep }
  }

  /** The step's groups: G rollouts on each of its Q train questions, sampled from the learner's rollout policy. */
  private async playGroups(learner: Learner, step: number): Promise<StepGroupRollout[][]> {
    const { config, deps } = this
    const phase = await learner.rolloutPolicy()
    const groups: StepGroupRollout[][] = []
    try {
      for (const [j, q] of stepQuestions(this.train, config, step).entries()) {
        const group: StepGroupRollout[] = []
        for (let g = 0; g < config.groupSize; g++) {
          deps.throwIfCancelled()
          group.push({ rollout: await playRollout(this.env, phase.policy, q, rolloutSeed(config, step, j, g), this.rolloutCtx), questionId: q.rowId })
        }
        groups.push(group)
      }
    } finally {
      await phase.dispose()
    }
    return groups
  }

  /** The learner's greedy policy on the held-out split, scored with the environment's own reward. */
  private async evaluate(learner: Learner): Promise<HeldOutResult> {
    const phase = await learner.evalPolicy()
    this.heldOutGuards = { episodes: 0, steps: 0 }
    try {
      return await evaluatePolicy(
        this.evalEnv,
        phase.policy,
        this.heldOut,
        this.deps.answerer,
        this.evidence,
        this.config.seed,
        (t) => {
          this.deps.throwIfCancelled()
          learner.observeHeldOut?.(t)
          const g = t.outcome.wallClockGuards ?? 0
          if (g > 0) this.heldOutGuards = { episodes: this.heldOutGuards.episodes + 1, steps: this.heldOutGuards.steps + g }
        },
        this.heldOutRewarder,
      )
    } finally {
      await phase.dispose()
    }
  }

  /** Plays the held-out split with a policy, unscored (the GGUF learner rebuilding a resumed run's KL probe). */
  async heldOutPass(policy: Policy, onTrajectory: (t: Trajectory) => void): Promise<void> {
    await evaluatePolicy(this.evalEnv, policy, this.heldOut, this.deps.answerer, this.evidence, this.config.seed, onTrajectory)
  }

  /** A run that failed or was cancelled keeps its completed steps; its row says which. */
  failed(err: unknown): void {
    const cancelled = err instanceof Error && err.name === 'JobCancelledError'
    this.runs.finishRun(this.id, cancelled ? 'cancelled' : 'failed', this.summary({}), cancelled ? undefined : err instanceof Error ? err.message : String(err))
  }

  /** Rollouts (stored episodes) plus every held-out evaluation (each step's diagnostics, and the final one here). */
  private wallClockGuards(final: Guards | null): Guards {
    const held = this.store.diagnostics(this.id).map((d) => d.diagnostics.heldOutWallClockGuards)
    return [...held, final].reduce<Guards>((t, g) => (g ? { episodes: t.episodes + g.episodes, steps: t.steps + g.steps } : t), this.runs.wallClockGuards(this.id))
  }

  private summary(extra: Record<string, unknown>, final: Guards | null = null): Record<string, unknown> {
    return {
      ...extra,
      steps: this.store.diagnostics(this.id).length,
      bytesPerRollout: this.store.bytesPerRollout(this.id),
      wallClockGuards: this.wallClockGuards(final),
    }
  }
}

/** "about N min left" from the steps this process measured: the rest of the steps, and the final held-out pass. */
function remainingWords(timing: StepTiming[], config: TrainConfig, step: number): string {
  const left = remainingSeconds(timing, { steps: config.steps, evalInterval: config.evalInterval }, step)
  return left === null ? '' : ` · about ${formatDuration(left)} left`
}
