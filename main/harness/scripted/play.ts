import type { Policy } from '../policy'
import type { Environment, EnvQuestion, EpisodeOutcome, StepInfo } from '../types'

export interface PlayedEpisode {
  outcome: EpisodeOutcome
  steps: StepInfo[]
  /** Snapshot after reset and after every step, when asked for. */
  snapshots: unknown[]
}

/**
 * Drives one episode to its end with no answerer and no recording beyond step infos: what tests,
 * benches and quick checks need (the evaluation job has its own, fuller loop).
 */
export async function playEpisode(
  env: Environment,
  policy: Policy,
  question: EnvQuestion,
  seed: number,
  options: { snapshots?: boolean; maxSteps?: number } = {},
): Promise<PlayedEpisode> {
  let observation = await env.reset(question, seed)
  policy.reset({ seed, question })
  const steps: StepInfo[] = []
  const snapshots: unknown[] = options.snapshots ? [env.snapshot()] : []
  const maxSteps = options.maxSteps ?? 1000
  while (!env.done && steps.length < maxSteps) {
    const { action } = await policy.act(observation, env.actions())
    const result = await env.step(action)
    steps.push(result.info)
    if (options.snapshots) snapshots.push(env.snapshot())
    observation = result.observation
  }
  return { outcome: env.outcome(), steps, snapshots }
}
