import type BetterSqlite3 from 'better-sqlite3'
import { readMeta, writeMeta } from '../db/meta'
import { z } from 'zod'
import { jsonColumn } from '../db/json-column'

/** Workspace meta key naming the model behind the stored chunk vectors. */
export const EMBEDDING_MODEL_KEY = 'embedding_model'

/** The workspace's embedding model: set by a corpus.embed job, read by dense search and ingest's entity links. */
const EmbeddingModelRecord = z.object({ path: z.string(), model: z.string(), dimension: z.number() })
export type EmbeddingModelRecord = z.infer<typeof EmbeddingModelRecord>
const embeddingModelMeta = jsonColumn(`meta['${EMBEDDING_MODEL_KEY}']`, EmbeddingModelRecord)

export function readEmbeddingModel(raw: BetterSqlite3.Database): EmbeddingModelRecord | null {
  const value = readMeta(raw, EMBEDDING_MODEL_KEY)
  return embeddingModelMeta.readNullable(value)
}

export function writeEmbeddingModel(raw: BetterSqlite3.Database, record: EmbeddingModelRecord): void {
  writeMeta(raw, EMBEDDING_MODEL_KEY, embeddingModelMeta.write(record))
}
