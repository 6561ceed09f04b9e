import { LRUCache } from 'lru-cache'
import type { Retriever } from '../../retrieval'
import type { SubstrateCorpus, EntityRow, SentenceRow } from './corpus'
import type { Retrieval } from './surfacing'

/**
 * Most entries each cache keeps (least recently used first out). Sized for a lane of the environment
 * server or a training job on a large corpus: about 400 bytes a sentence row, a few KB a stem set or a
 * retrieval, so some tens of MB when full; the demo world fits whole.
 */
export const CORPUS_CACHE_LIMITS = {
  sentences: 50_000,
  chunks: 10_000,
  mentions: 50_000,
  entities: 50_000,
  canonical: 20_000,
  degrees: 50_000,
  links: 20_000,
  stems: 20_000,
  documents: 5_000,
  retrievals: 2_000,
} as const

const lru = <K extends {}, V extends {}>(max: number) => new LRUCache<K, V>({ max })

/**
 * What the sentence environments read of the corpus, kept across episodes: every environment over one
 * connection (one corpus reader) shares one CorpusCache, so the G rollouts of a question, and the
 * questions that touch the same documents, read each sentence, mention list and retrieval once. The
 * cache is only as old as the corpus revision it was filled at (migration 0013): `refresh()`, at every
 * reset, drops everything when the revision moved (an ingest, a graph rebuild, new vectors). Within an
 * episode nothing is dropped, so a preview and the step that follows it read the same corpus.
 */
export class CorpusCache {
  readonly byChunk = lru<number, SentenceRow[]>(CORPUS_CACHE_LIMITS.chunks)
  readonly byId = lru<number, SentenceRow>(CORPUS_CACHE_LIMITS.sentences)
  readonly mentions = lru<number, EntityRow[]>(CORPUS_CACHE_LIMITS.mentions)
  readonly entities = lru<number, EntityRow>(CORPUS_CACHE_LIMITS.entities)
  readonly byCanonical = lru<string, EntityRow[]>(CORPUS_CACHE_LIMITS.canonical)
  readonly degrees = lru<number, number>(CORPUS_CACHE_LIMITS.degrees)
  readonly links = lru<number, { id: number; score: number }[]>(CORPUS_CACHE_LIMITS.links)
  readonly stems = lru<number, Set<string>>(CORPUS_CACHE_LIMITS.stems)
  readonly documents = lru<string, { titled: number[]; all: number[] }>(CORPUS_CACHE_LIMITS.documents)
  /** Retrievals by retriever (its weights and embedder rank differently) and by mode, query, k and focus. */
  private retrievalsBy = new WeakMap<Retriever, LRUCache<string, Retrieval>>()
  private revision: number | null

  constructor(private readonly reader: SubstrateCorpus) {
    this.revision = reader.corpusRevision()
  }

  /** Drops everything when the corpus moved past the revision it was read at. */
  refresh(): void {
    const now = this.reader.corpusRevision()
    if (now !== this.revision) {
      this.clear()
      this.revision = now
    }
  }

  retrievals(retriever: Retriever): LRUCache<string, Retrieval> {
    let cache = this.retrievalsBy.get(retriever)
    if (!cache) {
      cache = lru<string, Retrieval>(CORPUS_CACHE_LIMITS.retrievals)
      this.retrievalsBy.set(retriever, cache)
    }
    return cache
  }

  private clear(): void {
    for (const c of [this.byChunk, this.byId, this.mentions, this.entities, this.byCanonical, this.degrees, this.links, this.stems, this.documents]) c.clear()
    this.retrievalsBy = new WeakMap()
  }
}

const shared = new WeakMap<SubstrateCorpus, CorpusCache>()

/**
 * The one cache of a corpus reader (one reader per connection, main/corpus/repository). A workspace that
 * keeps no revision (a file from before 0013 opened read-only) gets a cache of its own per caller: the
 * environment's lifetime, as the corpus is assumed not to change while one lives.
 */
export function corpusCacheFor(reader: SubstrateCorpus): CorpusCache {
  if (reader.corpusRevision() === null) return new CorpusCache(reader)
  let cache = shared.get(reader)
  if (!cache) {
    cache = new CorpusCache(reader)
    shared.set(reader, cache)
  }
  return cache
}
