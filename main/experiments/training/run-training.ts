/**
 * The one training loop, for every learner (the policy head, the GGUF policy's own weights): each step
 * plays G rollouts on each of Q train questions through the one episode loop, scores and credits them,
 * lets the learner update, and stores the step (rollouts, diagnostics, checkpoint) in one transaction.
 * Question order and every rollout seed derive from the run seed and the step number (schedule.ts), so a
 * run resumed from its last checkpoint continues exactly as an uninterrupted run would. Held-out
 * evaluation (before the first step, every evalInterval steps, after the last), cancel and the run's row
 * are the loop's; what a learner trains and how is its own (learner.ts).
 */
import type SQLite from 'better-sqlite3'
import type { TrainConfigRequestInput } from '../../../preload/contract'
import { createEnvironment, environmentContext, environmentFactory } from '../../harness'
import type { Answerer } from '../../harness'
import type { TrainConfig } from '../../rl/trainer'
import { EvidenceResolver } from '../evidence'
import { corpusSignature, loadQuestions } from '../questions'
import { rewarderFor } from '../rewards'
import { RunStore } from '../store'
import { createGgufLearner, type GgufLearnerDeps } from './gguf-learner'
import { checkGgufTrainable } from './gguf-policy'
import type { LlmHome } from '../../llm/llama-runtime'
import { formatDuration, remainingSeconds, type StepTiming } from '../../../common'
import { createHeadLearner } from './head-learner'
import { evaluatePolicy, firstHeldOut, type HeldOutResult } from './held-out'
import type { Learner, StepGroupRollout, TrainedGguf } from './learner'
import { resolveTrainConfig } from './resolve-config'
import { playRollout } from './rollouts'
import { rolloutSeed, stepQuestions } from './schedule'
import { TrainingStore } from './store'

