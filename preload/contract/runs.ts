import { z } from 'zod'
import { route } from './define'
import { MetricInfoSchema } from './metric-info'
import { PairedDifferenceSchema } from './paired'
import { ActionKindSchema, ProtocolNameSchema } from './protocols'
import { questionRangeShape } from './question-range'
import { RunConfig } from './run-config'
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
      /** A GGUF LoRA adapter applied on top of the model (base + LoRA); its fit is checked from the headers. */
      lora: z.object({ path: z.string().trim().min(1).max(4096), scale: z.number().min(-10).max(10).default(1) }).strict().optional(),
      /** The policy's context in tokens (default: the model's training length, at most 4096); a longer prompt is cut in its middle. */
      contextSize: z.number().int().min(64).max(32_768).optional(),
      /** Tool-calling environments: most tokens one call may take (default 256). */
      maxTokens: z.number().int().min(8).max(4096).optional(),
      /** Repeat the question right before the reply (as a GGUF run trained with restateQuestion saw it). */
      restateQuestion: z.boolean().optional(),
      /** Free query: queries decoded as words of the observation (as a GGUF run trained with extractiveQueries wrote them). */
      extractiveQueries: z.boolean().optional(),
    })
    .strict(),
  /** A training run's head (greedy), at its checkpoint of `step` (default: the last completed step). */
  z.object({ kind: z.literal('head'), trainingRun: z.number().int().min(1), step: z.number().int().min(0).optional() }).strict(),
  /** A head from a weights file (training.exportHead writes one); its feature layout must match this build's. */
  z.object({ kind: z.literal('head-file'), path: z.string().trim().min(1).max(4096) }).strict(),
  /**
   * A GGUF training run's trained weights, greedy, with the run's context and token limits: what its held-out
   * "after" evaluation played. Only the last saved step's weights are kept (`step`, when given, must be it).
   */
  z.object({ kind: z.literal('gguf-run'), trainingRun: z.number().int().min(1), step: z.number().int().min(0).optional() }).strict(),
])
export type PolicySpec = z.infer<typeof PolicySpec>

/** What a training run trained: the policy head, or a GGUF model's own weights. */
export type Learner = 'head' | 'gguf'

/** A trained policy named by its run and step, the same on every page: "head · training run 3 · step 20". */
export const trainedPolicyLabel = (learner: Learner, trainingRun: number, step?: number | null): string =>
  `${learner === 'gguf' ? 'GGUF' : 'head'} · training run ${trainingRun}${step === undefined || step === null ? '' : ` · step ${step}`}`

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
    ...questionRangeShape({ default: 50 }),
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
  /** The stored run record, by kind (evaluation, ablation cell, training, env-server); null for a row that does not parse. */
  config: RunConfig.nullable(),
  episodes: z.number(),
  /** Mean of each metric over the run's episodes, with bootstrap CI bounds when computed. */
  metrics: z.record(z.string(), z.object({ mean: z.number().nullable(), count: z.number(), lower: z.number().nullable(), upper: z.number().nullable() })),
  /**
   * Episodes and steps whose results a wall-clock safety net cut short (their figures depend on machine
   * load); 0 and 0 when none fired; null when the run did not record it (older runs, other kinds, unfinished).
   */
  wallClockGuards: z.object({ episodes: z.number(), steps: z.number() }).nullable(),
})
export type RunSummary = z.infer<typeof RunSummary>

/** What a run's episodes take in the workspace database (stored value bytes, page overhead left out). */
export const RunStorage = z.object({ runId: z.number(), episodes: z.number(), pruned: z.number(), bytes: z.number() })
export type RunStorage = z.infer<typeof RunStorage>

export const EpisodeRow = z.object({
  id: z.number(),
  runId: z.number(),
  questionId: z.number().nullable(),
  question: z.string(),
  answer: z.string().nullable(),
  gold: z.array(z.string()),
  turns: z.number(),
  formatErrors: z.number(),
  ms: z.number(),
  /** Why the episode ended ('answer', 'turn-limit', 'budget', ...), from its outcome. */
  endReason: z.string(),
  /** Training rollouts: the training step that produced them; null for evaluation episodes. */
  trainStep: z.number().nullable(),
  metrics: z.record(z.string(), z.number().nullable()),
})
export type EpisodeRow = z.infer<typeof EpisodeRow>

/** The metric a correct / wrong filter reads, by what it judges: the answer or the supporting facts. */
export const CORRECT_METRICS = { answer: 'answer.f1.official', sp: 'sp.f1' } as const
/** An episode is correct when that metric is at least this (an episode without the metric is neither). */
export const CORRECT_THRESHOLD = 0.5

