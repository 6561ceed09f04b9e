/**
 * Every SQL statement of the retrieval layer, raw and typed by their bind parameters and rows. Raw
 * prepared statements because these are the environments' hot path: ranking, cards, reads and vector
 * loads run on every search step (bench:retrieval), and grep and the vector load stream rows one by one.
 */
import type BetterSqlite3 from 'better-sqlite3'
import type { ChunkSpan, ChunkView, DocumentView } from './types'

type Db = BetterSqlite3.Database
export interface RankedRow {
  id: number
  score: number
}

/** FTS5 ranking: ids and scores only (bm25.ts); `rank` is the weighted bm25() expression. Hot path: per search. */
export const bm25Statements = (raw: Db, rank: string) => ({
  all: raw.prepare<[string, string, number], RankedRow>(
    `select rowid as id, -${rank} as score from chunks_fts
       where chunks_fts match ? and rowid not in (select value from json_each(?))
       order by ${rank}, rowid limit ?`,
  ),
  inDocuments: raw.prepare<[string, string, string, number], RankedRow>(
    `select f.rowid as id, -${rank} as score from chunks_fts f join chunks c on c.id = f.rowid
       where chunks_fts match ? and f.rowid not in (select value from json_each(?))
         and c.document_id in (select value from json_each(?))
       order by ${rank}, f.rowid limit ?`,
  ),
})

/** Documents and chunks by id (readers.ts). Hot path: per read action. */
export const readerStatements = (raw: Db) => ({
  document: raw.prepare<[number], Omit<DocumentView, 'chunks'>>('select id as documentId, external_id as externalId, title, text from documents where id = ?'),
  documentChunks: raw.prepare<[number], ChunkSpan>(
    `select id as chunkId, ord, start_char as startChar, end_char as endChar, token_count as tokenCount
       from chunks where document_id = ? order by ord`,
  ),
  chunk: raw.prepare<[number], Omit<ChunkView, 'sentences'>>(
    `select c.id as chunkId, c.document_id as documentId, d.title as title, c.ord as ord, c.text as text,
              c.start_char as startChar, c.end_char as endChar, c.token_count as tokenCount
       from chunks c join documents d on d.id = c.document_id where c.id = ?`,
  ),
  // Sentences are matched by character span, which is unambiguous even when overlapping chunks
  // share sentences; `owned` marks the ones whose home chunk is this one.
  chunkSentences: raw.prepare<[number, number, number, number], { sentenceId: number; ord: number; text: string; owned: number }>(
    `select id as sentenceId, ord, text, chunk_id = ? as owned from sentences
       where document_id = ? and start_char < ? and end_char > ? order by ord`,
  ),
})

/** Card metadata and FTS snippets of result chunks (hydrate.ts). Hot path: per search result. */
export const cardStatements = (raw: Db, tokens: number) => ({
  meta: raw.prepare<[number, string], { chunkId: number; documentId: number; ord: number; title: string; head: string }>(
    `select c.id as chunkId, c.document_id as documentId, c.ord as ord, d.title as title, substr(c.text, 1, ?) as head
       from chunks c join documents d on d.id = c.document_id where c.id in (select value from json_each(?))`,
  ),
  // One lookup per chunk: FTS5 seeks on `rowid = ?`, whereas `rowid in (...)` walks every match of the query.
  // The id must be bound as a BigInt: better-sqlite3 binds JS numbers as REAL, and FTS5 (SQLite 3.53)
  // silently drops a REAL rowid constraint that accompanies MATCH, returning every matching row.
  snippet: raw.prepare<[string, string, string, string, bigint], string>(`select snippet(chunks_fts, 1, ?, ?, ?, ${tokens}) from chunks_fts where chunks_fts match ? and rowid = ?`).pluck(),
})

/** A model's vector fingerprint and its vectors in chunk order (vector-index.ts). Hot path: per dense query, streamed. */
export const vectorStatements = (raw: Db) => ({
  fingerprint: raw.prepare<[string], { n: number; maxId: number | null }>('select count(*) as n, max(chunk_id) as maxId from chunk_vectors where model = ?'),
  load: raw.prepare<[string], { chunkId: number; documentId: number; dim: number; vector: Buffer }>(
    'select v.chunk_id as chunkId, c.document_id as documentId, v.dim as dim, v.vector as vector ' +
      'from chunk_vectors v join chunks c on c.id = v.chunk_id where v.model = ? order by v.chunk_id',
  ),
})

/** Writes one chunk's vector, replacing it (vectors.ts). Per-row: run once per embedded chunk. */
export const insertVector = (raw: Db) => raw.prepare<[number, string, number, Buffer], never>('insert or replace into chunk_vectors (chunk_id, model, dim, vector) values (?, ?, ?, ?)')

const MISSING = `from chunks c join documents d on d.id = c.document_id
    left join chunk_vectors v on v.chunk_id = c.id and v.model = ?
    where v.chunk_id is null`
/** Chunks without a vector of a model: their count, and pages of them after an id (vectors.ts). */
export const missingVectorStatements = (raw: Db) => ({
  count: raw.prepare<[string], number>(`select count(*) ${MISSING}`).pluck(),
  page: raw.prepare<[string, number, number], { id: number; text: string; title: string }>(`select c.id as id, c.text as text, d.title as title ${MISSING} and c.id > ? order by c.id limit ?`),
})

/** How many chunks already have a vector of the model. */
export const embeddedChunkCount = (raw: Db, model: string): number =>
  raw.prepare<[string], number>('select count(*) from chunk_vectors v join chunks c on c.id = v.chunk_id where v.model = ?').pluck().get(model) ?? 0

/** The models the workspace holds vectors of. */
export const vectorModels = (raw: Db): string[] => raw.prepare<[], string>('select distinct model from chunk_vectors').pluck().all()

export interface GrepRow {
  chunkId: number
  documentId: number
  text: string
  startChar: number
  title: string
}
/** Chunks in id order, optionally of some documents (a JSON id list), streamed (grep.ts). Per-row: a scan of every chunk. */
export function grepRows(raw: Db, documentIds: string | null): IterableIterator<GrepRow> {
  const filter = documentIds !== null ? 'where c.document_id in (select value from json_each(?))' : ''
  const stmt = raw.prepare<unknown[], GrepRow>(
    `select c.id as chunkId, c.document_id as documentId, c.text as text, c.start_char as startChar, d.title as title
     from chunks c join documents d on d.id = c.document_id ${filter} order by c.id`,
  )
  return documentIds !== null ? stmt.iterate(documentIds) : stmt.iterate()
}
