import type BetterSqlite3 from 'better-sqlite3'
import { RetrievalError, type ChunkSpan, type ChunkView, type DocumentView } from './types'

/** Whole documents and single chunks by id, for the read tools of the harnesses and the UI. */
export class Readers {
  private readonly document: BetterSqlite3.Statement
  private readonly documentChunks: BetterSqlite3.Statement
  private readonly chunk: BetterSqlite3.Statement
  private readonly chunkSentences: BetterSqlite3.Statement

  constructor(raw: BetterSqlite3.Database) {
    this.document = raw.prepare('select id as documentId, external_id as externalId, title, text from documents where id = ?')
    this.documentChunks = raw.prepare(
      `select id as chunkId, ord, start_char as startChar, end_char as endChar, token_count as tokenCount
       from chunks where document_id = ? order by ord`,
    )
    this.chunk = raw.prepare(
      `select c.id as chunkId, c.document_id as documentId, d.title as title, c.ord as ord, c.text as text,
              c.start_char as startChar, c.end_char as endChar, c.token_count as tokenCount
       from chunks c join documents d on d.id = c.document_id where c.id = ?`,
    )
    // Sentences are matched by character span, which is unambiguous even when overlapping chunks
    // share sentences; `owned` marks the ones whose home chunk is this one.
    this.chunkSentences = raw.prepare(
      `select id as sentenceId, ord, text, chunk_id = ? as owned from sentences
       where document_id = ? and start_char < ? and end_char > ? order by ord`,
    )
  }

  readDocument(documentId: number): DocumentView {
    const doc = this.document.get(documentId) as Omit<DocumentView, 'chunks'> | undefined
    if (!doc) throw new RetrievalError('not-found', `No document with id ${documentId} in this workspace`)
    return { ...doc, chunks: this.documentChunks.all(documentId) as ChunkSpan[] }
  }

  readChunk(chunkId: number): ChunkView {
    const chunk = this.chunk.get(chunkId) as Omit<ChunkView, 'sentences'> | undefined
    if (!chunk) throw new RetrievalError('not-found', `No chunk with id ${chunkId} in this workspace`)
    const rows = this.chunkSentences.all(chunkId, chunk.documentId, chunk.endChar, chunk.startChar) as {
      sentenceId: number
      ord: number
      text: string
      owned: number
    }[]
    return { ...chunk, sentences: rows.map((r) => ({ ...r, owned: r.owned === 1 })) }
  }
}
