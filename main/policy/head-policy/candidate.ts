/** What the head chooses among: candidate actions with a type and features, built per protocol. */
import type { Action, ActionSpace, Observation, Protocol } from '../../harness'
import type { FeatureLayout, StateFeatures } from './features'

export interface Candidate {
  action: Action
  type: string
  label: string
  features: Record<string, number>
}

export interface CandidateBuilder {
  protocol: Protocol
  layout: FeatureLayout
  state(observation: Observation): StateFeatures
  candidates(observation: Observation, actions: ActionSpace): Candidate[]
  /**
   * A builder with a memory of its own for one episode, asked for at every policy reset. Builders whose
   * observations do not show everything they need (Harness-1's transcript baseline renders only the last
   * result) remember what earlier results showed; builders without it are used as they are.
   */
  forEpisode?(): CandidateBuilder
  /** Told which candidate the policy chose, so a per-episode builder can follow the episode. */
  chosen?(candidate: Candidate): void
}
