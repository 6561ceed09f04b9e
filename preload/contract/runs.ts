import { z } from 'zod'
import { route } from './define'
import { EpisodeOutcomeSchema, StepViewSchema, TrajectoryStepSchema } from './trajectory'

const WorkspaceId = z.string().min(1).max(64)

export const PolicySpec = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('scripted'), name: z.string().min(1).max(64) }).strict(),
  z
    .object({
      kind: z.literal('llm'),
      modelPath: z.string().trim().min(1).max(4096),
      temperature: z.number().min(0).max(5).default(0),
      topK: z.number().int().min(0).max(1000).default(0),
      topP: z.number().min(0).max(1).default(1),
    })
    .strict(),
])

export const AnswererSpec = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('lexical') }).strict(),
  z.object({ kind: z.literal('gguf'), modelPath: z.string().trim().min(1).max(4096) }).strict(),
])

export const EvalParams = z
  .object({
    name: z.string().trim().max(200).default(''),
    environment: z.string().min(1).max(64),
    /** Config delta over the environment's defaults: an ablation is a delta. */
    envConfig: z.record(z.string(), z.unknown()).default({}),
    policy: PolicySpec,
    answerer: AnswererSpec.default({ kind: 'lexical' }),
    questionSetId: z.number().int().min(1),
    offset: z.number().int().min(0).default(0),
    limit: z.number().int().min(1).max(100_000).default(50),
    seed: z.number().int().min(0).max(2 ** 31 - 1).default(1),
    previews: z.boolean().default(true),
    /** Edits over the published Harness-1 reward weights. */
    rewardWeights: z.record(z.string(), z.number()).default({}),
  })
  .strict()
export type EvalParams = z.infer<typeof EvalParams>

export const RunSummary = z.object({
  id: z.number(),
  kind: z.string(),
  name: z.string(),
  status: z.string(),
  seed: z.number(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
  error: z.string().nullable(),
  config: z.record(z.string(), z.unknown()),
  episodes: z.number(),
  /** Mean of each metric over the run's episodes, with bootstrap CI bounds when computed. */
  metrics: z.record(z.string(), z.object({ mean: z.number().nullable(), count: z.number(), lower: z.number().nullable(), upper: z.number().nullable() })),
})
export type RunSummary = z.infer<typeof RunSummary>

export const EpisodeRow = z.object({
  id: z.number(),
  questionId: z.number().nullable(),
  question: z.string(),
  answer: z.string().nullable(),
  gold: z.array(z.string()),
  turns: z.number(),
  formatErrors: z.number(),
  ms: z.number(),
  metrics: z.record(z.string(), z.number().nullable()),
})

/** A stored step: the trajectory step as the loop produced it, plus the environment's typed description of it. */
export const EpisodeStep = TrajectoryStepSchema.extend({
  /** What the step changed and the state after it, as the environment describes it (working memory, committed evidence). */
  view: StepViewSchema,
})
export type EpisodeStep = z.infer<typeof EpisodeStep>

/** One stored metric as the metric catalogue (main/eval/metric-catalog.ts) describes it. */
export const MetricInfoSchema = z.object({
  name: z.string(),
  label: z.string(),
  description: z.string(),
  /** Which way is better; 'none' for descriptive numbers. */
  direction: z.enum(['higher', 'lower', 'none']),
  /** fraction: a share in [0, 1], shown as a percentage; number: a decimal; count: a whole number; ms: a duration. */
  format: z.enum(['fraction', 'number', 'count', 'ms']),
  group: z.string(),
  /** Shown by default in run and episode tables. */
  headline: z.boolean(),
})
export type MetricInfo = z.infer<typeof MetricInfoSchema>

export const runRoutes = {
  'harness.catalog': route(
    'Registered environments as they declare themselves (family, action kind, protocol, reward scheme, presets, defaults), scripted policies with the protocols they drive, the metric catalogue',
    z.object({}).strict(),
    z.object({
      environments: z.array(
        z.object({
          name: z.string(),
          description: z.string(),
          family: z.enum(['harness-g', 'harness-1']),
          actionKind: z.enum(['menu', 'tools']),
          protocol: z.enum(['sentence-menu', 'sentence-search', 'harness1-tools']),
          rewardScheme: z.string().nullable(),
          defaults: z.record(z.string(), z.unknown()),
          /** Ablation rows: each is a config delta over the environment's defaults. */
          presets: z.array(z.object({ name: z.string(), label: z.string(), delta: z.record(z.string(), z.unknown()) })),
        }),
      ),
      scriptedPolicies: z.array(z.object({ name: z.string(), description: z.string(), protocols: z.array(z.string()) })),
      /** Published Harness-1 reward weights (the editable preset). */
      rewardWeights: z.record(z.string(), z.unknown()),
      /** Every metric the app stores: label (with its normalisation), direction, display format, group. */
      metrics: z.array(MetricInfoSchema),
    }),
  ),
  'runs.list': route('Runs of the workspace, newest first, with aggregate metrics', z.object({ workspaceId: WorkspaceId }).strict(), z.array(RunSummary)),
  'runs.episodes': route(
    'Per-question results of a run',
    z.object({ workspaceId: WorkspaceId, runId: z.number().int().min(1), offset: z.number().int().min(0).default(0), limit: z.number().int().min(1).max(1000).default(100) }).strict(),
    z.object({ total: z.number(), episodes: z.array(EpisodeRow) }),
  ),
  'runs.compare': route(
    'Candidate runs against a baseline run on one metric, paired by question (bootstrap CI of the mean difference)',
    z
      .object({
        workspaceId: WorkspaceId,
        baselineRunId: z.number().int().min(1),
        runIds: z.array(z.number().int().min(1)).min(1).max(50),
        metric: z.string().min(1).max(100),
      })
      .strict(),
    z.object({
      metrics: z.array(z.string()),
      comparisons: z.array(
        z.object({
          runId: z.number(),
          count: z.number(),
          baselineMean: z.number().nullable(),
          candidateMean: z.number().nullable(),
          meanDifference: z.number().nullable(),
          lower: z.number().nullable(),
          upper: z.number().nullable(),
          wins: z.number(),
          ties: z.number(),
          losses: z.number(),
        }),
      ),
    }),
  ),
  'runs.episode': route(
    'One episode with every step (observation, menu, previews, decision, snapshot)',
    z.object({ workspaceId: WorkspaceId, episodeId: z.number().int().min(1) }).strict(),
    EpisodeRow.extend({
      seed: z.number(),
      environment: z.string(),
      outcome: EpisodeOutcomeSchema,
      /** Training rollouts are stored compactly and rebuilt by replay: whether the replay matched what was stored. */
      replay: z.object({ faithful: z.boolean(), note: z.string() }).nullable(),
      steps: z.array(EpisodeStep),
    }),
  ),
}
