/**
 * The outer tier: the full text of every chunk the episode retrieved, loaded from the corpus once and
 * then served from memory (review_docs and verify never touch the corpus again). Each stored chunk
 * also carries the named entities its sentences mention, which the evidence graph is built from.
 * Loaded chunks are cached across the episodes of one environment (bounded), membership is per episode.
 */
import type { ChunkReader, EntityReader } from '../../corpus/repository'
import type { Retriever } from '../../retrieval'

/** What the outer tier reads of the corpus (a slice of EnvContext.corpus); chunk texts come from the retriever. */
export type OuterTierCorpus = ChunkReader & Pick<EntityReader, 'namedEntities'>

export interface StoredEntity {
  id: number
  name: string
  type: string
}

export interface StoredChunk {
  chunkId: number
  documentId: number
  title: string
  /** Position of the chunk in its document, and the document's chunk ids in order. */
  ord: number
  documentChunkIds: number[]
  text: string
  sentences: { sentenceId: number; ord: number; text: string }[]
  /** Distinct named entities mentioned (LOOKUP-able types only: no dates, numbers, nationalities). */
  entities: StoredEntity[]
}

const CACHE_LIMIT = 20_000

/** Corpus access for the outer tier: chunk text, sentences and entities, cached. */
export class ChunkStore {
  private readonly cache = new Map<number, StoredChunk>()

  constructor(
    private readonly corpus: OuterTierCorpus,
    private readonly retriever: Retriever,
  ) {}

  inCorpus(chunkId: number): boolean {
    return this.cache.has(chunkId) || this.corpus.hasChunk(chunkId)
  }

  load(chunkId: number): StoredChunk {
    const cached = this.cache.get(chunkId)
    if (cached) return cached
    const view = this.retriever.readChunk(chunkId)
    const sentences = view.sentences.map((s) => ({ sentenceId: s.sentenceId, ord: s.ord, text: s.text }))
    const stored: StoredChunk = {
      chunkId,
      documentId: view.documentId,
      title: view.title,
      ord: view.ord,
      documentChunkIds: this.corpus.documentChunkIds(view.documentId),
      text: view.text,
      sentences,
      entities: this.corpus.namedEntities(sentences.map((s) => s.sentenceId)),
    }
    if (this.cache.size >= CACHE_LIMIT) this.cache.clear()
    this.cache.set(chunkId, stored)
    return stored
  }
}

/** One episode's outer tier: which chunks it has retrieved, with their stored text. */
export class OuterTier {
  private readonly chunks = new Map<number, StoredChunk>()

  constructor(private readonly store: ChunkStore) {}

  has(chunkId: number): boolean {
    return this.chunks.has(chunkId)
  }

  get(chunkId: number): StoredChunk | undefined {
    return this.chunks.get(chunkId)
  }

  ids(): number[] {
    return [...this.chunks.keys()]
  }

  get size(): number {
    return this.chunks.size
  }

  inCorpus(chunkId: number): boolean {
    return this.store.inCorpus(chunkId)
  }

  /** Retrieves a chunk into the tier (from the corpus the first time). */
  load(chunkId: number): StoredChunk {
    let c = this.chunks.get(chunkId)
    if (!c) this.chunks.set(chunkId, (c = this.store.load(chunkId)))
    return c
  }
}
