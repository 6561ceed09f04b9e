import type BetterSqlite3 from 'better-sqlite3'
import { insertVector, missingVectorStatements } from './statements'
import { RetrievalError, type Embedder } from './types'

/** Unit-length copy; cosine then reduces to a dot product. A zero vector stays zero (similarity 0). */
export function normalized(vector: Float32Array): Float32Array {
  let sum = 0
  for (let i = 0; i < vector.length; i++) sum += vector[i]! * vector[i]!
  const out = new Float32Array(vector.length)
  if (sum === 0 || !Number.isFinite(sum)) return out
  const inv = 1 / Math.sqrt(sum)
  for (let i = 0; i < vector.length; i++) out[i] = vector[i]! * inv
  return out
}

export function encodeVector(vector: Float32Array): Buffer {
  return Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength)
}

/** Copies out of the blob: SQLite buffers need not be 4-byte aligned for a Float32Array view. */
export function decodeVector(blob: Uint8Array): Float32Array {
  if (blob.byteLength % 4 !== 0) throw new RetrievalError('bad-argument', `Vector blob of ${blob.byteLength} bytes is not Float32 data`)
  const out = new Float32Array(blob.byteLength / 4)
  new Uint8Array(out.buffer).set(blob)
  return out
}

/** Writes (replacing) normalised vectors for chunks, in one transaction. */
export function storeChunkVectors(raw: BetterSqlite3.Database, model: string, items: { chunkId: number; vector: Float32Array }[]): void {
  const insert = insertVector(raw)
  raw.transaction(() => {
    for (const { chunkId, vector } of items) {
      if (vector.length === 0) throw new RetrievalError('bad-argument', `Empty vector for chunk ${chunkId}`)
      insert.run(chunkId, model, vector.length, encodeVector(normalized(vector)))
    }
  }).immediate()
}

export interface EmbedChunksOptions {
  batchSize?: number
  /** Embed "title\n\ntext" rather than the bare chunk text (default true): chunks often never name their subject. */
  withTitle?: boolean
  onProgress?: (done: number, total: number) => void
  signal?: AbortSignal
}

/**
 * Embeds every chunk that has no vector for `embedder.model` (new chunks, or chunks last embedded by
 * another model) and stores the vectors. Pages by id instead of iterating, because the connection
 * cannot write while a statement iterator is open. Returns the number of chunks embedded.
 */
export async function embedMissingChunks(raw: BetterSqlite3.Database, embedder: Embedder, options: EmbedChunksOptions = {}): Promise<number> {
  const batchSize = Math.max(1, options.batchSize ?? 32)
  const withTitle = options.withTitle ?? true
  const missing = missingVectorStatements(raw)
  const total = missing.count.get(embedder.model) ?? 0
  let done = 0
  let after = -Infinity
  for (;;) {
    options.signal?.throwIfAborted()
    const rows = missing.page.all(embedder.model, after, batchSize)
    if (rows.length === 0) break
    const texts = rows.map((r) => (withTitle ? `${r.title}\n\n${r.text}` : r.text))
    let vectors: Float32Array[]
    try {
      vectors = await embedder.embed(texts)
    } catch (err) {
      throw new RetrievalError('embed-failed', `Embedding ${rows.length} chunks with ${embedder.model} failed: ${err instanceof Error ? err.message : String(err)}`)
    }
    if (vectors.length !== rows.length) {
      throw new RetrievalError('embed-failed', `Embedder ${embedder.model} returned ${vectors.length} vectors for ${rows.length} texts`)
    }
    storeChunkVectors(raw, embedder.model, rows.map((r, i) => ({ chunkId: r.id, vector: vectors[i]! })))
    done += rows.length
    after = rows[rows.length - 1]!.id
    options.onProgress?.(done, total)
  }
  return done
}
