/**
 * The one record every run row stores (runs.config_json): its config, discriminated by what produced
 * the run, always flat (a training run's config is not nested), parsed with RunConfig where it is read.
 * Its questions are QuestionRange fields: an evaluation's at the top level, a training run's under
 * `train` and `heldOut`. main/db/migrations.ts (0011_run_config_kind) rewrote rows of older shapes.
 */
import { z } from 'zod'
import { QuestionRange } from './question-range'
import { TrainAnswererSpec, TrainConfigSchema } from './training'

/** The policy as a run records it: its spec (scripted, llm, head, ...) with the name it resolved to. */
const StoredPolicy = z.looseObject({ kind: z.string(), name: z.string() })
/** The answerer's spec with its resolved name, and whether it is the lexical one. */
const StoredAnswerer = z.looseObject({ kind: z.string(), name: z.string(), lexical: z.boolean() })

const evaluationFields = {
  name: z.string(),
  environment: z.string(),
  /** The environment's defaults with the run's delta applied. */
  envConfig: z.record(z.string(), z.unknown()),
  policy: StoredPolicy,
  answerer: StoredAnswerer,
  ...QuestionRange.shape,
  seed: z.number().int(),
  previews: z.boolean(),
  rewardWeights: z.record(z.string(), z.unknown()).optional(),
}

/** An evaluation run (evaluate job, CLI). */
export const EvaluationRunConfig = z.object({ kind: z.literal('evaluation'), ...evaluationFields })
/** The evaluation of one ablation cell: an evaluation that names its ablation and row. */
export const AblationCellRunConfig = z.object({ kind: z.literal('ablation-cell'), ...evaluationFields, ablation: z.object({ id: z.number().int(), row: z.number().int() }) })
/** A training run: its whole TrainConfig (envConfig resolved) and the answerer that scored its rollouts. */
export const TrainingRunConfig = TrainConfigSchema.extend({ kind: z.literal('training'), answerer: TrainAnswererSpec, answererName: z.string().optional() })
/** Episodes an external trainer played through the environment server, kept as one run per environment and config. */
export const EnvServerRunConfig = z.object({
  kind: z.literal('env-server'),
  environment: z.string(),
  envConfig: z.record(z.string(), z.unknown()),
  reward: z.unknown(),
  credit: z.string(),
  answerer: z.object({ name: z.string(), lexical: z.boolean() }),
  policy: z.object({ kind: z.literal('external'), name: z.string() }),
})

export const RunConfig = z.discriminatedUnion('kind', [EvaluationRunConfig, AblationCellRunConfig, TrainingRunConfig, EnvServerRunConfig])
export type RunConfig = z.infer<typeof RunConfig>
export type TrainingRunConfig = z.infer<typeof TrainingRunConfig>
export type EvaluationRunConfig = z.infer<typeof EvaluationRunConfig>
