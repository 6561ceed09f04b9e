import type BetterSqlite3 from 'better-sqlite3'
import { readerStatements } from './statements'
import { RetrievalError, type ChunkView, type DocumentView } from './types'

/** Whole documents and single chunks by id, for the read tools of the harnesses and the UI. */
export class Readers {
  private readonly s

  constructor(raw: BetterSqlite3.Database) {
    this.s = readerStatements(raw)
  }

  readDocument(documentId: number): DocumentView {
    const doc = this.s.document.get(documentId)
    if (!doc) throw new RetrievalError('not-found', `No document with id ${documentId} in this workspace`)
    return { ...doc, chunks: this.s.documentChunks.all(documentId) }
  }

  readChunk(chunkId: number): ChunkView {
    const chunk = this.s.chunk.get(chunkId)
    if (!chunk) throw new RetrievalError('not-found', `No chunk with id ${chunkId} in this workspace`)
    const rows = this.s.chunkSentences.all(chunkId, chunk.documentId, chunk.endChar, chunk.startChar)
    return { ...chunk, sentences: rows.map((r) => ({ ...r, owned: r.owned === 1 })) }
  }
}
