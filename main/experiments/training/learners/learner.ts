/**
 * A learner is what a training run trains: the policy head over features, or the GGUF policy's own
 * weights. The one training loop (../run-training.ts) owns the run's rows, the schedule, held-out evaluation,
 * cancel, resume and storage; a learner plays, updates and checkpoints.
 */
import type { TrainStepDiagnostics, WarmStartReport } from '../../../../preload/contract'
import type { Policy, Trajectory } from '../../../harness'
import type { TrainResult } from '../../../llm/training'
import type { PlayedRollout } from '../rollouts'
import type { TrainingCheckpoint } from '../store'

/** A policy for one phase (a step's rollouts, a held-out pass), released after it. */
export interface PhasePolicy {
  policy: Policy
  dispose(): Promise<void>
}

export interface StepGroupRollout {
  rollout: PlayedRollout
  questionId: number
}

/**
 * The step diagnostics every learner reports, in the contract's names (TrainStepDiagnostics). The rest of
 * the contract's row is the loop's (step, timing, held-out, rollout count) or only the GGUF learner's.
 */
type SharedDiagnostics = Pick<
  TrainStepDiagnostics,
  | 'reward' | 'components' | 'advantageMean' | 'advantageStd' | 'zeroAdvantageRate' | 'allCorrectRate' | 'allWrongRate'
  | 'equivalenceClasses' | 'spanningGroups' | 'queryDiversity' | 'actionMix' | 'turns' | 'evidence'
  | 'loss' | 'gradNorm' | 'entropy' | 'clippedFraction' | 'keptGroups' | 'creditScale'
>

/** The head's step: the shared diagnostics, and on the first step after a warm start, what it did. */
export type HeadStepDiagnostics = SharedDiagnostics & { warmStart?: WarmStartReport }

/** The GGUF learner's step: the contract's GGUF fields, and the trainer's costs the benches and the launcher's rates read (not in the contract). */
export type GgufStepDiagnostics = SharedDiagnostics &
  Pick<TrainStepDiagnostics, 'klToBase' | 'klWarning' | 'tokensTrained' | 'secondsPerUpdate' | 'learningRate' | 'stepScale'> & {
    pgLoss: TrainResult['pgObjective']
    klLoss: TrainResult['klObjective']
    backtracks: number
    decisionsTrained: number
    optimizerSteps: number
    tokensPerSecond: number
    trainedTokensPerSecond: number
    paddingShare: number
    sharedPrefixShare: number
    datapoints: TrainResult['datapoints']
    klToBaseMax: TrainResult['probeKlMax']
    trainerPeakRssBytes: TrainResult['peakRssBytes']
  }

export type LearnerDiagnostics = HeadStepDiagnostics | GgufStepDiagnostics

/** Narrows a step's diagnostics to the GGUF learner's (only it reports optimizer steps). */
export const isGgufStep = <D extends LearnerDiagnostics>(d: D): d is Extract<D, GgufStepDiagnostics> => 'optimizerSteps' in d

/** A GGUF run's trained model: the file of its last committed step and its provenance. */
export interface TrainedGguf {
  path: string
  sha256: string
  baseModel: string
  baseSha256: string
  runId: number
  step: number
}

/** What a learner adds to the finished run's summary. */
export type LearnerSummary = { ggufModel: TrainedGguf | null }

export interface LearnerUpdate {
  /** Learner-specific diagnostics (loss, gradient norm, entropy, ...), merged into the step's. */
  diagnostics: LearnerDiagnostics
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
  finish?(): Promise<LearnerSummary>
  /** The model the run trained: the GGUF learner's last committed file; null for the head (its weights live in the run's checkpoint). */
  model(): TrainedGguf | null
  dispose(): Promise<void>
}
