/** What drives an environment: scripted policies (main/harness/scripted), LLM policies (main/policy). */
import type { Action, ActionSpace, EnvQuestion, Observation } from './types'

export interface PolicyDecision {
  action: Action
  /** Log-probability of the chosen action under the policy, when it has one. */
  logprob?: number
  /** Raw model output, token count and latency, for LLM policies. */
  raw?: string
  tokens?: number
  ms?: number
}

export interface Policy {
  readonly name: string
  /**
   * Called once per episode. Policies that sample must seed from `seed`. `question` carries the gold
   * so that an oracle can follow it; other policies must not look at the gold fields.
   */
  reset(episode: { seed: number; question: EnvQuestion }): void
  act(observation: Observation, actions: ActionSpace): Promise<PolicyDecision>
}