/**
 * Filters over a run's episodes, applied in SQL (all optional; together they must all hold). Rewards
 * are the run's own: `train.reward` for training rollouts, `reward.total` for Harness-1 evaluations.
 */
export const EpisodeFilter = z
  .object({
    /** Words the question text contains (case-insensitive substring). */
    question: z.string().trim().max(200).optional(),
    /** Correct: CORRECT_METRICS[correctBy] ≥ CORRECT_THRESHOLD; wrong: below it. */
    correct: z.enum(['correct', 'wrong']).optional(),
    correctBy: z.enum(['answer', 'sp']).default('answer'),
    rewardMin: z.number().finite().optional(),
    rewardMax: z.number().finite().optional(),
    /** none: no format error; some: at least one. */
    formatErrors: z.enum(['none', 'some']).optional(),
    endReason: z.string().min(1).max(64).optional(),
    /** Training rollouts of this training step only. */
    trainStep: z.number().int().min(0).optional(),
  })
  .strict()
export type EpisodeFilter = z.infer<typeof EpisodeFilter>
export type EpisodeFilterInput = z.input<typeof EpisodeFilter>

/** Another episode to compare one with (runs.comparable). */
export const ComparableEpisode = z.object({
  id: z.number(),
  runId: z.number(),
  runName: z.string(),
  runKind: z.string(),
  trainStep: z.number().nullable(),
  seed: z.number(),
  answer: z.string().nullable(),
  turns: z.number(),
  endReason: z.string(),
  metrics: z.record(z.string(), z.number().nullable()),
})
export type ComparableEpisode = z.infer<typeof ComparableEpisode>

/** What a training rollout's step received (replayed from the stored rollout); null for evaluation steps. */
export const StepCreditSchema = z.object({
  /** Credit of the step: frontier + enablement (SNC), or the scheme's own total. */
  total: z.number(),
  /** Frontier-relative credit: the chosen action's gain minus the mean gain of same-state alternatives. */
  frontier: z.number(),
  /** Enablement credit: delayed gains passed back over provenance edges to the action that made them possible. */
  enablement: z.number(),
  /** The chosen action's own gain (answerer score after its preview minus before). */
  gain: z.number(),
  /** The advantage the step was trained with (outcome advantage combined with credit by lambda). */
  advantage: z.number(),
  /** The chosen candidate's index and the candidate count (the head's decision), when recorded. */
  index: z.number().nullable(),
  candidates: z.number().nullable(),
})
export type EpisodeStepCredit = z.infer<typeof StepCreditSchema>

/** One node of the episode's path on the graph: what a step visited, in order. */
export const PathNodeSchema = z.object({
  /** The step that visited it. */
  t: z.number(),
  /** Graph node id: `s:<sentence>`, `e:<entity>`, `p:<chunk>`. */
  node: z.string(),
  kind: z.enum(['sentence', 'entity', 'paragraph']),
  /** committed: SELECT / ANSWER_WITH (Harness-G); looked-up: LOOKUP's entity; curated: Harness-1's curated document. */
  role: z.enum(['committed', 'looked-up', 'curated']),
  label: z.string(),
  /** The document's title, for sentences and paragraphs. */
  title: z.string().nullable(),
  /** Gold: a gold sentence, a node of a gold document, or neither. */
  gold: z.enum(['sentence', 'document']).nullable(),
})
export type PathNode = z.infer<typeof PathNodeSchema>

/** Whether the episode committed (or curated) a gold unit, only saw it, or never saw it. */
const GoldStatus = z.enum(['committed', 'seen', 'missed'])

/** The question's gold evidence, resolved against the workspace as it is now (main/corpus/gold.ts). */
export const EpisodeGoldSchema = z.object({
  sentences: z.array(
    z.object({
      title: z.string(),
      /** Sentence number in its document, as the benchmark names it. */
      ord: z.number(),
      sentenceId: z.number().nullable(),
      documentId: z.number().nullable(),
      text: z.string().nullable(),
      status: GoldStatus,
    }),
  ),
  documents: z.array(z.object({ name: z.string(), documentId: z.number().nullable(), title: z.string().nullable(), status: GoldStatus })),
  /** Gold the corpus does not hold or cannot pin down, one line each. */
  missing: z.array(z.string()),
})
export type EpisodeGold = z.infer<typeof EpisodeGoldSchema>

