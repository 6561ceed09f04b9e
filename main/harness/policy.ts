/** What drives an environment: scripted policies, LLM policies and the trainable head (main/policy). */
import type { DecisionShape } from '../../preload/contract/trajectory'
import type { Action, ActionSpace, EnvQuestion, Observation } from './types'

/** The chosen action and the policy's side of the step (log-probability, raw output, what a trainer needs). */
export type PolicyDecision = { action: Action } & DecisionShape

export interface Policy {
  readonly name: string
  /**
   * Called once per episode. Policies that sample must seed from `seed`. `question` carries the gold
   * so that an oracle can follow it; other policies must not look at the gold fields.
   */
  reset(episode: { seed: number; question: EnvQuestion }): void
  act(observation: Observation, actions: ActionSpace): Promise<PolicyDecision>
}
