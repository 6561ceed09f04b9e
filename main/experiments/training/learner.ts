/**
 * A learner is what a training run trains: the policy head over features, or the GGUF policy's own
 * weights. The one training loop (run-training.ts) owns the run's rows, the schedule, held-out evaluation,
 * cancel, resume and storage; a learner plays, updates and checkpoints.
 */
import type { Policy, Trajectory } from '../../harness'
import type { PlayedRollout } from './rollouts'
import type { TrainingCheckpoint } from './store'

/** A policy for one phase (a step's rollouts, a held-out pass), released after it. */
export interface PhasePolicy {
  policy: Policy
  dispose(): Promise<void>
}

export interface StepGroupRollout {
  rollout: PlayedRollout
  questionId: number
}

export interface LearnerUpdate {
  /** Learner-specific diagnostics (loss, gradient norm, entropy, ...), merged into the step's. */
  diagnostics: Record<string, unknown>
  /** Per group, per rollout, per episode step: the advantage each step was trained with. */
  stepAdvantages: number[][][]
  checkpoint: TrainingCheckpoint
}

export interface Learner {
  /** Samples the step's rollouts. */
  rolloutPolicy(): Promise<PhasePolicy>
  /** Plays the held-out split greedily. */
  evalPolicy(): Promise<PhasePolicy>
  /** Sees each held-out episode (the GGUF learner keeps prompts for its KL probe). */
  observeHeldOut?(t: Trajectory): void
  /** Scores, credits and updates on one step's groups. */
  update(step: number, groups: StepGroupRollout[][]): Promise<LearnerUpdate>
  /** After the step's transaction committed (the GGUF learner drops the previous step's files). */
  committed?(step: number, checkpoint: TrainingCheckpoint): void
  /** Adds to the finished run's summary (the GGUF learner registers its final model's provenance). */
  finish?(): Promise<Record<string, unknown>>
  dispose(): Promise<void>
}