/** A stored step: the trajectory step as the loop produced it, plus the environment's typed description of it. */
export const EpisodeStep = TrajectoryStepSchema.extend({
  /** What the step changed and the state after it, as the environment describes it (working memory, committed evidence). */
  view: StepViewSchema,
  /** Training rollouts: the credit and advantage the step received. */
  credit: StepCreditSchema.nullable(),
})
export type EpisodeStep = z.infer<typeof EpisodeStep>

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
          actionKind: ActionKindSchema,
          protocol: ProtocolNameSchema,
          rewardScheme: z.string().nullable(),
          defaults: z.record(z.string(), z.unknown()),
          /** Ablation rows: each is a config delta over the environment's defaults. */
          presets: z.array(z.object({ name: z.string(), label: z.string(), delta: z.record(z.string(), z.unknown()) })),
        }),
      ),
      scriptedPolicies: z.array(z.object({ name: z.string(), description: z.string(), protocols: z.array(ProtocolNameSchema) })),
      /** Published Harness-1 reward weights (the editable preset). */
      rewardWeights: z.record(z.string(), z.unknown()),
      /** Every metric the app stores: label (with its normalisation), direction, display format, group. */
      metrics: z.array(MetricInfoSchema),
    }),
  ),
  'runs.list': route('Runs of the workspace, newest first, with aggregate metrics', z.object({ workspaceId: WorkspaceId }).strict(), z.array(RunSummary)),
  'runs.episodes': route(
    'Per-question results of a run, filtered server-side (question text, correct / wrong, reward range, format errors, end reason, training step)',
    z
      .object({
        workspaceId: WorkspaceId,
        runId: z.number().int().min(1),
        offset: z.number().int().min(0).default(0),
        limit: z.number().int().min(1).max(1000).default(100),
        filter: EpisodeFilter.optional(),
      })
      .strict(),
    z.object({
      /** Episodes matching the filter. */
      total: z.number(),
      /** Episodes of the run. */
      runTotal: z.number(),
      episodes: z.array(EpisodeRow),
      runKind: z.string(),
      /** The metric the reward filter reads (null: the run stores no reward). */
      rewardMetric: z.string().nullable(),
      /** The metric the correct / wrong filter read, and its threshold. */
      correctMetric: z.string(),
      correctThreshold: z.number(),
      /** End reasons of the run's episodes with their counts (unfiltered). */
      endReasons: z.array(z.object({ reason: z.string(), count: z.number() })),
      /** Training runs: the first and last training step with rollouts; null otherwise. */
      trainSteps: z.object({ min: z.number(), max: z.number() }).nullable(),
    }),
  ),
  'runs.comparable': route(
    "Episodes to compare one with: other runs' evaluation episodes on the same question (ablation rows), and for a training rollout the other rollouts of its step and question (its group)",
    z.object({ workspaceId: WorkspaceId, episodeId: z.number().int().min(1), limit: z.number().int().min(1).max(200).default(50) }).strict(),
    z.object({ sameQuestion: z.array(ComparableEpisode), group: z.array(ComparableEpisode) }),
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
        PairedDifferenceSchema.extend({
          runId: z.number(),
          baselineMean: z.number().nullable(),
          candidateMean: z.number().nullable(),
          /** A training run is compared by its held-out results (said here); when nothing pairs, why. */
          note: z.string().nullable().default(null),
        }),
      ),
    }),
  ),
  'runs.storage': route(
    "Stored bytes of each run's episodes (rows, steps and blobs) and how many were pruned, newest run first",
    z.object({ workspaceId: WorkspaceId }).strict(),
    z.array(RunStorage),
  ),
  'runs.prune': route(
    "Deletes a finished run's stored steps and keeps each episode's question, answer, outcome and metrics (the run stays comparable per question); `confirm` must repeat the run's name",
    z.object({ workspaceId: WorkspaceId, runId: z.number().int().min(1), confirm: z.string().max(500) }).strict(),
    z.object({ runId: z.number(), pruned: z.number(), before: RunStorage, after: RunStorage }),
  ),
  'runs.episode': route(
    'One episode with every step (observation, menu, previews, decision, snapshot)',
    z.object({ workspaceId: WorkspaceId, episodeId: z.number().int().min(1) }).strict(),
    EpisodeRow.extend({
      seed: z.number(),
      environment: z.string(),
      /** The environment's config the episode ran with, as its run stored it. */
      envConfig: z.record(z.string(), z.unknown()),
      runName: z.string(),
      runKind: z.string(),
      outcome: EpisodeOutcomeSchema,
      /** Training rollouts are stored compactly and rebuilt by replay: whether the replay matched what was stored. */
      replay: z.object({ faithful: z.boolean(), note: z.string() }).nullable(),
      /** When the run's steps were pruned (its per-question results are kept): the episode then has no steps. */
      prunedAt: z.string().nullable(),
      steps: z.array(EpisodeStep),
      /** The question's gold evidence with what the episode did with it. */
      goldEvidence: EpisodeGoldSchema,
      /** What the episode visited on the graph, in order (sentences committed, entities looked up, documents curated). */
      path: z.array(PathNodeSchema),
    }),
  ),
}
