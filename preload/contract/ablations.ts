/**
 * The ablation matrix in the contract: a base config, rows that are config deltas over it (environment
 * presets, menu vs free query, policy variants, training deltas), seeds and a question split; the
 * ablation.run job's parameters and result; and the stored, self-contained results.
 */
import { z } from 'zod'
import { route } from './define'
import { DifferenceEstimateSchema, EstimateSchema } from './paired'
import { questionRangeShape } from './question-range'
import { AnswererSpec, PolicySpec } from './runs'
import { GgufTrainSchema, RewardConfigSchema } from './training'

const WorkspaceId = z.string().min(1).max(64)
const AblationId = z.number().int().min(1)
const omitSet = <S extends { questionSetId: unknown }>({ questionSetId: _set, ...rest }: S): Omit<S, 'questionSetId'> => rest
const Seed = z.number().int().min(0).max(2 ** 31 - 1)

/** What a row's policy is: a scripted or GGUF policy, the trained head (before or after its training run), or a GGUF model with a LoRA adapter. */
export const AblationPolicySchema = z.union([
  PolicySpec,
  z.strictObject({ kind: z.literal('head'), stage: z.enum(['before', 'after']) }),
  z.strictObject({ kind: z.literal('llm-lora'), modelPath: z.string().trim().min(1).max(4096), loraPath: z.string().trim().min(1).max(4096) }),
])
export type AblationPolicy = z.infer<typeof AblationPolicySchema>

/** The short training run of the rows that need one (credit, estimator, reward, head): the ablation's split is its held-out split. */
export const AblationTrainingBase = z.strictObject({
  /** Train questions of the same set (a range of it without its set id); they must not overlap the evaluated split. */
  ...omitSet(questionRangeShape({ default: 20 })),
  steps: z.number().int().min(1).max(1000).default(4),
  groupSize: z.number().int().min(1).max(64).default(2),
  questionsPerStep: z.number().int().min(1).max(256).default(2),
  evalInterval: z.number().int().min(1).default(2),
  credit: z.strictObject({ scheme: z.string().min(1).max(64), lambda: z.number().min(0).max(10).default(0.5) }).default({ scheme: 'outcome', lambda: 0.5 }),
  estimator: z.string().min(1).max(64).default('grpo'),
  /** Left out: the default for the set's gold level (paragraph F1 + all-gold on paragraph gold, SP F1 + all-gold on sentence gold). */
  reward: RewardConfigSchema.optional(),
  /** Set: every training row trains this GGUF model's own weights (not the head) and evaluates the trained weights. */
  gguf: GgufTrainSchema.optional(),
})
export type AblationTrainingBase = z.infer<typeof AblationTrainingBase>

export const AblationBaseSchema = z.strictObject({
  environment: z.string().min(1).max(64),
  envConfig: z.record(z.string(), z.unknown()).default({}),
  policy: AblationPolicySchema,
  answerer: AnswererSpec.default({ kind: 'lexical' }),
  rewardWeights: z.record(z.string(), z.number()).default({}),
  /** The questions to evaluate (a stored split of the set: offset and limit then count within it). */
  ...questionRangeShape({ default: 20, max: 10_000 }),
  /** Every cell runs every seed on the same questions in the same order. */
  seeds: z.array(Seed).min(1).max(10).default([1]),
  previews: z.boolean().default(true),
  training: AblationTrainingBase.default(() => ({ offset: 0, limit: 20, steps: 4, groupSize: 2, questionsPerStep: 2, evalInterval: 2, credit: { scheme: 'outcome', lambda: 0.5 }, estimator: 'grpo' })),
})
export type AblationBase = z.infer<typeof AblationBaseSchema>
export type AblationBaseInput = z.input<typeof AblationBaseSchema>

/** A row: a delta over the base. A row with `training` (or a head policy) runs a short training run first, then evaluates the held-out split. */
export const AblationRowSchema = z.strictObject({
  label: z.string().trim().min(1, 'give the row a label').max(120),
  /** Which catalogue group the row came from (for the table's grouping only). */
  group: z.string().max(64).default('custom'),
  environment: z.string().min(1).max(64).optional(),
  /** An environment preset by name (its delta is applied before envConfig). */
  preset: z.string().min(1).max(64).optional(),
  envConfig: z.record(z.string(), z.unknown()).optional(),
  policy: AblationPolicySchema.optional(),
  rewardWeights: z.record(z.string(), z.number()).optional(),
  training: z
    .strictObject({
      credit: z.strictObject({ scheme: z.string().min(1).max(64), lambda: z.number().min(0).max(10).default(0.5) }).optional(),
      estimator: z.string().min(1).max(64).optional(),
      reward: RewardConfigSchema.optional(),
    })
    .optional(),
})
export type AblationRow = z.infer<typeof AblationRowSchema>
export type AblationRowInput = z.input<typeof AblationRowSchema>

export const AblationConfigSchema = z.strictObject({
  base: AblationBaseSchema,
  /** Rows beside the base (the base is always row 0). */
  rows: z.array(AblationRowSchema).min(1, 'choose at least one row').max(40),
  /** Cells run at the same time, at most; 0: as many as the machine has cores to spare. */
  parallel: z.number().int().min(0).max(16).default(0),
})
export type AblationConfig = z.infer<typeof AblationConfigSchema>
export type AblationConfigInput = z.input<typeof AblationConfigSchema>

