import type BetterSqlite3 from 'better-sqlite3'
import { linkableEntities, replaceEntityLinks } from '../store/links'
import { GraphError, type WorkHooks } from '../store/types'
import { denseCosineJoin, denseRows, type DenseStrategy } from './dense-join'
import { sparseCosineJoin, type JoinResult } from './sparse-join'
import { trigramTfidf } from './trigram-vectors'

/** Embeds texts in order: one vector per text, all of one length. */
export type EmbedFn = (texts: string[]) => Promise<Float32Array[]>

/**
 * Stored in entity_links.method when no embedder is given. Why names by character trigrams, not
 * the words around mentions: Harness-G's links are cosine over embeddings of the entity *names*,
 * and at 0.80 such neighbours are mostly surface variants (aliases, partial names, spelling and
 * accent variants, "University of X" / "X University") that trigrams catch as well; relatedness
 * by context (Paris ~ France) is what mention and sentence edges already carry. Name vectors are
 * short (about 15 trigrams), so the exact prefix-filtered join stays near linear where context
 * vectors of hub entities (thousands of words) would not.
 */
export const TRIGRAM_METHOD = 'name-trigram-tfidf'
export const EMBEDDING_METHOD = 'name-embedding'
export const DEFAULT_TOP_K = 5
export const DEFAULT_THRESHOLD = 0.8

export interface EntityLinkOptions extends WorkHooks {
  /** Embeds entity names; without it names are compared by character-trigram TF-IDF. */
  embed?: EmbedFn
  /** Embedding model name, recorded as `name-embedding:<model>`. */
  model?: string
  topK?: number
  threshold?: number
  /** Names per embed call (default 256). */
  batchSize?: number
  /** How dense vectors are joined (default 'auto': exact up to 8000 entities, LSH above). */
  dense?: DenseStrategy
}

export interface EntityLinkResult {
  method: string
  /** Entities that took part (lookup_ok = 1). */
  entities: number
  /** Entities with at least one link. */
  linked: number
  links: number
  /** Candidate pairs whose cosine was computed. */
  scored: number
  /** 'exact' or 'lsh' for embeddings, 'prefix-filter' for trigrams. */
  join: string
  ms: { vectors: number; join: number; write: number; total: number }
}

/**
 * Recomputes every entity neighbour link: each LOOKUP-able entity's top k other entities with
 * cosine >= threshold (Harness-G: top 5 at 0.80). Replaces the whole entity_links table in one
 * transaction, so readers see the old links or the new ones, never a mix.
 */
export async function computeEntityLinks(raw: BetterSqlite3.Database, options: EntityLinkOptions = {}): Promise<EntityLinkResult> {
  const topK = options.topK ?? DEFAULT_TOP_K
  const threshold = options.threshold ?? DEFAULT_THRESHOLD
  if (!Number.isInteger(topK) || topK < 1 || topK > 100) throw new GraphError('bad-argument', `topK must be an integer from 1 to 100, got ${topK}`)
  if (!(threshold > 0 && threshold <= 1)) throw new GraphError('bad-argument', `threshold must be in (0, 1], got ${threshold}`)
  const started = performance.now()
  const entities = linkableEntities(raw)
  const names = entities.map((e) => e.name)

  let method: string
  let joined: JoinResult
  let join: string
  let vectorsMs: number
  if (options.embed) {
    method = options.model ? `${EMBEDDING_METHOD}:${options.model}` : EMBEDDING_METHOD
    const vectors = await embedAll(options.embed, names, options)
    let rows
    try {
      rows = denseRows(vectors)
    } catch (err) {
      throw new GraphError('bad-argument', `The embedder returned unusable vectors: ${(err as Error).message}`)
    }
    vectorsMs = performance.now() - started
    const dense = denseCosineJoin(rows, { ...options, topK, threshold, strategy: options.dense ?? 'auto' })
    joined = dense
    join = dense.strategy
  } else {
    method = TRIGRAM_METHOD
    const rows = trigramTfidf(names)
    vectorsMs = performance.now() - started
    joined = sparseCosineJoin(rows, { ...options, topK, threshold })
    join = 'prefix-filter'
  }
  const joinedAt = performance.now()

  options.checkpoint?.()
  let links = 0
  let linked = 0
  replaceEntityLinks(raw, (add) => {
    for (let r = 0; r < entities.length; r++) {
      const entries = joined.table.entries(r)
      if (entries.length > 0) linked++
      for (const { col, score } of entries) {
        add(entities[r]!.id, entities[col]!.id, score, method)
        links++
      }
    }
  })
  const done = performance.now()
  return {
    method,
    entities: entities.length,
    linked,
    links,
    scored: joined.scored,
    join,
    ms: { vectors: vectorsMs, join: joinedAt - started - vectorsMs, write: done - joinedAt, total: done - started },
  }
}

async function embedAll(embed: EmbedFn, names: string[], options: EntityLinkOptions): Promise<Float32Array[]> {
  const batch = options.batchSize ?? 256
  const out: Float32Array[] = []
  for (let i = 0; i < names.length; i += batch) {
    options.checkpoint?.()
    options.onProgress?.(i, names.length, 'embed')
    const slice = names.slice(i, i + batch)
    const vectors = await embed(slice)
    if (vectors.length !== slice.length) {
      throw new GraphError('bad-argument', `The embedder returned ${vectors.length} vectors for ${slice.length} names`)
    }
    out.push(...vectors)
  }
  options.onProgress?.(names.length, names.length, 'embed')
  return out
}
