/**
 * Question sets for any corpus: import (JSONL / JSON / CSV) with gold resolved against the corpus,
 * hand-written questions, questions generated from the graph (a job), and train / dev / test splits
 * that freeze once a run has used them.
 */
import { z } from 'zod'
import { route } from './define'

const WorkspaceId = z.string().min(1).max(64)
const SetId = z.number().int().min(1)

/** How a set's splits are drawn: a seeded shuffle cut by ratio, or a field of the imported rows (e.g. "split"). */
export const QuestionSplitSpec = z.discriminatedUnion('method', [
  z.strictObject({
    method: z.literal('ratio'),
    seed: z.number().int().min(0).max(2 ** 31 - 1).default(1),
    /** Relative sizes; normalised. A zero leaves that split out. */
    ratios: z.strictObject({ train: z.number().min(0).max(1000), dev: z.number().min(0).max(1000), test: z.number().min(0).max(1000) }).refine((r) => r.train + r.dev + r.test > 0, 'at least one ratio must be positive'),
  }),
  z.strictObject({ method: z.literal('field'), field: z.string().trim().min(1).max(100) }),
])
export type QuestionSplitSpec = z.infer<typeof QuestionSplitSpec>

/** A row the import could not keep, or a gold item it could not resolve, with the line it came from (1-based; JSON: the element's line). */
export const ImportIssue = z.object({ line: z.number(), question: z.string().nullable(), item: z.string().nullable(), reason: z.string() })
export type ImportIssue = z.infer<typeof ImportIssue>

export const ImportReport = z.object({
  format: z.string(),
  rows: z.number(),
  imported: z.number(),
  badRows: z.array(ImportIssue),
  unresolved: z.array(ImportIssue),
})
export type ImportReport = z.infer<typeof ImportReport>

/** Where a question came from. */
export const QuestionProvenance = z.object({
  origin: z.enum(['import', 'generated', 'manual', 'benchmark']),
  /** Imported: the line of the file. */
  line: z.number().optional(),
  /** Generated: the kind, the entities and facts it was built from, in words. */
  kind: z.string().optional(),
  detail: z.string().optional(),
  /** Generated: the normalised answer occurs in the question text. */
  answerInQuestion: z.boolean().optional(),
  /**
   * Generated: per gold sentence, in the order of the question's path (a bridge's first hop, then its
   * second), the words it must hold: the bridge entity; the bridge entity and the answer; a compared value.
   */
  marks: z.array(z.array(z.string())).optional(),
  /** Imported: scalar fields beyond the known ones (a split by field reads them). */
  fields: z.record(z.string(), z.string()).optional(),
  /** Edited by hand after it was imported or generated: its text and gold are no longer the origin's. */
  editedByHand: z.boolean().optional(),
  /** Generated with the GGUF rewrite on: what became of this question's rewrite. */
  rewrite: z
    .object({
      /** accepted: the text is the model's; rejected: a check refused it and the template stayed; over-budget: never sent. */
      status: z.enum(['accepted', 'rejected', 'over-budget']),
      /** "<file name>@<first 12 hex of SHA-256>" */
      model: z.string(),
      sha256: z.string(),
      /** The template question (the stored text when the rewrite was not accepted). */
      template: z.string(),
      /** What the model wrote (first line, trimmed); absent when over budget. */
      output: z.string().optional(),
      /** Rejected: the check that refused it (RewriteRejection) and why, in words. */
      reason: z.string().optional(),
      because: z.string().optional(),
    })
    .optional(),
})
export type QuestionProvenance = z.infer<typeof QuestionProvenance>

export const GoldSentence = z.object({
  title: z.string(),
  sentence: z.number(),
  documentId: z.number().nullable(),
  sentenceId: z.number().nullable(),
  chunkId: z.number().nullable(),
  /** The sentence's text, null when unresolved. */
  text: z.string().nullable(),
})

export const QuestionDetail = z.object({
  id: z.number(),
  externalId: z.string(),
  question: z.string(),
  answers: z.array(z.string()),
  type: z.string().nullable(),
  split: z.string().nullable(),
  provenance: QuestionProvenance,
  supportingFacts: z.array(z.object({ title: z.string(), sentence: z.number() })),
  supportingDocs: z.array(z.string()),
  goldSentences: z.array(GoldSentence),
  goldDocuments: z.array(z.object({ name: z.string(), documentId: z.number().nullable(), title: z.string().nullable() })),
  /** Gold the corpus does not hold or cannot pin down. */
  missing: z.array(z.string()),
})
export type QuestionDetail = z.infer<typeof QuestionDetail>

/** A run that used a split of the set (so the set's splits are frozen). */
export const SplitUse = z.object({ runId: z.number(), name: z.string(), kind: z.string(), split: z.string() })

/** Why a rewrite was refused (main/questions/generate/rewrite-check.ts), in check order. */
export const RewriteRejection = z.enum(['empty', 'not-one-question', 'length', 'unchanged', 'contains-answer', 'quotes-gold', 'names-bridge', 'lost-entity', 'lost-cue', 'too-long-prompt'])
export type RewriteRejection = z.infer<typeof RewriteRejection>

