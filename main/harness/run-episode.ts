/**
 * The one episode loop: evaluation, benches, tests, RL rollouts and the environment server all drive an
 * environment through the pieces below, so there is exactly one definition of what a step is.
 * runEpisode() drives them with a policy in-process; the environment server (main/env-server) drives the
 * same EpisodeRun from outside, one HTTP request per step.
 */
import type { Policy, PolicyDecision } from './policy'
import type { Trajectory, TrajectoryStep } from './trajectory'
import type { Action, ActionSpace, Environment, EnvQuestion, EpisodeOutcome, Observation, Preview } from './types'

export interface EpisodeLoopOptions {
  /** Preview every menu item at every step (Harness-G: cheap by design; SNC credit needs them). */
  previews?: boolean
  /** Keep the environment's snapshot after reset and after every step (default true). */
  snapshots?: boolean
  /** Keep each step's structured observation in memory (trainers read state features from it). */
  observations?: boolean
  /** Hard stop against a policy that never ends an episode, beyond the environment's own limit (default 200). */
  maxSteps?: number
  /** Called after every step, before the next observation is acted on. */
  onStep?(step: TrajectoryStep, env: Environment): void | Promise<void>
  /** Called once the episode has ended: the answer (when the environment gave none) and the episode's metrics. */
  finish?(env: Environment, outcome: EpisodeOutcome): Promise<{ answer: string | null; metrics: Record<string, number | null> }>
}

/** Where a step's time went before the environment acted (the caller measured it). */
export interface StepTiming {
  /** performance.now() when the step began (before previews). */
  started: number
  previews: number
  policy: number
}

/** One episode in progress: reset, then step() per action, then finish() for the typed trajectory. */
export class EpisodeRun {
  private readonly steps: TrajectoryStep[] = []
  private current: Observation
  private finished = false

  private constructor(
    readonly env: Environment,
    readonly question: EnvQuestion,
    readonly seed: number,
    private readonly options: EpisodeLoopOptions,
    private readonly t0: number,
    readonly resetMs: number,
    first: Observation,
    private readonly initialSnapshot: unknown,
  ) {
    this.current = first
  }

  static async start(env: Environment, question: EnvQuestion, seed: number, options: EpisodeLoopOptions = {}): Promise<EpisodeRun> {
    const t0 = performance.now()
    const observation = await env.reset(question, seed)
    const resetMs = performance.now() - t0
    const initialSnapshot = (options.snapshots ?? true) ? env.snapshot() : null
    return new EpisodeRun(env, question, seed, options, t0, resetMs, observation, initialSnapshot)
  }

  /** The observation the next action answers. */
  get observation(): Observation {
    return this.current
  }

  /** Steps taken so far. */
  get stepCount(): number {
    return this.steps.length
  }

  get trajectorySteps(): readonly TrajectoryStep[] {
    return this.steps
  }

  /** True once the environment ended the episode or the step cap was reached. */
  get done(): boolean {
    return this.env.done || this.steps.length >= (this.options.maxSteps ?? 200)
  }

  /** Every menu item's preview when previews were asked for (menu environments only), else null. */
  async previews(actions: ActionSpace): Promise<Record<string, Preview | null> | null> {
    if (!this.options.previews || actions.kind !== 'menu') return null
    const previews: Record<string, Preview | null> = {}
    for (const item of actions.items) previews[item.id] = await this.env.preview({ kind: 'menu', id: item.id })
    return previews
  }

  /**
   * Applies one action and records the step. `actions` and `previews` are what was on offer when the
   * action was chosen (computed by the caller, so its timing covers them).
   */
  async step(action: Action, decision: Omit<PolicyDecision, 'action'>, offered: { actions: ActionSpace; previews: Record<string, Preview | null> | null }, timing: StepTiming): Promise<TrajectoryStep> {
    if (this.finished) throw new Error('The episode is finished')
    if (this.done) throw new Error('The episode is over: no more steps')
    const te = performance.now()
    const result = await this.env.step(action)
    const end = performance.now()
    const step: TrajectoryStep = {
      t: this.steps.length,
      observationText: this.current.text,
      actions: offered.actions,
      previews: offered.previews,
      action,
      decision,
      info: result.info,
      snapshot: (this.options.snapshots ?? true) ? this.env.snapshot() : null,
      ms: end - timing.started,
      timings: { previews: timing.previews, policy: timing.policy, env: end - te },
      ...(this.options.observations ? { observation: this.current } : {}),
    }
    this.steps.push(step)
    await this.options.onStep?.(step, this.env)
    this.current = result.observation
    return step
  }

  /**
   * Ends the episode: the outcome (an episode the environment did not end is marked `endReason`,
   * 'step-cap' by default), the finish hook's answer and metrics, and the typed trajectory.
   */
  async finish(endReason = 'step-cap'): Promise<Trajectory> {
    if (this.finished) throw new Error('The episode is already finished')
    this.finished = true
    const envOutcome = this.env.outcome()
    // A policy stopped before the environment ended the episode did not end it itself: say so rather than report 'running'.
    const outcome: EpisodeOutcome = this.env.done ? envOutcome : { ...envOutcome, endReason }
    const finished = this.options.finish ? await this.options.finish(this.env, outcome) : { answer: null, metrics: {} }
    return {
      environment: this.env.name,
      question: this.question,
      seed: this.seed,
      initialSnapshot: this.initialSnapshot,
      steps: this.steps,
      resetMs: this.resetMs,
      outcome,
      answer: outcome.answer ?? finished.answer,
      metrics: finished.metrics,
      ms: performance.now() - this.t0,
    }
  }
}

export async function runEpisode(env: Environment, policy: Policy, question: EnvQuestion, seed: number, options: EpisodeLoopOptions = {}): Promise<Trajectory> {
  const run = await EpisodeRun.start(env, question, seed, options)
  policy.reset({ seed, question })
  while (!run.done) {
    const started = performance.now()
    const actions = env.actions()
    const previews = await run.previews(actions)
    const tp = performance.now()
    const { action, ...decision } = await policy.act(run.observation, actions)
    const te = performance.now()
    await run.step(action, decision, { actions, previews }, { started, previews: tp - started, policy: te - tp })
  }
  return run.finish()
}
