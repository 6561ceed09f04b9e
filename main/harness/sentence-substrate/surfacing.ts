import type { Retriever, SearchHit, SearchMode } from '../../retrieval'
import type { CorpusView, SentenceRow } from './corpus'
import { contentTerms, coverage, normalisedText, queryKey } from './terms'

/** A sentence of a retrieved chunk, with what ranked it. */
export interface RankedSentence {
  row: SentenceRow
  /** 1-based rank of the chunk that holds it. */
  chunkRank: number
  /** The chunk's score relative to the query's best hit (1 for the top chunk). */
  retrieval: number
  /** Share of the query's content terms the sentence holds. */
  overlap: number
  /** 2: lies in the document named after the focus entity; 1: mentions it; 0: neither (or no focus). */
  focus: number
}

export interface Retrieval {
  query: string
  key: string
  hits: { chunkId: number; documentId: number; title: string; rank: number; score: number }[]
  /** The focus entity's own document first, then sentences that mention it; each by query overlap, chunk rank and position. */
  ranked: RankedSentence[]
}

/** The entity a LOOKUP is about: its sentences are surfaced first. */
export interface Focus {
  entityIds: readonly number[]
  name: string
  /**
   * Restrict the retrieval to the entity's neighbourhood: its own documents (named after it) come
   * first whatever their score, then the best of the documents that mention it.
   */
  documents?: { titled: readonly number[]; all: readonly number[] }
}

/**
 * Maps a query to sentences: the top chunks of one retrieval, their sentences ranked. Results are
 * cached by query key within an episode, so that previewing every menu item at every step costs one
 * retrieval per distinct query, and a preview and the step that follows it see the same result; and
 * across episodes in the corpus cache (corpus-cache.ts), so that a group's rollouts of one question, or
 * lookups of one entity, retrieve once while the corpus stays at one revision.
 */
export class Surfacer {
  private readonly cache = new Map<string, Retrieval>()

  constructor(
    private readonly corpus: CorpusView,
    private readonly retriever: Retriever,
    private readonly mode: SearchMode,
  ) {}

  /** Called at every reset: the episode's cache starts empty (the shared one is the corpus view's). */
  clear(): void {
    this.cache.clear()
  }

  async retrieve(query: string, k: number, focus?: Focus): Promise<Retrieval> {
    const key = queryKey(query)
    const scope = focus?.documents ? 'neighbourhood' : 'corpus'
    const cacheKey = `${key}\u0000${k}\u0000${focus ? [...focus.entityIds].sort((a, b) => a - b).join(',') : ''}\u0000${scope}`
    const known = this.cache.get(cacheKey)
    if (known) return known
    const shared = this.corpus.cache.retrievals(this.retriever)
    const sharedKey = `${this.mode}\u0000${cacheKey}`
    const before = shared.get(sharedKey)
    if (before) {
      this.cache.set(cacheKey, before)
      return before
    }

    const hits = await this.search(query, k, focus?.documents)
    const terms = contentTerms(query)
    const focusIds = new Set(focus?.entityIds ?? [])
    const focusTitle = focus ? normalisedText(focus.name) : null
    const seen = new Set<number>()
    const ranked: RankedSentence[] = []
    for (const hit of hits) {
      const retrieval = hit.relative
      for (const row of this.corpus.chunkSentences(hit.chunkId)) {
        if (seen.has(row.id)) continue
        seen.add(row.id)
        const level = !focus ? 0 : normalisedText(row.title) === focusTitle ? 2 : this.corpus.mentions(row.id).some((e) => focusIds.has(e.id)) ? 1 : 0
        ranked.push({ row, chunkRank: hit.rank, retrieval, overlap: coverage(terms, this.corpus.stems(row.id)), focus: level })
      }
    }
    ranked.sort(
      (a, b) => b.focus - a.focus || b.overlap - a.overlap || a.chunkRank - b.chunkRank || a.row.ord - b.row.ord || a.row.id - b.row.id,
    )
    const retrieval: Retrieval = {
      query,
      key,
      hits: hits.map((h) => ({ chunkId: h.chunkId, documentId: h.documentId, title: h.title, rank: h.rank, score: h.score })),
      ranked,
    }
    this.cache.set(cacheKey, retrieval)
    shared.set(sharedKey, retrieval)
    return retrieval
  }

  /** Top-k chunks, each with its score relative to the best of the list it came from. */
  private async search(query: string, k: number, documents?: Focus['documents']): Promise<(SearchHit & { relative: number })[]> {
    const relative = (list: SearchHit[]) => {
      const best = list[0]?.score ?? 0
      return list.map((h) => ({ ...h, relative: best > 0 ? Math.max(0, h.score / best) : 1 / h.rank }))
    }
    // Sentences are read from the chunks, so the hits' FTS snippets would be made for nothing.
    if (!documents) return relative((await this.retriever.search(query, k, this.mode, { snippets: false })).hits)
    const own = documents.titled.length > 0 ? relative((await this.retriever.search(query, k, this.mode, { documentIds: documents.titled, snippets: false })).hits) : []
    const rest = k > own.length ? (await this.retriever.search(query, k - own.length, this.mode, { documentIds: documents.all, excludeChunkIds: own.map((h) => h.chunkId), snippets: false })).hits : []
    return [...own, ...relative(rest)].map((h, i) => ({ ...h, rank: i + 1 }))
  }
}
