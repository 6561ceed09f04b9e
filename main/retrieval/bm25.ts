import type BetterSqlite3 from 'better-sqlite3'
import { bm25Statements } from './statements'

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
  private readonly s

  constructor(raw: BetterSqlite3.Database, weights: Bm25Weights) {
    // bm25() is smaller for better matches; it is negated so every score in this layer grows with relevance.
    const rank = `bm25(chunks_fts, ${Number(weights.title)}, ${Number(weights.text)})`
    this.s = bm25Statements(raw, rank)
  }

  rank(expression: string, depth: number, exclude: readonly number[], documentIds: readonly number[] | null): RankedChunk[] {
    const excluded = JSON.stringify(exclude)
    if (documentIds) return this.s.inDocuments.all(expression, excluded, JSON.stringify(documentIds), depth)
    return this.s.all.all(expression, excluded, depth)
  }
}
