import type BetterSqlite3 from 'better-sqlite3'
import { Bm25Ranker, type Bm25Weights, type RankedChunk } from './bm25'
import { buildMatchQuery } from './fts-query'
import { DEFAULT_RRF_K, reciprocalRankFusion } from './fusion'
import { grepChunks } from './grep'
import { ChunkCards, HIGHLIGHT_CLOSE, HIGHLIGHT_OPEN, type HighlightMarkers } from './hydrate'
import { Readers } from './readers'
import { vectorModels } from './statements'
import { VectorCache, type VectorMatrix } from './vector-index'
import {
  RetrievalError,
  type ChunkView,
  type DocumentView,
  type Embedder,
  type GrepOptions,
  type GrepResult,
  type RankedList,
  type SearchHit,
  type SearchMode,
  type SearchOptions,
  type SearchResult,
} from './types'

export interface RetrieverOptions {
  /** Needed for 'dense' (and for 'hybrid' to fuse anything but bm25). */
  embedder?: Embedder
  /** bm25() column weights: a title hit says more about a chunk than one word in its body. Default 2 / 1. */
  bm25Weights?: Partial<Bm25Weights>
  /** Reciprocal rank fusion constant. Default 60. */
  rrfK?: number
  /** Each hybrid input list is cut at candidateFactor * k (default 4). */
  candidateFactor?: number
  /** Tokens per FTS5 snippet (1..64). Default 24. */
  snippetTokens?: number
  /** Highlight markers in snippets. Default \u0001 … \u0002 (see HIGHLIGHT_OPEN / HIGHLIGHT_CLOSE). */
  highlight?: HighlightMarkers
  /** Drop English stopwords from queries. Default true. */
  dropStopwords?: boolean
}

export const MAX_K = 1000

/**
 * The one search contract every harness uses, over a workspace database (migrations 0002 + 0003).
 * It only reads; the connection stays owned by the caller.
 */
export class Retriever {
  private readonly bm25Ranker: Bm25Ranker
  private readonly cards: ChunkCards
  private readonly readers: Readers
  private readonly vectors: VectorCache
  private readonly rrfK: number
  private readonly candidateFactor: number

  constructor(
    private readonly raw: BetterSqlite3.Database,
    private readonly options: RetrieverOptions = {},
  ) {
    this.bm25Ranker = new Bm25Ranker(raw, { title: options.bm25Weights?.title ?? 2, text: options.bm25Weights?.text ?? 1 })
    this.cards = new ChunkCards(raw, options.highlight ?? { open: HIGHLIGHT_OPEN, close: HIGHLIGHT_CLOSE }, options.snippetTokens ?? 24)
    this.readers = new Readers(raw)
    this.vectors = new VectorCache(raw)
    this.rrfK = options.rrfK ?? DEFAULT_RRF_K
    this.candidateFactor = Math.max(1, options.candidateFactor ?? 4)
  }

  get embedder(): Embedder | undefined {
    return this.options.embedder
  }

  async search(query: string, k: number, mode: SearchMode, options: SearchOptions = {}): Promise<SearchResult> {
    if (mode === 'bm25') return this.searchBm25(query, k, options)
    checkK(k)
    const { expression } = this.matchQuery(query)
    if (mode === 'dense') {
      const matrix = this.requireVectors()
      const ranked = await this.denseList(matrix, query, k, options)
      return { mode, fusedFrom: ['dense'], matchExpression: expression, hits: this.toHits(ranked, snippetQuery(expression, options), 'dense') }
    }
    if (mode !== 'hybrid') throw new RetrievalError('bad-argument', `Unknown search mode "${String(mode)}" (bm25, dense or hybrid)`)

    const matrix = this.options.embedder ? this.vectors.get(this.options.embedder.model) : null
    if (!matrix) {
      const bm25 = this.searchBm25(query, k, options)
      const why = this.options.embedder
        ? `no chunk vectors for model "${this.options.embedder.model}" in this workspace`
        : 'no embedding model is configured'
      return { ...bm25, mode, fallback: `hybrid fell back to bm25: ${why}` }
    }
    if (k === 0) return { mode, fusedFrom: ['bm25', 'dense'], matchExpression: expression, hits: [] }
    const depth = Math.min(MAX_K * this.candidateFactor, Math.ceil(k * this.candidateFactor))
    const lexical = expression ? this.bm25Ranker.rank(expression, depth, excludedList(options), options.documentIds ?? null) : []
    const dense = await this.denseList(matrix, query, depth, options)
    const fused = reciprocalRankFusion([lexical.map((r) => r.id), dense.map((r) => r.id)], this.rrfK).slice(0, k)
    const bm25Score = new Map(lexical.map((r) => [r.id, r.score]))
    const denseScore = new Map(dense.map((r) => [r.id, r.score]))
    const cards = this.cards.load(fused.map((f) => f.id), snippetQuery(expression, options))
    const hits: SearchHit[] = []
    for (const f of fused) {
      const card = cards.get(f.id)
      if (!card) continue // chunk deleted between ranking and hydration
      hits.push({
        ...card,
        score: f.score,
        rank: hits.length + 1,
        rrf: f.score,
        ...(bm25Score.has(f.id) ? { bm25: bm25Score.get(f.id), bm25Rank: f.ranks[0] } : {}),
        ...(denseScore.has(f.id) ? { dense: denseScore.get(f.id), denseRank: f.ranks[1] } : {}),
      })
    }
    return { mode, fusedFrom: ['bm25', 'dense'], matchExpression: expression, hits }
  }

