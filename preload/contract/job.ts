import { z } from 'zod'
import { AblationRunParams, AblationRunResult } from './ablations'
import { IngestParams } from './corpus'
import { route } from './define'
import { ExportParams, ExportResult } from './exports'
import { FindingsRunParams, FindingsRunResult } from './findings'
import { GraphExportParams } from './graph'
import { QuestionGenerateParams, QuestionGenerateResult, QuestionImportParams, QuestionImportResult } from './questions'
import { EvalParams } from './runs'
import { TrainParams, TrainResult } from './training'

export const JobStatus = z.enum(['queued', 'running', 'done', 'failed', 'cancelled'])
export type JobStatus = z.infer<typeof JobStatus>

const WorkspaceId = z.string().min(1).max(64)

export const MaintenanceParams = z
  .object({
    /** Run VACUUM after the integrity check. */
    vacuum: z.boolean().default(true),
  })
  .strict()

export const EmbedParams = z
  .object({
    modelPath: z.string().trim().min(1, 'modelPath must not be empty').max(4096),
    /** Chunks per embed call and per write transaction: the unit of progress, cancellation and resume. */
    batchSize: z.number().int().min(1).max(1024).default(32),
  })
  .strict()
export type EmbedParams = z.infer<typeof EmbedParams>

export const ModelDownloadParams = z.object({ uri: z.string().trim().min(3).max(2000).regex(/^(hf:|https:\/\/)/, 'use an hf: or https:// URI') }).strict()

const EntityLinks = z.object({ method: z.string(), links: z.number(), entities: z.number() })

export const MaintenanceResult = z.object({
  ok: z.boolean(),
  tables: z.number(),
  /** At most 100 lines. */
  problems: z.array(z.string()),
  sizeBefore: z.number(),
  sizeAfter: z.number(),
})

export const IngestResult = z.object({
  files: z.number(),
  ingested: z.number(),
  unchanged: z.number(),
  failed: z.number(),
  documents: z.number(),
  chunks: z.number(),
  sentences: z.number(),
  mentions: z.number(),
  questions: z.number(),
  orphanEntitiesDropped: z.number(),
  /** Entity neighbour links, when the corpus changed. */
  links: EntityLinks.nullable(),
  tokenizer: z.string(),
  seconds: z.object({ total: z.number(), parse: z.number(), nlp: z.number(), write: z.number(), links: z.number() }),
  /** Failed files, at most 200: every file's outcome is in source_files. */
  failures: z.array(z.object({ label: z.string(), status: z.enum(['ingested', 'unchanged', 'failed']), reason: z.string().optional(), error: z.string().optional() })),
  /** Why the workspace's embedding model was not used for entity links, when it could not load. */
  embedderError: z.string().optional(),
  /** Symbolic links and special files left alone, at most 200, each with where it points or what it is. */
  skipped: z.array(z.object({ label: z.string(), reason: z.enum(['symlink', 'special-file']), error: z.string() })).optional(),
})

export const EmbedResult = z.object({
  model: z.string(),
  dimension: z.number(),
  /** Chunks embedded by this run. */
  embedded: z.number(),
  /** Chunks that already had a vector from this model. */
  skipped: z.number(),
  /** Inputs longer than the model's context, embedded from their first tokens. */
  truncated: z.number(),
  seconds: z.number(),
  chunksPerSecond: z.number(),
  /** Entity neighbour links rebuilt over name embeddings. */
  entityLinks: EntityLinks,
})

export const EvalResult = z.object({ runId: z.number(), episodes: z.number(), seconds: z.number() })

export const GraphExportResult = z.object({
  file: z.string(),
  nodes: z.number(),
  edges: z.number(),
  bytes: z.number(),
  ms: z.number(),
  /** Neighbourhood exports: the node cap left nodes out. */
  truncated: z.boolean(),
})

export const ModelDownloadResult = z.object({ path: z.string(), modelId: z.string() })