export interface TrainingDeps extends GgufLearnerDeps {
  answerer: Answerer
  /** How to rebuild the answerer when the run is resumed in another process (stored with the run). */
  answererSpec?: { kind: 'lexical' } | { kind: 'gguf'; modelPath: string }
  appVersion: string
  jobId: string | null
  /** Called after each completed step with its diagnostics (live charts). */
  onStep?(step: number, diagnostics: Record<string, unknown>): void
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
  const id =
    runId ??
    runs.createRun({ kind: 'train', name: config.name || (config.gguf?.teacher ? `warm start · gguf · ${config.environment} · from ${config.gguf.teacher}` : `train · ${config.gguf ? `gguf · ${config.environment}` : config.environment} · ${config.credit.scheme}`), config: { kind: 'training', ...config, envConfig: { ...factory.defaults, ...config.envConfig }, answerer: deps.answererSpec ?? { kind: 'lexical' }, answererName: deps.answerer.name }, seed: config.seed, appVersion: deps.appVersion, corpusSignature: corpusSignature(raw), jobId: deps.jobId })
  if (runId !== null) runs.resumeRun(id, deps.jobId)
  /** Held-out episodes of this process's last evaluation that a wall-clock guard cut short (their figures then depend on load). */
  let heldOutGuards = { episodes: 0, steps: 0 }
  // Rollouts (stored episodes) plus every held-out evaluation (each step's diagnostics, and the final one here).
  const wallClockGuards = (final: { episodes: number; steps: number } | null) => {
    const held = store.diagnostics(id).map((d) => (d.diagnostics as { heldOutWallClockGuards?: { episodes: number; steps: number } | null }).heldOutWallClockGuards)
    return [...held, final].reduce<{ episodes: number; steps: number }>((t, g) => (g ? { episodes: t.episodes + g.episodes, steps: t.steps + g.steps } : t), runs.wallClockGuards(id))
  }
  const summary = (extra: Record<string, unknown>, final: { episodes: number; steps: number } | null = null) => ({
    ...extra,
    steps: store.diagnostics(id).length,
    bytesPerRollout: store.bytesPerRollout(id),
    wallClockGuards: wallClockGuards(final),
  })
  const checkpoint = store.lastCheckpoint(id)
  const ctx = environmentContext(raw)
  const env = createEnvironment(config.environment, ctx, config.envConfig)
  const evalEnv = createEnvironment(config.environment, ctx, config.envConfig)
  const evidence = new EvidenceResolver(raw)
  const train = loadQuestions(raw, config.train)
  const heldOut = loadQuestions(raw, config.heldOut)
  const rolloutCtx = { raw, evidence, answerer: deps.answerer, reward: config.reward, rewardScheme: factory.rewardScheme, credit: config.credit.scheme }
  // The environment's own reward on the held-out split (Harness-1's, with the run's weight edits), as an evaluation run stores it.
  const heldOutRewarder = rewarderFor(factory.rewardScheme, raw, config.reward.harness1Weights)
  let learner: Learner | null = null
  try {
    learner = config.gguf
      ? await createGgufLearner({ raw, config, runId: id, checkpoint, deps, heldOutPass: async (policy, onTrajectory) => void (await evaluatePolicy(evalEnv, policy, heldOut, deps.answerer, evidence, config.seed, onTrajectory)) })
      : await createHeadLearner(config, factory.protocol, checkpoint, deps.llm, { raw, env, train, progress: deps.progress, throwIfCancelled: deps.throwIfCancelled })
    const evaluate = async (l: Learner): Promise<HeldOutResult> => {
      const phase = await l.evalPolicy()
      heldOutGuards = { episodes: 0, steps: 0 }
      try {
        return await evaluatePolicy(
          evalEnv,
          phase.policy,
          heldOut,
          deps.answerer,
          evidence,
          config.seed,
          (t) => {
            deps.throwIfCancelled()
            l.observeHeldOut?.(t)
            const g = t.outcome.wallClockGuards ?? 0
            if (g > 0) heldOutGuards = { episodes: heldOutGuards.episodes + 1, steps: heldOutGuards.steps + g }
          },
          heldOutRewarder,
        )
      } finally {
        await phase.dispose()
      }
    }
    let before: HeldOutResult | null = null
    const first = checkpoint ? checkpoint.step + 1 : 0
    const timing: StepTiming[] = []
    // Each progress line carries the last finished step's mean reward, so a terminal shows the curve as it grows.
    let lastStep = ''
    for (let step = first; step < config.steps; step++) {
      deps.throwIfCancelled()
      deps.progress(step / config.steps, 'training', `Step ${step + 1}/${config.steps}${lastStep}`)
      const t0 = performance.now()
      let heldOutNow: HeldOutResult | null = null
      if (step % config.evalInterval === 0) {
        heldOutNow = await evaluate(learner)
        if (step === 0) before = heldOutNow
      }
      const tRollouts = performance.now()
      const heldOutSeconds = heldOutNow ? (tRollouts - t0) / 1000 : null
      const phase = await learner.rolloutPolicy()
      const groups: StepGroupRollout[][] = []
      try {
        for (const [j, q] of stepQuestions(train, config, step).entries()) {
          const group: StepGroupRollout[] = []
          for (let g = 0; g < config.groupSize; g++) {
            deps.throwIfCancelled()
            group.push({ rollout: await playRollout(env, phase.policy, q, rolloutSeed(config, step, j, g), rolloutCtx), questionId: q.rowId })
          }
          groups.push(group)
        }
      } finally {
        await phase.dispose()
      }
      const rolloutSeconds = (performance.now() - tRollouts) / 1000
      const update = await learner.update(step, groups)
      const rollouts = groups.flat().length
      const diagnostics = {
        ...update.diagnostics,
        rolloutsPerSecond: rolloutSeconds > 0 ? rollouts / rolloutSeconds : 0,
        rolloutSeconds,
        heldOutSeconds,
        seconds: (performance.now() - t0) / 1000,
        heldOut: heldOutNow ? meanOf(heldOutNow) : null,
        heldOutWallClockGuards: heldOutNow ? heldOutGuards : null,
      }
      timing.push({ seconds: diagnostics.seconds, heldOutSeconds })
      store.saveStep(
        id,
        step,
        groups.flatMap((g, gi) => g.map((x, ri) => ({ ...x, stepAdvantages: update.stepAdvantages[gi]![ri]! }))),
        { ...diagnostics, heldOutPerQuestion: heldOutNow?.perQuestion ?? null },
        update.checkpoint,
      )
      learner.committed?.(step, update.checkpoint)
      const rewards = groups.flat().map((x) => x.rollout.reward.total)
      lastStep = ` · step ${step + 1} mean reward ${(rewards.reduce((a, b) => a + b, 0) / Math.max(1, rewards.length)).toFixed(3)}${remainingWords(timing, config, step)}`
      deps.onStep?.(step, diagnostics)
    }
    const after = await evaluate(learner)
    before ??= firstHeldOut(store, id, config.seed)
    const extra = (await learner.finish?.()) ?? {}
    runs.finishRun(id, 'done', summary({ aggregates: after.aggregates, before: before?.aggregates ?? null, heldOutAfter: after.perQuestion, heldOutBefore: before?.perQuestion ?? null, ...extra }, heldOutGuards))
    deps.progress(1, 'done', `${config.steps} steps${lastStep}`)
    return { runId: id, steps: config.steps, before, after, config, model: learner.model() }
  } catch (err) {
    const cancelled = err instanceof Error && err.name === 'JobCancelledError'
    runs.finishRun(id, cancelled ? 'cancelled' : 'failed', summary({}), cancelled ? undefined : err instanceof Error ? err.message : String(err))
    throw err
  } finally {
    await learner?.dispose()
  }
}

/** "about N min left" from the steps this process measured: the rest of the steps, and the final held-out pass. */
function remainingWords(timing: StepTiming[], config: TrainConfig, step: number): string {
  const left = remainingSeconds(timing, { steps: config.steps, evalInterval: config.evalInterval }, step)
  return left === null ? '' : ` · about ${formatDuration(left)} left`
}
