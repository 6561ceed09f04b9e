import { z } from 'zod'
import { route } from './define'

const WorkspaceId = z.string().min(1).max(64)

const Span = { start: z.number(), end: z.number() }

/** A document as the reader shows it: its text, where each chunk and sentence lies in it, and what to highlight. */
export const DocumentReading = z.object({
  documentId: z.number(),
  externalId: z.string(),
  title: z.string(),
  text: z.string(),
  chunks: z.array(z.object({ chunkId: z.number(), ord: z.number(), ...Span, tokenCount: z.number() })),
  sentences: z.array(z.object({ sentenceId: z.number(), ord: z.number(), chunkId: z.number(), ...Span })),
  /** Character spans (in `text`) of the chunk and the sentence asked for; null when not asked for or not in this document. */
  highlight: z.object({
    chunk: z.object({ chunkId: z.number(), ...Span }).nullable(),
    sentence: z.object({ sentenceId: z.number(), ord: z.number(), ...Span }).nullable(),
  }),
  /** What was asked for but is not in this document, one line each (a sentence number past the end, another document's chunk). */
  notFound: z.array(z.string()),
})
export type DocumentReading = z.infer<typeof DocumentReading>

export const GrepHitView = z.object({
  chunkId: z.number(),
  documentId: z.number(),
  title: z.string(),
  line: z.number(),
  /** Offset of the match in the chunk text and in the document text. */
  offset: z.number(),
  documentOffset: z.number(),
  match: z.string(),
  context: z.string(),
})

export const documentRoutes = {
  'documents.read': route(
    'A whole document with its chunks and sentences as character spans, highlighting a sentence (by its number in the document) and/or a chunk',
    z
      .object({
        workspaceId: WorkspaceId,
        documentId: z.number().int().min(1),
        /** The sentence's number in its document (gold supporting facts name it). */
        sentence: z.number().int().min(0).optional(),
        chunkId: z.number().int().min(1).optional(),
      })
      .strict(),
    DocumentReading,
  ),
  'documents.locate': route(
    'The documents of sentences and chunks by id (what the reader links of the Trajectory view need); ids not in the workspace are left out',
    z.object({ workspaceId: WorkspaceId, sentenceIds: z.array(z.number().int().min(1)).max(5000).default([]), chunkIds: z.array(z.number().int().min(1)).max(5000).default([]) }).strict(),
    z.object({
      sentences: z.array(z.object({ sentenceId: z.number(), documentId: z.number(), ord: z.number() })),
      chunks: z.array(z.object({ chunkId: z.number(), documentId: z.number() })),
    }),
  ),
  'corpus.grep': route(
    'Regular-expression search over chunk text, capped by results and time; a bad pattern is a validation error',
    z
      .object({
        workspaceId: WorkspaceId,
        pattern: z.string().min(1, 'give a pattern').max(1000),
        /** Regex flags among i, m, s, u, v. */
        flags: z.string().max(8).regex(/^[imsuv]*$/, 'flags are among i, m, s, u, v').default('i'),
        maxResults: z.number().int().min(1).max(1000).default(100),
        timeBudgetMs: z.number().int().min(1).max(10_000).default(2000),
      })
      .strict(),
    z.object({ hits: z.array(GrepHitView), truncated: z.boolean(), timedOut: z.boolean(), scannedChunks: z.number(), millis: z.number(), maxResults: z.number() }),
  ),
}
