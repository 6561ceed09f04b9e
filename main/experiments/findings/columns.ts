/**
 * The JSON columns of findings (main/db/schema.ts) that are not parsed by a contract schema already: the
 * experiments a run holds, the plan it was saved with and what it ran on, each with its schema and codec.
 */
import { z } from 'zod'
import { AnswererSpec, FindingsBudget, GgufTrainSchema } from '../../../preload/contract'
import { jsonColumn } from '../../db/json-column'
import { RanOn } from '../runs/run-columns'
import type { BudgetSpec } from './budget'
import type { PlanContext } from './claims'

export const StoredExperimentSchema = z.object({
  key: z.string(),
  ablationId: z.number(),
  claims: z.array(z.string()),
  /** Seconds spent running it, summed over resumes. */
  seconds: z.number(),
})
export type StoredExperiment = z.infer<typeof StoredExperimentSchema>

const Range = z.object({ split: z.string().optional(), offset: z.number(), limit: z.number() })

const BudgetSchema = z.object({
  name: FindingsBudget,
  heldOut: z.number(),
  train: z.number(),
  steps: z.number(),
  groupSize: z.number(),
  questionsPerStep: z.number(),
  seeds: z.number(),
  singleMechanisms: z.boolean(),
  departures: z.array(z.string()),
}) satisfies z.ZodType<BudgetSpec>

const PlanSchema = z.object({
  questionSetId: z.number(),
  heldOut: Range,
  train: Range,
  budget: BudgetSchema,
  seeds: z.array(z.number()),
  answerer: AnswererSpec,
  evidenceMetric: z.enum(['sp.f1', 'paragraph.f1']),
  gguf: GgufTrainSchema.nullable().optional(),
}) satisfies z.ZodType<PlanContext>

export const findingsColumns = {
  experiments: jsonColumn('findings.experiments_json', z.array(StoredExperimentSchema)),
  plan: jsonColumn('findings.plan_json', PlanSchema),
  ranOn: jsonColumn('findings.ran_on_json', RanOn),
}
