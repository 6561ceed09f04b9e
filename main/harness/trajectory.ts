/**
 * The typed trajectory the one episode loop returns. Its step shape is the contract's (preload/contract/
 * trajectory.ts), so what evaluation stores, what training reads and what the Trajectory view renders
 * are one type.
 */
import type { TrajectoryStepShape } from '../../preload/contract/trajectory'
import type { EnvQuestion, EpisodeOutcome, Observation } from './types'

export interface TrajectoryStep extends TrajectoryStepShape {
  /** The environment's full state after the step (JSON), when snapshots were asked for. */
  snapshot: unknown
  /** The structured observation the policy acted on, kept in memory only when asked for (trainers read state features from it). */
  observation?: Observation
}

export interface Trajectory {
  environment: string
  question: EnvQuestion
  seed: number
  /** The environment's state right after reset, when snapshots were asked for (null otherwise). */
  initialSnapshot: unknown
  steps: TrajectoryStep[]
  /** ms spent in reset (the environment's first observation). */
  resetMs: number
  outcome: EpisodeOutcome
  /** The answer: the environment's own, or the finish hook's (an answerer's); null when neither gave one. */
  answer: string | null
  /** Metrics from the finish hook (evaluation scoring, reward terms); empty without one. */
  metrics: Record<string, number | null>
  ms: number
}
