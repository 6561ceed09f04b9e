/**
 * Findings in the contract: a run of the papers' matched experiments on the workspace's own corpus (one
 * ablation per experiment, the claims measured from them), the findings.run job's parameters and result,
 * and the stored, self-contained results with a verdict per claim.
 */
import { z } from 'zod'
import { route } from './define'
import { EstimateSchema } from './paired'
import { AnswererSpec } from './runs'
import { GgufTrainSchema } from './training'

const WorkspaceId = z.string().min(1).max(64)
const FindingsId = z.number().int().min(1)

export const FindingsBudget = z.enum(['quick', 'full'])
export type FindingsBudget = z.infer<typeof FindingsBudget>

export const FindingsConfigSchema = z.strictObject({
  questionSetId: z.number().int().min(1),
  /** The policy asked for; each claim says which one it ran with. */
  policy: z.enum(['head', 'gguf']).default('head'),
  /** With policy 'gguf' (required then): the model whose own weights every training arm trains, and its training options. */
  gguf: GgufTrainSchema.optional(),
  /** Seeds per cell; left out, the budget's. */
  seeds: z.number().int().min(1).max(10).optional(),
  budget: FindingsBudget.default('quick'),
  /** The claims to run, by number; left out, all five. */
  claims: z.array(z.number().int().min(1)).min(1).optional(),
  answerer: AnswererSpec.default({ kind: 'lexical' }),
  /** Sizes that replace the budget's (a miniature run, or a longer one); the report lists them as departures. */
  overrides: z
    .strictObject({
      heldOut: z.number().int().min(2).max(10_000).optional(),
      train: z.number().int().min(1).max(100_000).optional(),
      steps: z.number().int().min(1).max(1000).optional(),
      groupSize: z.number().int().min(2).max(64).optional(),
      questionsPerStep: z.number().int().min(1).max(256).optional(),
      singleMechanisms: z.boolean().optional(),
    })
    .default({}),
})
export type FindingsConfig = z.infer<typeof FindingsConfigSchema>
export type FindingsConfigInput = z.input<typeof FindingsConfigSchema>

/** `no evidence`: a precondition failed (too few questions, no variance, a collapsed policy, nothing moved, a zero-width CI); the reason says which. */
export const Verdict = z.enum(['reproduced', 'contradicted', 'inconclusive', 'no evidence'])
export type Verdict = z.infer<typeof Verdict>

const Series = z.object({
  title: z.string(),
  x: z.string(),
  y: z.string(),
  lines: z.array(z.object({ label: z.string(), points: z.array(z.object({ x: z.number(), y: z.number() })) })),
})
export type FindingsSeries = z.infer<typeof Series>

/** One row of a claim's table: an arm's mean (over questions, seeds averaged) and its paired difference against the claim's reference arm. */
const ArmRow = z.object({ label: z.string(), value: EstimateSchema, difference: EstimateSchema.nullable() })

export const ClaimResultSchema = z.object({
  number: z.number(),
  name: z.string(),
  title: z.string(),
  paper: z.object({ source: z.string(), figure: z.string() }),
  /** What the effect is: which arm minus which, of what, over which unit. */
  effectLabel: z.string(),
  metric: z.string(),
  /** The direction the paper predicts for the effect. */
  expected: z.enum(['positive', 'negative']),
  effect: EstimateSchema,
  verdict: Verdict,
  /** Why the verdict (the CI's position, or what was missing). */
  reason: z.string(),
  /** A complete effect (every paired question differs, one direction; the bootstrap has nothing to resample): the paired exact sign test that decided it. */
  exact: z.object({ test: z.literal('sign'), questions: z.number(), agree: z.number(), p: z.number() }).nullable().default(null),
  arms: z.array(ArmRow),
  series: z.array(Series),
  questions: z.number(),
  seeds: z.number(),
  seconds: z.number(),
  ablationId: z.number(),
  /** The policy this claim ran with, and why if it is not the one asked for. */
  policy: z.string(),
  /** Where this run departs from the paper's protocol. */
  departures: z.array(z.string()),
})
export type ClaimResult = z.infer<typeof ClaimResultSchema>

export const FindingsResultsSchema = z.object({
  claims: z.array(ClaimResultSchema),
  bootstrap: z.object({ resamples: z.number(), confidence: z.number(), seed: z.number() }),
})
export type FindingsResults = z.infer<typeof FindingsResultsSchema>

export const FindingsStatus = z.enum(['saved', 'running', 'done', 'failed', 'cancelled'])

export const FindingsDetailSchema = z.object({
  id: z.number(),
  name: z.string(),
  status: FindingsStatus,
  jobId: z.string().nullable(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
  error: z.string().nullable(),
  config: FindingsConfigSchema,
  /** The experiments it runs, each an ablation (resumed by cell), with the claims it serves. */
  experiments: z.array(z.object({ key: z.string(), ablationId: z.number(), claims: z.array(z.string()), status: z.string(), seconds: z.number() })),
  ranOn: z.object({ appVersion: z.string(), corpusSignature: z.string(), models: z.array(z.string()) }).nullable(),
  results: FindingsResultsSchema.nullable(),
})
export type FindingsDetail = z.infer<typeof FindingsDetailSchema>

export const FindingsRunParams = z.strictObject({ findingsId: FindingsId })
export const FindingsRunResult = z.object({ findingsId: z.number(), claims: z.number(), seconds: z.number() })

export const findingsRoutes = {
  'findings.catalog': route('The claims a findings run measures, each with the paper figure it sets beside the measured one', z.strictObject({}), z.array(z.object({ number: z.number(), name: z.string(), title: z.string(), paper: z.object({ source: z.string(), figure: z.string() }), measure: z.string() }))),
  'findings.list': route('Findings runs of the workspace, newest first', z.strictObject({ workspaceId: WorkspaceId }), z.array(FindingsDetailSchema.omit({ results: true }))),
  'findings.save': route(
    "Save a findings run: each claim's matched experiment is saved as an ablation over the set's held-out and train questions; start it with the findings.run job",
    z.strictObject({ workspaceId: WorkspaceId, config: FindingsConfigSchema }),
    FindingsDetailSchema,
  ),
  'findings.get': route('One findings run with its experiments and stored verdicts', z.strictObject({ workspaceId: WorkspaceId, id: FindingsId }), FindingsDetailSchema),
  'findings.export': route(
    "Write a finished findings run into the workspace's exports folder: a Markdown report with SVG charts, a CSV of every cell and the configs as JSON",
    z.strictObject({ workspaceId: WorkspaceId, id: FindingsId }),
    z.object({ folder: z.string(), files: z.array(z.string()) }),
  ),
}
