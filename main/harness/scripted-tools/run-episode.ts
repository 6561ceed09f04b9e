/** Drives one episode of any environment with any policy until it ends (or a step cap is hit). */
import type { Policy } from '../policy'
import type { EnvQuestion, Environment, StepResult } from '../types'

export interface EpisodeRun {
  steps: StepResult[]
  /** Environment ms per step (from StepInfo). */
  stepMs: number[]
}

export async function runEpisode(env: Environment, policy: Policy, question: EnvQuestion, seed: number, maxSteps = 1000): Promise<EpisodeRun> {
  policy.reset({ seed, question })
  let observation = await env.reset(question, seed)
  const steps: StepResult[] = []
  while (!env.done && steps.length < maxSteps) {
    const decision = await policy.act(observation, env.actions())
    const r = await env.step(decision.action)
    steps.push(r)
    observation = r.observation
  }
  return { steps, stepMs: steps.map((s) => s.info.ms) }
}