  /** The synchronous lexical path (no embedder involved), for callers that cannot await. */
  searchBm25(query: string, k: number, options: SearchOptions = {}): SearchResult {
    checkK(k)
    const { expression } = this.matchQuery(query)
    const fusedFrom: RankedList[] = ['bm25']
    if (!expression || k === 0) return { mode: 'bm25', fusedFrom, matchExpression: expression, hits: [] }
    const ranked = this.bm25Ranker.rank(expression, k, excludedList(options), options.documentIds ?? null)
    return { mode: 'bm25', fusedFrom, matchExpression: expression, hits: this.toHits(ranked, snippetQuery(expression, options), 'bm25') }
  }

  grep(pattern: string, options: GrepOptions): GrepResult {
    return grepChunks(this.raw, pattern, options)
  }

  readDocument(documentId: number): DocumentView {
    return this.readers.readDocument(documentId)
  }

  readChunk(chunkId: number): ChunkView {
    return this.readers.readChunk(chunkId)
  }

  /** Number of stored vectors usable by the configured embedder (0 without one). */
  vectorCount(): number {
    return this.options.embedder ? (this.vectors.get(this.options.embedder.model)?.size ?? 0) : 0
  }

  /** Drops cached vectors; call after rewriting vectors in place (same chunk ids and count). */
  invalidateVectors(): void {
    this.vectors.invalidate()
  }

  private matchQuery(query: string) {
    if (typeof query !== 'string') throw new RetrievalError('bad-argument', 'Search query must be a string')
    return buildMatchQuery(query, { dropStopwords: this.options.dropStopwords ?? true })
  }

  private requireVectors(): VectorMatrix {
    const embedder = this.options.embedder
    if (!embedder) throw new RetrievalError('no-embedder', 'Dense search needs an embedding model: none is configured for this retriever')
    const matrix = this.vectors.get(embedder.model)
    if (!matrix) {
      const others = vectorModels(this.raw)
      const hint = others.length ? ` (vectors exist for: ${others.join(', ')})` : ''
      throw new RetrievalError(
        'no-vectors',
        `Dense search unavailable: this workspace has no chunk vectors for model "${embedder.model}"${hint}. Build the dense index first.`,
      )
    }
    return matrix
  }

  private async denseList(matrix: VectorMatrix, query: string, depth: number, options: SearchOptions): Promise<RankedChunk[]> {
    if (depth === 0 || query.trim() === '') return []
    const embedder = this.options.embedder!
    let vectors: Float32Array[]
    try {
      vectors = await embedder.embed([query])
    } catch (err) {
      throw new RetrievalError('embed-failed', `Embedding the query with ${embedder.model} failed: ${err instanceof Error ? err.message : String(err)}`)
    }
    const vector = vectors[0]
    if (!vector) throw new RetrievalError('embed-failed', `Embedder ${embedder.model} returned no vector for the query`)
    const documents = options.documentIds ? new Set(options.documentIds) : null
    return matrix.nearest(vector, depth, new Set(options.excludeChunkIds ?? []), documents)
  }

  private toHits(ranked: RankedChunk[], expression: string | null, list: RankedList): SearchHit[] {
    const cards = this.cards.load(ranked.map((r) => r.id), expression)
    const hits: SearchHit[] = []
    for (const r of ranked) {
      const card = cards.get(r.id)
      if (!card) continue
      hits.push({ ...card, score: r.score, rank: hits.length + 1, [list]: r.score })
    }
    return hits
  }
}

export function createRetriever(raw: BetterSqlite3.Database, options?: RetrieverOptions): Retriever {
  return new Retriever(raw, options)
}

function checkK(k: number): void {
  if (!Number.isInteger(k) || k < 0 || k > MAX_K) throw new RetrievalError('bad-argument', `k must be an integer from 0 to ${MAX_K}, got ${k}`)
}

/** The FTS expression snippets are cut for, or null for opening words only (`snippets: false`). */
function snippetQuery(expression: string | null, options: SearchOptions): string | null {
  return options.snippets === false ? null : expression
}

function excludedList(options: SearchOptions): number[] {
  return options.excludeChunkIds ? [...options.excludeChunkIds] : []
}