/** How the GGUF rewrite of a generated set went: per model, accepted / rejected by reason / never sent. */
export const RewriteCounts = z.object({
  model: z.string(),
  accepted: z.number(),
  rejected: z.record(z.string(), z.number()),
  overBudget: z.number(),
})
export type RewriteCounts = z.infer<typeof RewriteCounts>

/**
 * Why a generated candidate was not kept (main/questions/generate), in the order the checks run:
 * a gold or hop sentence that is no prose (a reference, list or markup line, a fragment, a list page);
 * a bridge or answer that is part of a longer name ("Rome" in "Treaties of Rome"); no words to describe the bridge or the answer by; no answer in the second sentence; the question's
 * words not leading back to its own gold; more than one thing where the first hop points; more than
 * one article or sentence where the second hop points; more than one answer there; a question that
 * quotes a gold sentence; the answer in the question; kept by the checks but beyond the cap.
 */
export const GenerationDrop = z.enum(['evidence-not-prose', 'inside-another-name', 'no-cue', 'no-answer', 'gold-not-reached', 'bridge-not-unique', 'second-hop-not-unique', 'answer-not-unique', 'quotes-gold', 'answer-in-question', 'over-cap'])
export type GenerationDrop = z.infer<typeof GenerationDrop>

/** Counts by kind ("bridge", "comparison"). */
const ByKind = z.record(z.string(), z.number())

/** A generated set's yield, stored with the set: candidates, kept, and each dropped candidate's reason, by kind. */
export const GenerationReport = z.object({
  kind: z.literal('generation'),
  seed: z.number(),
  candidates: ByKind,
  kept: ByKind,
  dropped: z.partialRecord(GenerationDrop, ByKind),
})
export type GenerationReport = z.infer<typeof GenerationReport>

export const QuestionSetDetail = z.object({
  id: z.number(),
  name: z.string(),
  source: z.string(),
  createdAt: z.string(),
  questions: z.number(),
  splitSpec: QuestionSplitSpec.nullable(),
  splits: z.array(z.object({ name: z.string(), count: z.number() })),
  /** Questions in no split (added after the split was drawn). */
  unassigned: z.number(),
  usedBy: z.array(SplitUse),
  report: ImportReport.nullable(),
  /** Generated sets rewritten through a GGUF model: counts from the questions' provenance. */
  rewrites: z.array(RewriteCounts).default([]),
  /** Generated sets: candidates, kept and dropped by reason (null for other sets and sets generated before the report). */
  generation: GenerationReport.nullable().default(null),
})
export type QuestionSetDetail = z.infer<typeof QuestionSetDetail>

export const QuestionFilter = z.strictObject({
  /** Substring of the question or an answer (case-insensitive). */
  text: z.string().max(500).optional(),
  split: z.string().max(64).optional(),
  type: z.string().max(64).optional(),
  origin: QuestionProvenance.shape.origin.optional(),
  /** Only questions whose answer is not in the question text. */
  answerNotInQuestion: z.boolean().optional(),
  /** Only questions with gold the corpus does not resolve. */
  unresolved: z.boolean().optional(),
})
export type QuestionFilter = z.infer<typeof QuestionFilter>

export const ImportFormat = z.enum(['jsonl', 'json', 'csv'])

export const QuestionImportInput = z.strictObject({
  workspaceId: WorkspaceId,
  /** The new set's name (unique in the workspace). */
  name: z.string().trim().min(1).max(200),
  /** The file's text: the UI and the CLI read the file, the backend never opens a path it is given. */
  content: z.string().max(64 * 1024 * 1024, 'question files are limited to 64 MiB'),
  /** Default: from the file name's extension, else sniffed from the text. */
  format: ImportFormat.optional(),
  fileName: z.string().max(4096).optional(),
})

/**
 * The questions.import job: the route stages the file's text under the data folder and the job reads it
 * there (a client never names a path). Its full report is stored with the set (questions.set).
 */
export const QuestionImportParams = z.strictObject({
  name: z.string().trim().min(1).max(200),
  /** The staged upload's id (questions.import makes it; an unknown id fails before the job is queued). */
  upload: z.uuid(),
  format: ImportFormat.optional(),
  fileName: z.string().max(4096).optional(),
})
export type QuestionImportParams = z.infer<typeof QuestionImportParams>

export const QuestionImportResult = z.object({
  setId: z.number(),
  format: z.string(),
  rows: z.number(),
  imported: z.number(),
  /** Rows not kept, and gold items left unresolved (the set's report lists them by line, the first 5,000 of each). */
  badRows: z.number(),
  unresolved: z.number(),
  seconds: z.number(),
})
export type QuestionImportResult = z.infer<typeof QuestionImportResult>

