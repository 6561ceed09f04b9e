import type BetterSqlite3 from 'better-sqlite3'

/** Workspace meta key naming the model behind the stored chunk vectors. */
export const EMBEDDING_MODEL_KEY = 'embedding_model'

/** The workspace's embedding model: set by a corpus.embed job, read by dense search and ingest's entity links. */
export interface EmbeddingModelRecord {
  path: string
  model: string
  dimension: number
}

export function readEmbeddingModel(raw: BetterSqlite3.Database): EmbeddingModelRecord | null {
  const value = raw.prepare('select value from meta where key = ?').pluck().get(EMBEDDING_MODEL_KEY) as string | undefined
  return value === undefined ? null : (JSON.parse(value) as EmbeddingModelRecord)
}

export function writeEmbeddingModel(raw: BetterSqlite3.Database, record: EmbeddingModelRecord): void {
  raw.prepare('insert into meta (key, value) values (?, ?) on conflict(key) do update set value = excluded.value').run(EMBEDDING_MODEL_KEY, JSON.stringify(record))
}
