import type BetterSqlite3 from 'better-sqlite3'

export interface Bm25Weights {
  title: number
  text: number
}

export interface RankedChunk {
  id: number
  score: number
}

/**
 * Ranks chunks with FTS5's bm25(). Only ids and scores are computed here: snippet() on every matching
 * row before the sort would cost far more than the ranking itself for OR queries on a large corpus.
 */
export class Bm25Ranker {
  private readonly all: BetterSqlite3.Statement
  private readonly inDocuments: BetterSqlite3.Statement

  constructor(raw: BetterSqlite3.Database, weights: Bm25Weights) {
    // bm25() is smaller for better matches; it is negated so every score in this layer grows with relevance.
    const rank = `bm25(chunks_fts, ${Number(weights.title)}, ${Number(weights.text)})`
    this.all = raw.prepare(
      `select rowid as id, -${rank} as score from chunks_fts
       where chunks_fts match ? and rowid not in (select value from json_each(?))
       order by ${rank}, rowid limit ?`,
    )
    this.inDocuments = raw.prepare(
      `select f.rowid as id, -${rank} as score from chunks_fts f join chunks c on c.id = f.rowid
       where chunks_fts match ? and f.rowid not in (select value from json_each(?))
         and c.document_id in (select value from json_each(?))
       order by ${rank}, f.rowid limit ?`,
    )
  }

  rank(expression: string, depth: number, exclude: readonly number[], documentIds: readonly number[] | null): RankedChunk[] {
    const excluded = JSON.stringify(exclude)
    if (documentIds) return this.inDocuments.all(expression, excluded, JSON.stringify(documentIds), depth) as RankedChunk[]
    return this.all.all(expression, excluded, depth) as RankedChunk[]
  }
}