export const QuestionEdit = z.strictObject({
  question: z.string().trim().min(1).max(10_000),
  answers: z.array(z.string().trim().min(1).max(2000)).min(1).max(100),
  type: z.string().trim().max(64).nullable().default(null),
  /** Gold sentences by id (picked from search results or the reader). */
  sentenceIds: z.array(z.number().int().min(1)).max(200).default([]),
  /** Gold documents by id, beyond the documents of the gold sentences. */
  documentIds: z.array(z.number().int().min(1)).max(200).default([]),
})
export type QuestionEdit = z.infer<typeof QuestionEdit>

export const QuestionEpisode = z.object({
  episodeId: z.number(),
  runId: z.number(),
  runName: z.string(),
  runKind: z.string(),
  trainStep: z.number().nullable(),
  answer: z.string().nullable(),
  turns: z.number(),
  metrics: z.record(z.string(), z.number().nullable()),
})

export const GenerateKind = z.enum(['bridge', 'comparison'])

export const QuestionRewriteOptions = z.strictObject({
  /** A generator GGUF (an instruction-tuned one reads the instruction; any other writes what it writes, and the checks refuse it). */
  modelPath: z.string().trim().min(1, 'modelPath must not be empty').max(4096),
  /** The budget: most questions sent to the model, in the kept order; the rest keep their template. */
  maxQuestions: z.number().int().min(1).max(100_000).default(200),
  /** Most tokens of one rewrite. */
  maxTokens: z.number().int().min(8).max(256).default(64),
})
export type QuestionRewriteOptions = z.infer<typeof QuestionRewriteOptions>

export const QuestionGenerateParams = z.strictObject({
  name: z.string().trim().min(1).max(200),
  seed: z.number().int().min(0).max(2 ** 31 - 1).default(1),
  kinds: z.array(GenerateKind).min(1).default(['bridge', 'comparison']),
  /** Most questions kept of each kind. */
  maxPerKind: z.number().int().min(1).max(100_000).default(500),
  /** Keep only questions whose answer is not in the question text. */
  answerNotInQuestion: z.boolean().default(true),
  /** Optional rewrite of each kept question through a GGUF model; each rewrite is checked and a refused one keeps the template. */
  rewrite: QuestionRewriteOptions.nullable().default(null),
})
export type QuestionGenerateParams = z.infer<typeof QuestionGenerateParams>

export const QuestionGenerateResult = z.object({
  setId: z.number(),
  /** Kept, by kind. */
  kept: z.record(z.string(), z.number()),
  /** Built before the answer filter and the cap, by kind. */
  candidates: z.record(z.string(), z.number()),
  /** Dropped because the answer is in the question, by kind. */
  answerInQuestion: z.record(z.string(), z.number()),
  /** Every candidate not kept, by reason and kind (answer-in-question and over-cap included). */
  dropped: GenerationReport.shape.dropped.default({}),
  seconds: z.number(),
  /** With the rewrite on: its counts and how long it took. */
  rewrite: RewriteCounts.extend({ /** 'plain' or the model's chat template wrapper. */ promptTemplate: z.string(), seconds: z.number(), questionsPerSecond: z.number() }).nullable().default(null),
})
export type QuestionGenerateResult = z.infer<typeof QuestionGenerateResult>

export const questionRoutes = {
  'questions.set': route('A question set with its splits, the runs that used them and its import report', z.strictObject({ workspaceId: WorkspaceId, setId: SetId }), QuestionSetDetail),
  'questions.search': route(
    'Questions of a set with gold sentence text and provenance, filtered (text, split, type, origin, answer not in question, unresolved gold)',
    z.strictObject({ workspaceId: WorkspaceId, setId: SetId, filter: QuestionFilter.default({}), offset: z.number().int().min(0).default(0), limit: z.number().int().min(1).max(500).default(50) }),
    z.object({ total: z.number(), questions: z.array(QuestionDetail) }),
  ),
  'questions.import': route('Import a question set from JSONL, JSON or CSV; bad rows and unresolved gold are reported with their line', QuestionImportInput, z.object({ setId: z.number(), report: ImportReport })),
  'questions.createSet': route('An empty question set to write questions into', z.strictObject({ workspaceId: WorkspaceId, name: z.string().trim().min(1).max(200) }), z.object({ setId: z.number() })),
  'questions.save': route(
    'Add a question to a set, or edit one (questionId)',
    z.strictObject({ workspaceId: WorkspaceId, setId: SetId, questionId: z.number().int().min(1).optional(), edit: QuestionEdit }),
    QuestionDetail,
  ),
  'questions.delete': route('Delete a question (refused when its split was used by a run)', z.strictObject({ workspaceId: WorkspaceId, setId: SetId, questionId: z.number().int().min(1) }), z.object({ deleted: z.boolean() })),
  'questions.split': route(
    "Draw the set's train / dev / test splits (refused, naming the runs, once a run has used them)",
    z.strictObject({ workspaceId: WorkspaceId, setId: SetId, spec: QuestionSplitSpec }),
    QuestionSetDetail,
  ),
  'questions.episodes': route(
    "A question's episodes across runs (newest run first)",
    z.strictObject({ workspaceId: WorkspaceId, questionId: z.number().int().min(1), limit: z.number().int().min(1).max(1000).default(200) }),
    z.array(QuestionEpisode),
  ),
}
