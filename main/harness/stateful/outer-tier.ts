/**
 * The outer tier: the full text of every chunk the episode retrieved, loaded from the corpus once and
 * then served from memory (review_docs and verify never touch the corpus again). Each stored chunk
 * also carries the named entities its sentences mention, which the evidence graph is built from.
 * Loaded chunks are cached across the episodes of one environment (bounded), membership is per episode.
 */
import type SQLite from 'better-sqlite3'
import type { Retriever } from '../../retrieval'

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
  private readonly mentions: SQLite.Statement
  private readonly siblings: SQLite.Statement
  private readonly exists: SQLite.Statement

  constructor(
    raw: SQLite.Database,
    private readonly retriever: Retriever,
  ) {
    this.mentions = raw.prepare(
      `select distinct e.id as id, e.name as name, e.type as type from mentions m join entities e on e.id = m.entity_id
       where e.lookup_ok = 1 and m.sentence_id in (select value from json_each(?)) order by e.id`,
    )
    this.siblings = raw.prepare('select id from chunks where document_id = ? order by ord').pluck()
    this.exists = raw.prepare('select 1 from chunks where id = ?').pluck()
  }

  inCorpus(chunkId: number): boolean {
    return this.cache.has(chunkId) || this.exists.get(chunkId) !== undefined
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
      documentChunkIds: this.siblings.all(view.documentId) as number[],
      text: view.text,
      sentences,
      entities: this.mentions.all(JSON.stringify(sentences.map((s) => s.sentenceId))) as StoredEntity[],
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
