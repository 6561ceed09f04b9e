/**
 * The one episode loop: evaluation, benches, tests, RL rollouts and the environment server all drive an
 * environment with a policy through this function, so there is exactly one definition of what a step is.
 */
import type { Policy } from './policy'
import type { Trajectory, TrajectoryStep } from './trajectory'
import type { Environment, EnvQuestion, EpisodeOutcome, Preview } from './types'

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

export async function runEpisode(env: Environment, policy: Policy, question: EnvQuestion, seed: number, options: EpisodeLoopOptions = {}): Promise<Trajectory> {
  const t0 = performance.now()
  const keepSnapshots = options.snapshots ?? true
  const maxSteps = options.maxSteps ?? 200
  let observation = await env.reset(question, seed)
  const resetMs = performance.now() - t0
  policy.reset({ seed, question })
  const initialSnapshot = keepSnapshots ? env.snapshot() : null
  const steps: TrajectoryStep[] = []
  for (let t = 0; !env.done && t < maxSteps; t++) {
    const ts = performance.now()
    const actions = env.actions()
    let previews: Record<string, Preview | null> | null = null
    if (options.previews && actions.kind === 'menu') {
      previews = {}
      for (const item of actions.items) previews[item.id] = await env.preview({ kind: 'menu', id: item.id })
    }
    const tp = performance.now()
    const { action, ...decision } = await policy.act(observation, actions)
    const te = performance.now()
    const result = await env.step(action)
    const done = performance.now()
    const step: TrajectoryStep = {
      t,
      observationText: observation.text,
      actions,
      previews,
      action,
      decision,
      info: result.info,
      snapshot: keepSnapshots ? env.snapshot() : null,
      ms: done - ts,
      timings: { previews: tp - ts, policy: te - tp, env: done - te },
      ...(options.observations ? { observation } : {}),
    }
    steps.push(step)
    await options.onStep?.(step, env)
    observation = result.observation
  }
  const envOutcome = env.outcome()
  // A policy stopped by the step cap did not end the episode itself: say so rather than report 'running'.
  const outcome: EpisodeOutcome = env.done ? envOutcome : { ...envOutcome, endReason: 'step-cap' }
  const finished = options.finish ? await options.finish(env, outcome) : { answer: null, metrics: {} }
  return {
    environment: env.name,
    question,
    seed,
    initialSnapshot,
    steps,
    resetMs,
    outcome,
    answer: outcome.answer ?? finished.answer,
    metrics: finished.metrics,
    ms: performance.now() - t0,
  }
}
