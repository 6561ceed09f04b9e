/**
 * Credit quality of a training run (issue 30): every credit scheme re-credits the run's stored rollouts
 * of some steps with an offline stand-in scorer, and each per-step signal is judged by how well it ranks
 * the steps on a gold path (rank AUC with a bootstrap CI over questions).
 */
import { z } from 'zod'

/** The offline stand-ins that can score evidence here (a GGUF answerer needs its model loaded: use the bench or CLI). */
export const CreditQualityScorer = z.enum(['lexical', 'support'])

/** At most this many steps per request: each rollout is replayed and scored by every scheme. */
export const CREDIT_QUALITY_MAX_STEPS = 10

export const CreditQualityInput = z
  .object({
    workspaceId: z.string().min(1).max(64),
    runId: z.number().int().min(1),
    fromStep: z.number().int().min(0).default(0),
    /** Default: fromStep. */
    toStep: z.number().int().min(0).optional(),
    scorer: CreditQualityScorer.default('lexical'),
  })
  .strict()
  .refine((x) => x.toStep === undefined || x.toStep >= x.fromStep, { message: 'toStep must not be before fromStep', path: ['toStep'] })
  .refine((x) => x.toStep === undefined || x.toStep - x.fromStep < CREDIT_QUALITY_MAX_STEPS, { message: `at most ${CREDIT_QUALITY_MAX_STEPS} steps at a time`, path: ['toStep'] })

const AucSlice = z.object({ auc: z.number().nullable(), positives: z.number(), negatives: z.number(), questions: z.number() })

export const SignalQualitySchema = AucSlice.extend({
  ci: z.object({ lower: z.number(), upper: z.number() }).nullable(),
  mean: z.number().nullable(),
  constant: z.boolean(),
  groupVariance: z.number().nullable(),
  zeroGroupShare: z.number().nullable(),
  byType: z.record(z.string(), AucSlice),
  byHops: z.record(z.string(), AucSlice),
})

export const CreditQualityReportSchema = z.object({
  runId: z.number(),
  fromStep: z.number(),
  toStep: z.number(),
  answerer: z.string(),
  standIn: z.boolean(),
  lambda: z.number(),
  schemes: z.array(z.string()),
  questions: z.number(),
  rollouts: z.number(),
  skipped: z.number(),
  signals: z.record(z.string(), SignalQualitySchema),
})
export type CreditQualityReport = z.infer<typeof CreditQualityReportSchema>