/**
 * Which jobs of the same workspace a job may run beside. Absent: any (jobs run in parallel up to the
 * job limit). 'workspace': none (it runs alone there: VACUUM rewrites the whole file). `{ lock }`:
 * none holding the same named lock (two corpus writers would interleave their files and links);
 * `{ lock, shared: true }` holds it for reading: beside other readers, never beside a holder without
 * `shared` (a run reading the corpus never sees an ingest half done). `why` is shown to the user while
 * the job waits on that lock.
 */
export type JobExclusivity = 'workspace' | { lock: string; shared?: true; why: string }

/** The corpus lock: writers (ingest, embed) alone; runs that read the corpus from start to end share it, so the corpus signature they store is the corpus they read. */
const CORPUS_WRITER = { lock: 'corpus', why: 'one corpus writer at a time, never while a run reads the corpus' } as const satisfies JobExclusivity
const CORPUS_READER = { lock: 'corpus', shared: true, why: 'a run reads one corpus from start to end, so it waits while the corpus is being written' } as const satisfies JobExclusivity

interface JobKindDef<P extends z.ZodType, R extends z.ZodType, W extends boolean> {
  /** What the Jobs page calls it ("Findings run"). */
  label: string
  summary: string
  /** Whether the job runs against a workspace (job.start then takes a workspaceId). */
  workspace: W
  exclusive?: JobExclusivity
  /**
   * A short job a person waits on (an import behind an API call): it starts beside the job limit,
   * so it never waits behind a training run, though it still honours exclusivity.
   */
  brief?: true
  /** Its params' `path` is a file it writes: the job manager confines it to the data folder or a folder the user picked. */
  writesPath?: true
  params: P
  result: R
}
const kind = <P extends z.ZodType, R extends z.ZodType, W extends boolean>(def: JobKindDef<P, R, W>): JobKindDef<P, R, W> => def

/**
 * Every job kind, declared once: job.start's input, the job manager's check before queuing, the
 * worker's check of what a runner returns and the typed results in job.list and job events all come
 * from here. A kind added here without a runner is a type error in main/job-kinds.
 */
export const jobKinds = {
  'db.maintenance': kind({ label: 'Integrity check & vacuum', summary: 'Integrity check and VACUUM of a workspace database', workspace: true, exclusive: 'workspace', params: MaintenanceParams.default({ vacuum: true }), result: MaintenanceResult }),
  'corpus.ingest': kind({ label: 'Corpus ingest', summary: 'Ingest sources into a workspace corpus', workspace: true, exclusive: CORPUS_WRITER, params: IngestParams, result: IngestResult }),
  'corpus.embed': kind({ label: 'Embed chunks', summary: 'Embed every chunk with a GGUF model', workspace: true, exclusive: CORPUS_WRITER, params: EmbedParams, result: EmbedResult }),
  'eval.run': kind({ label: 'Evaluation', summary: 'Evaluate a policy over a question split', workspace: true, exclusive: CORPUS_READER, params: EvalParams, result: EvalResult }),
  'train.run': kind({ label: 'Training run', summary: 'A short RL run of the policy head (new, or resumed from its last completed step)', workspace: true, exclusive: CORPUS_READER, params: TrainParams, result: TrainResult }),
  'ablation.run': kind({ label: 'Ablation', summary: 'Run an ablation matrix: every row and seed on the same questions, then its paired results', workspace: true, exclusive: CORPUS_READER, params: AblationRunParams, result: AblationRunResult }),
  'findings.run': kind({ label: 'Findings run', summary: "Run the papers' matched experiments on the workspace (one ablation each, resumed by cell) and give each claim a verdict", workspace: true, exclusive: CORPUS_READER, params: FindingsRunParams, result: FindingsRunResult }),
  'graph.export': kind({ label: 'GraphML export', summary: 'Export the graph as GraphML', workspace: true, writesPath: true, params: GraphExportParams.default({}), result: GraphExportResult }),
  'questions.generate': kind({ label: 'Question generation', summary: 'Generate bridge and comparison questions from the corpus graph, optionally rewritten (and checked) through a GGUF model', workspace: true, params: QuestionGenerateParams, result: QuestionGenerateResult }),
  'questions.import': kind({ label: 'Question import', summary: 'Import a question set from a staged JSONL, JSON or CSV file (read off the main thread, written whole or not at all)', workspace: true, brief: true, params: QuestionImportParams, result: QuestionImportResult }),
  'data.export': kind({ label: 'Export', summary: 'Export a run or a question set as a file (CSV, JSONL, Parquet)', workspace: true, writesPath: true, params: ExportParams, result: ExportResult }),
  'model.download': kind({ label: 'Model download', summary: 'Download a GGUF model and register it', workspace: false, params: ModelDownloadParams, result: ModelDownloadResult }),
}
type JobKinds = typeof jobKinds

