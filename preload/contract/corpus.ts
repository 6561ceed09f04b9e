import { z } from 'zod'
import { route } from './define'

const WorkspaceId = z.string().min(1).max(64)
const Path = z.string().trim().min(1, 'path must not be empty').max(4096)

export const IngestSource = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('folder'), path: Path }).strict(),
  z.object({ kind: z.literal('files'), paths: z.array(Path).min(1).max(100_000) }).strict(),
  z
    .object({
      kind: z.literal('benchmark'),
      benchmark: z.enum(['hotpotqa', '2wikimultihopqa', 'musique', 'flashrag']),
      questionsFile: Path.optional(),
      corpusFile: Path.optional(),
    })
    .strict()
    .refine((s) => s.questionsFile || s.corpusFile, 'give a questions file, a corpus file or both'),
  z.object({ kind: z.literal('demo'), seed: z.number().int().min(0).max(2 ** 31 - 1), size: z.number().min(0.1).max(1000) }).strict(),
])
export type IngestSource = z.infer<typeof IngestSource>

export const IngestParams = z
  .object({
    source: IngestSource,
    chunkTokens: z.number().int().min(32).max(16_000).default(1200),
    overlapTokens: z.number().int().min(0).max(4000).default(100),
    maxFileMiB: z.number().min(0.001).max(4096).default(64),
    json: z.object({ idField: z.string().max(100).optional(), titleField: z.string().max(100).optional(), textField: z.string().max(100).optional() }).strict().optional(),
    /** JSONL: a malformed line fails the whole file (default: the line is skipped and reported with its number). */
    strictJsonl: z.boolean().default(false),
    /** Parse files again that failed before with the same content (default: they are skipped until they change). */
    retryFailed: z.boolean().default(false),
    /** Time budget of one file: this many seconds, plus fileTimeoutSPerMiB for each MiB of the file. */
    fileTimeoutS: z.number().min(1).max(86_400).default(60),
    fileTimeoutSPerMiB: z.number().min(0).max(3600).default(10),
    /** Memory budget (resident MiB) of the process that parses and prepares a file. */
    fileMemoryMiB: z.number().int().min(256).max(65_536).default(4096),
    /** DOCX: most MiB an archive may inflate to (a ZIP bomb fails before it is inflated). */
    maxDecompressedMiB: z.number().min(1).max(65_536).default(256),
    /** HTML nested deeper than this is read by the plain extractor instead of Readability (cubic in depth). */
    htmlReadabilityMaxDepth: z.number().int().min(1).max(100_000).default(200),
    /** HTML nested deeper than this fails ("HTML nesting too deep"). */
    htmlMaxDepth: z.number().int().min(1).max(10_000_000).default(50_000),
  })
  .strict()
  .refine((p) => p.overlapTokens < p.chunkTokens, { message: 'overlapTokens must be smaller than chunkTokens', path: ['overlapTokens'] })
export type IngestParams = z.infer<typeof IngestParams>

export const CorpusStats = z.object({
  files: z.number(),
  failedFiles: z.number(),
  documents: z.number(),
  chunks: z.number(),
  sentences: z.number(),
  tokens: z.number(),
  entities: z.number(),
  lookupEntities: z.number(),
  mentions: z.number(),
  /** Implicit edges counted: sentence -> next sentence, sentence -> paragraph. */
  nextEdges: z.number(),
  inEdges: z.number(),
  neighbourEdges: z.number(),
  questionSets: z.number(),
  questions: z.number(),
  chunking: z.object({ chunkTokens: z.number(), overlapTokens: z.number(), tokenizer: z.string() }).nullable(),
})
export type CorpusStats = z.infer<typeof CorpusStats>

export const SourceFile = z.object({
  id: z.number(),
  path: z.string(),
  format: z.string(),
  sizeBytes: z.number(),
  status: z.enum(['ok', 'failed']),
  errorReason: z.string().nullable(),
  error: z.string().nullable(),
  documentCount: z.number(),
  ingestedAt: z.string(),
})
export type SourceFile = z.infer<typeof SourceFile>

export const SearchHit = z.object({
  chunkId: z.number(),
  documentId: z.number(),
  title: z.string(),
  score: z.number(),
  rank: z.number(),
  /** Matched terms are wrapped in \u0001 ... \u0002. */
  snippet: z.string(),
})

export const ChunkView = z.object({
  chunkId: z.number(),
  documentId: z.number(),
  title: z.string(),
  text: z.string(),
  sentences: z.array(z.object({ sentenceId: z.number(), ord: z.number(), text: z.string() })),
})

export const QuestionSet = z.object({
  id: z.number(),
  name: z.string(),
  source: z.string(),
  createdAt: z.string(),
  questions: z.number(),
  /** The set's stored splits (train / dev / test) with their sizes; empty until the set is split. */
  splits: z.array(z.object({ name: z.string(), count: z.number() })),
})
export const Question = z.object({
  id: z.number(),
  externalId: z.string(),
  question: z.string(),
  answers: z.array(z.string()),
  type: z.string().nullable(),
  supportingFacts: z.array(z.object({ title: z.string(), sentence: z.number() })),
  supportingDocs: z.array(z.string()),
})
export type Question = z.infer<typeof Question>

export const corpusRoutes = {
  'corpus.stats': route('Counts of the workspace corpus, index and graph', z.object({ workspaceId: WorkspaceId }).strict(), CorpusStats),
  'corpus.files': route(
    'Ingested source files with their status and error',
    z.object({ workspaceId: WorkspaceId, status: z.enum(['ok', 'failed']).optional(), limit: z.number().int().min(1).max(5000).default(500) }).strict(),
    z.array(SourceFile),
  ),
  'corpus.search': route(
    'Ranked chunks for a query (bm25, dense or hybrid)',
    z.object({ workspaceId: WorkspaceId, query: z.string().max(2000), k: z.number().int().min(1).max(200).default(10), mode: z.enum(['bm25', 'dense', 'hybrid']).default('bm25') }).strict(),
    z.object({ hits: z.array(SearchHit), mode: z.string(), fusedFrom: z.array(z.string()), fallback: z.string().nullable(), millis: z.number() }),
  ),
  'corpus.chunk': route('One chunk with its sentences', z.object({ workspaceId: WorkspaceId, chunkId: z.number().int().min(1) }).strict(), ChunkView),
  'questions.sets': route('Question sets of the workspace', z.object({ workspaceId: WorkspaceId }).strict(), z.array(QuestionSet)),
  'questions.list': route(
    'Questions of a set, with gold answers and evidence',
    z.object({ workspaceId: WorkspaceId, setId: z.number().int().min(1), offset: z.number().int().min(0).default(0), limit: z.number().int().min(1).max(500).default(50) }).strict(),
    z.object({ total: z.number(), questions: z.array(Question) }),
  ),
}
