import type BetterSqlite3 from 'better-sqlite3'
import { vectorStatements } from './statements'
import { TopK } from './top-k'
import { decodeVector, normalized } from './vectors'
import { RetrievalError } from './types'

/** All vectors of one model, row-major in one Float32Array, for a brute-force cosine scan. */
export class VectorMatrix {
  constructor(
    readonly model: string,
    readonly dim: number,
    readonly chunkIds: Float64Array,
    readonly documentIds: Float64Array,
    readonly data: Float32Array,
  ) {}

  get size(): number {
    return this.chunkIds.length
  }

  /** Top `depth` chunks by cosine to `query`, skipping excluded chunks and (if given) other documents. */
  nearest(query: Float32Array, depth: number, exclude: ReadonlySet<number>, documents: ReadonlySet<number> | null): { id: number; score: number }[] {
    if (query.length !== this.dim) {
      throw new RetrievalError('bad-argument', `Query embedding has ${query.length} dimensions but the stored ${this.model} vectors have ${this.dim}`)
    }
    const q = normalized(query)
    const top = new TopK(depth)
    const { dim, data, chunkIds, documentIds } = this
    for (let row = 0, base = 0; row < chunkIds.length; row++, base += dim) {
      const id = chunkIds[row]!
      if (exclude.has(id) || (documents && !documents.has(documentIds[row]!))) continue
      let dot = 0
      for (let j = 0; j < dim; j++) dot += q[j]! * data[base + j]!
      if (dot >= top.threshold) top.push(id, dot)
    }
    return top.sorted()
  }
}

interface Cached {
  fingerprint: string
  matrix: VectorMatrix | null
}

/**
 * Loads each model's vectors once and reuses them until the stored set changes. The fingerprint
 * (count, max chunk id) comes from the model index, so checking it per query is cheap; a writer that
 * replaces vectors in place (same ids, same count) must call `invalidate()`.
 */
export class VectorCache {
  private readonly cache = new Map<string, Cached>()
  private readonly s

  constructor(raw: BetterSqlite3.Database) {
    this.s = vectorStatements(raw)
  }

  invalidate(model?: string): void {
    if (model === undefined) this.cache.clear()
    else this.cache.delete(model)
  }

  /** The model's vectors, or null when the workspace has none. */
  get(model: string): VectorMatrix | null {
    const { n, maxId } = this.s.fingerprint.get(model)!
    const fingerprint = `${n}:${maxId}`
    const hit = this.cache.get(model)
    if (hit && hit.fingerprint === fingerprint) return hit.matrix
    const matrix = n === 0 ? null : this.load(model, n)
    this.cache.set(model, { fingerprint, matrix })
    return matrix
  }

  private load(model: string, expected: number): VectorMatrix {
    let dim = 0
    let data = new Float32Array(0)
    const chunkIds = new Float64Array(expected)
    const documentIds = new Float64Array(expected)
    let row = 0
    for (const r of this.s.load.iterate(model)) {
      if (row === 0) {
        dim = r.dim
        data = new Float32Array(expected * dim)
      } else if (r.dim !== dim) {
        throw new RetrievalError('bad-argument', `Stored ${model} vectors disagree on dimension (${dim} and ${r.dim}, chunk ${r.chunkId}); re-embed the workspace`)
      }
      if (row >= expected) break // rows added between the count and this read wait for the next fingerprint change
      // Normalised again on load: writers other than storeChunkVectors may skip it.
      data.set(normalized(decodeVector(r.vector)), row * dim)
      chunkIds[row] = r.chunkId
      documentIds[row] = r.documentId
      row++
    }
    return new VectorMatrix(model, dim, chunkIds.subarray(0, row), documentIds.subarray(0, row), data.subarray(0, row * dim))
  }
}