export const JobKind = z.enum(Object.keys(jobKinds) as [keyof JobKinds, ...(keyof JobKinds)[]])
export type JobKind = keyof JobKinds
/** What a runner of kind K receives (defaults applied). */
export type JobParams<K extends JobKind> = z.output<JobKinds[K]['params']>
/** What a job of kind K leaves when it is done. */
export type JobResult<K extends JobKind> = z.output<JobKinds[K]['result']>
export type JobNeedsWorkspace<K extends JobKind> = JobKinds[K]['workspace']

type StartShape<K extends JobKind> = JobKinds[K]['workspace'] extends true
  ? { kind: z.ZodLiteral<K>; workspaceId: typeof WorkspaceId; params: JobKinds[K]['params'] }
  : { kind: z.ZodLiteral<K>; params: JobKinds[K]['params'] }
type StartOption = { [K in JobKind]: z.ZodObject<StartShape<K>, z.core.$strict> }[JobKind]

const startOption = (k: JobKind): StartOption => {
  const def = jobKinds[k]
  const shape = def.workspace ? { kind: z.literal(k), workspaceId: WorkspaceId, params: def.params } : { kind: z.literal(k), params: def.params }
  return z.object(shape).strict() as unknown as StartOption
}

export const JobStartInput = z.discriminatedUnion('kind', JobKind.options.map(startOption) as [StartOption, ...StartOption[]])

const JobFields = {
  id: z.string(),
  workspaceId: z.string().nullable(),
  status: JobStatus,
  progress: z.number().min(0).max(1),
  stage: z.string(),
  message: z.string(),
  error: z.string().nullable(),
  params: z.record(z.string(), z.unknown()),
  createdAt: z.string(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  /** A queued job's place: 1 starts next; what it waits for (a free slot, an exclusive job of its workspace). */
  queue: z.object({ position: z.number().int().min(1), waitingFor: z.string() }).optional(),
}
type JobOption = { [K in JobKind]: z.ZodObject<typeof JobFields & { kind: z.ZodLiteral<K>; result: z.ZodNullable<JobKinds[K]['result']> }> }[JobKind]

/** A job; narrowing on `kind` types its result. */
export const Job = z.discriminatedUnion(
  'kind',
  JobKind.options.map((k) => z.object({ ...JobFields, kind: z.literal(k), result: jobKinds[k].result.nullable() })) as unknown as [JobOption, ...JobOption[]],
)
export type Job = z.infer<typeof Job>

export const jobRoutes = {
  'job.list': route(
    'List jobs, newest first, optionally for one workspace',
    z.object({ workspaceId: z.string().max(64).optional(), limit: z.number().int().min(1).max(500).default(50) }).strict(),
    z.array(Job),
  ),
  'job.start': route('Queue a job; it runs off the main thread', JobStartInput, Job),
  'job.cancel': route('Cancel a queued or running job', z.object({ id: z.string().min(1).max(64) }).strict(), Job),
}

export const jobEvents = {
  /** Throttled progress of a running job. */
  'job.progress': z.object({ jobId: z.string(), progress: z.number(), stage: z.string(), message: z.string() }),
  /** A job changed status (queued, running, done, failed, cancelled). */
  'job.status': Job,
  /** The model files a running job's worker holds now (absolute paths); empty once it released them or ended. */
  'job.models': z.object({ jobId: z.string(), kind: JobKind, models: z.array(z.string()) }),
}