/** A row as resolved when saved: what it runs, or why it cannot. */
export const ResolvedRowSchema = z.object({
  index: z.number(),
  label: z.string(),
  group: z.string(),
  kind: z.enum(['eval', 'train']),
  environment: z.string(),
  envConfig: z.record(z.string(), z.unknown()),
  policy: z.record(z.string(), z.unknown()),
  rewardWeights: z.record(z.string(), z.number()),
  /** The full training config delta of a training row (null for evaluation rows). */
  training: z.record(z.string(), z.unknown()).nullable(),
  /** null when the row can run; otherwise a plain reason. */
  unavailable: z.string().nullable(),
})
export type ResolvedRow = z.infer<typeof ResolvedRowSchema>

/** A cell of the table: the row's mean of a metric, and its paired difference against the base; `reason` says why a cell is empty. */
export const AblationCellSchema = z.object({
  value: EstimateSchema,
  difference: DifferenceEstimateSchema,
  reason: z.string().nullable(),
})
export type AblationCell = z.infer<typeof AblationCellSchema>

export const AblationRowResultSchema = z.object({
  index: z.number(),
  label: z.string(),
  group: z.string(),
  kind: z.enum(['eval', 'train']),
  environment: z.string(),
  unavailable: z.string().nullable(),
  /** Why the row has no results although it could run (a failed cell), else null. */
  error: z.string().nullable(),
  runIds: z.array(z.number()),
  trainRunIds: z.array(z.number()),
  /** Base (question, seed) pairs this row has no episode for: reported, never silently paired. */
  missing: z.object({ count: z.number(), questions: z.array(z.string()) }),
  cells: z.record(z.string(), AblationCellSchema),
  /** Per (question:seed) key: the episode id and each metric's value (the scatter and its click-through). */
  episodes: z.record(z.string(), z.object({ episodeId: z.number(), metrics: z.record(z.string(), z.number().nullable()) })),
  /** Steps per tool (tool environments) or menu item type (menu environments), summed over episodes. */
  toolMix: z.record(z.string(), z.number()),
  /** Training rows: reward per step and held-out means at each evaluation, one series per seed. */
  curves: z.array(z.object({ seed: z.number(), runId: z.number(), points: z.array(z.object({ step: z.number(), reward: z.number().nullable(), heldOut: z.record(z.string(), z.number().nullable()).nullable() })) })),
})
export type AblationRowResult = z.infer<typeof AblationRowResultSchema>

export const AblationResultsSchema = z.object({
  metrics: z.array(z.string()),
  /** The (question:seed) keys of the base, in order, with the question text. */
  keys: z.array(z.object({ key: z.string(), questionId: z.number(), seed: z.number(), question: z.string() })),
  rows: z.array(AblationRowResultSchema),
  bootstrap: z.object({ resamples: z.number(), confidence: z.number(), seed: z.number(), unit: z.string() }),
})
export type AblationResults = z.infer<typeof AblationResultsSchema>

export const AblationCellProgressSchema = z.object({ row: z.number(), seed: z.number(), status: z.string(), done: z.number(), total: z.number(), runId: z.number().nullable(), trainRunId: z.number().nullable(), error: z.string().nullable() })

export const AblationSummarySchema = z.object({
  id: z.number(),
  name: z.string(),
  status: z.enum(['saved', 'running', 'done', 'failed', 'cancelled']),
  jobId: z.string().nullable(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
  error: z.string().nullable(),
  rows: z.number(),
  /** The ablation this one re-runs, if any. */
  rerunOf: z.number().nullable(),
})
export type AblationSummary = z.infer<typeof AblationSummarySchema>

export const AblationDetailSchema = AblationSummarySchema.extend({
  config: AblationConfigSchema,
  resolved: z.array(ResolvedRowSchema),
  /** What it ran on, recorded when it started: the app version, the corpus signature, model files by hash. */
  ranOn: z.object({ appVersion: z.string(), corpusSignature: z.string(), models: z.array(z.string()) }).nullable(),
  /** The workspace's corpus signature now: differs from ranOn's when the corpus changed since. */
  corpusSignatureNow: z.string(),
  cells: z.array(AblationCellProgressSchema),
  results: AblationResultsSchema.nullable(),
})
export type AblationDetail = z.infer<typeof AblationDetailSchema>

export const AblationRunParams = z.strictObject({ ablationId: AblationId })
export const AblationRunResult = z.object({ ablationId: z.number(), cells: z.number(), seconds: z.number() })

export const ablationRoutes = {
  'ablations.list': route('Saved ablations of the workspace, newest first', z.strictObject({ workspaceId: WorkspaceId }), z.array(AblationSummarySchema)),
  'ablations.save': route(
    'Save a named ablation (base, rows, seeds, split); every row is resolved now and says why if it cannot run',
    z.strictObject({ workspaceId: WorkspaceId, name: z.string().trim().min(1, 'give the ablation a name').max(100), config: AblationConfigSchema }),
    AblationDetailSchema,
  ),
  'ablations.get': route('One ablation with its rows, cell progress and stored results', z.strictObject({ workspaceId: WorkspaceId, id: AblationId }), AblationDetailSchema),
  'ablations.rerun': route('Copy an ablation under the same name (the original and its results stay as they are)', z.strictObject({ workspaceId: WorkspaceId, id: AblationId }), AblationDetailSchema),
  'ablations.delete': route('Delete a saved ablation (its runs stay)', z.strictObject({ workspaceId: WorkspaceId, id: AblationId }), z.object({ deleted: z.boolean() })),
}
