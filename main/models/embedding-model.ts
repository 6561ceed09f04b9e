import type BetterSqlite3 from 'better-sqlite3'
import { readMeta, writeMeta } from '../db/meta'

/** Workspace meta key naming the model behind the stored chunk vectors. */
export const EMBEDDING_MODEL_KEY = 'embedding_model'

/** The workspace's embedding model: set by a corpus.embed job, read by dense search and ingest's entity links. */
export interface EmbeddingModelRecord {
  path: string
  model: string
  dimension: number
}

export function readEmbeddingModel(raw: BetterSqlite3.Database): EmbeddingModelRecord | null {
  const value = readMeta(raw, EMBEDDING_MODEL_KEY)
  return value === undefined ? null : (JSON.parse(value) as EmbeddingModelRecord)
}

export function writeEmbeddingModel(raw: BetterSqlite3.Database, record: EmbeddingModelRecord): void {
  writeMeta(raw, EMBEDDING_MODEL_KEY, JSON.stringify(record))
}
