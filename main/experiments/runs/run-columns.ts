/**
 * The JSON columns of runs and train_steps that the run repositories read (main/db/schema.ts), each with
 * its schema and codec. Summaries are loose objects: a run kind adds its own fields, and readers take
 * only what they name.
 */
import { z } from 'zod'
import { ActionSchema } from '../../../preload/contract/trajectory'
import { jsonColumn, MetricValues } from '../../db/json-column'

/** Per question id, its metrics (a held-out evaluation). */
export const PerQuestionMetrics = z.record(z.string(), MetricValues)

const Aggregate = z.looseObject({ mean: z.number().nullable(), count: z.number().optional(), ci: z.object({ lower: z.number(), upper: z.number() }).nullable().optional() })

/** Episodes and steps a wall-clock safety net cut short. */
const WallClockGuards = z.object({ episodes: z.number(), steps: z.number() })

export const RunSummaryJson = z.looseObject({
  aggregates: z.record(z.string(), Aggregate).optional(),
  heldOutBefore: PerQuestionMetrics.nullable().optional(),
  heldOutAfter: PerQuestionMetrics.nullable().optional(),
  /** Episodes and steps a wall-clock safety net cut short (evaluations store it; see StepInfo.wallClockGuard). */
  wallClockGuards: WallClockGuards.optional(),
})

/** One stored rollout step: enough to replay the episode exactly and to show its credit. */
export const CompactStepSchema = z.object({
  action: ActionSchema,
  logprob: z.number().nullable(),
  /** The chosen candidate's index and the candidate count (the head's decision). */
  index: z.number().nullable(),
  candidates: z.number().nullable(),
  credit: z.object({ total: z.number(), frontier: z.number(), enablement: z.number(), gain: z.number() }),
  advantage: z.number(),
})

/** A step's checkpoint: the head's weights and Adam's state (their own restore checks them), and a GGUF run's files. */
export const TrainingCheckpointSchema = z.object({
  step: z.number(),
  head: z.unknown(),
  adam: z.unknown(),
  /** GGUF runs: the weights after this step, the optimizer state beside them and the learning rate the KL guard left. */
  gguf: z.object({ modelPath: z.string(), sha256: z.string(), optimizerState: z.string().optional(), lr: z.number().optional() }).optional(),
})

/** What a run ran on (ablations and findings store the same shape). */
export const RanOn = z.object({ appVersion: z.string(), corpusSignature: z.string(), models: z.array(z.string()) })

export const runColumns = {
  summary: jsonColumn('runs.summary_json', RunSummaryJson),
  /** A step's diagnostics: loose (each learner adds its own), with the held-out results per question typed. */
  diagnostics: jsonColumn(
    'train_steps.diagnostics_json',
    z.looseObject({ heldOutPerQuestion: PerQuestionMetrics.nullable().optional(), heldOutWallClockGuards: WallClockGuards.nullable().optional() }),
  ),
  heldOutPerQuestion: jsonColumn('train_steps.diagnostics_json $.heldOutPerQuestion', PerQuestionMetrics),
  checkpoint: jsonColumn('train_steps.checkpoint_json', TrainingCheckpointSchema),
  compactSteps: jsonColumn('episodes.steps_blob (inflated)', z.array(CompactStepSchema)),
}
