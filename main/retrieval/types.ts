/** Public shapes of the retrieval layer, shared by every harness, the UI and the bench. */

export type SearchMode = 'bm25' | 'dense' | 'hybrid'
export type RankedList = 'bm25' | 'dense'

export interface SearchOptions {
  /** Chunks the caller has already seen; never returned, and do not count towards k. */
  excludeChunkIds?: ReadonlySet<number> | readonly number[]
  /** Restrict the search to these documents. */
  documentIds?: readonly number[]
  /**
   * false: every hit's snippet is the chunk's opening words, with no FTS5 snippet() (which evaluates the
   * query again for each hit). For callers that only rank chunks and read their sentences, such as the
   * environments' surfacing. Default true.
   */
  snippets?: boolean
}

export interface SearchHit {
  chunkId: number
  documentId: number
  title: string
  /** Position of the chunk inside its document. */
  ord: number
  /** The score the hit was ranked by (higher is better): bm25, dense or rrf depending on mode. */
  score: number
  /** 1-based rank in this result. */
  rank: number
  /**
   * Excerpt of the chunk text. Matched query terms are wrapped in the retriever's highlight markers
   * (default HIGHLIGHT_OPEN / HIGHLIGHT_CLOSE, i.e. \u0001 and \u0002); hits found only by dense
   * retrieval that match no query term get the chunk's opening words without markers.
   */
  snippet: string
  /** Negated FTS5 bm25(): higher is better. Present when the bm25 list found the chunk. */
  bm25?: number
  /** Cosine similarity to the query. Present when the dense list found the chunk. */
  dense?: number
  /** Reciprocal-rank-fusion score (hybrid only). */
  rrf?: number
  /** 1-based ranks in the fused lists (hybrid only). */
  bm25Rank?: number
  denseRank?: number
}

export interface SearchResult {
  mode: SearchMode
  hits: SearchHit[]
  /** Ranked lists that produced the hits; hybrid without vectors reports ['bm25']. */
  fusedFrom: RankedList[]
  /** Why the result differs from what the mode asked for (e.g. hybrid fell back to bm25). */
  fallback?: string
  /** The sanitised FTS5 MATCH expression, or null when the query has no searchable term. */
  matchExpression: string | null
}

/** Embeds texts; the retriever never knows which runtime (node-llama-cpp, HTTP, toy) is behind it. */
export interface Embedder {
  /** Stored with each vector; only vectors of this model are searched. */
  model: string
  embed(texts: string[]): Promise<Float32Array[]>
}

export interface GrepOptions {
  /** Flags among i, m, s, u, v (JavaScript spelling; g is implied). Patterns run on RE2: no backreferences or lookaround. */
  flags?: string
  maxResults: number
  /** Wall-clock safety net: past it the scan stops and `timedOut` says so (results then depend on machine load). */
  timeBudgetMs: number
  /** Work budget: characters of chunk text scanned before the scan stops (deterministic); default unlimited. */
  maxScanChars?: number
  /** Characters of context on each side of a match, clipped to the match's line. Default 60. */
  contextChars?: number
  documentIds?: readonly number[]
  excludeChunkIds?: ReadonlySet<number> | readonly number[]
}

export interface GrepHit {
  chunkId: number
  documentId: number
  title: string
  /** 1-based line of the match inside the chunk text. */
  line: number
  /** Character offset of the match inside the chunk text. */
  offset: number
  /** Character offset of the match inside the document text. */
  documentOffset: number
  match: string
  context: string
}

export interface GrepResult {
  hits: GrepHit[]
  /** Stopped at maxResults while more matches existed. */
  truncated: boolean
  /** Stopped because the time budget (the wall-clock safety net) ran out before every chunk was scanned. */
  timedOut: boolean
  /** Stopped because `maxScanChars` characters were scanned before every chunk was. */
  scanBudgetSpent: boolean
  scannedChunks: number
  /** Characters of chunk text scanned (excluded chunks are skipped unread). */
  scannedChars: number
}

export interface ChunkSpan {
  chunkId: number
  ord: number
  startChar: number
  endChar: number
  tokenCount: number
}

export interface DocumentView {
  documentId: number
  externalId: string
  title: string
  text: string
  chunks: ChunkSpan[]
}

export interface SentenceView {
  sentenceId: number
  /** Index of the sentence in its document (gold supporting-fact indices refer to it). */
  ord: number
  text: string
  /** True when this chunk is the sentence's home chunk (the first chunk that holds it). */
  owned: boolean
}

export interface ChunkView extends ChunkSpan {
  documentId: number
  title: string
  text: string
  sentences: SentenceView[]
}

export class RetrievalError extends Error {
  constructor(
    readonly code: 'invalid-regex' | 'not-found' | 'no-vectors' | 'no-embedder' | 'bad-argument' | 'embed-failed',
    message: string,
  ) {
    super(message)
    this.name = 'RetrievalError'
  }
}
