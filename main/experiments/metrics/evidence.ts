import { LRUCache } from 'lru-cache'
import { goldEvidence, type GoldEvidence, type GoldQuestion } from '../../corpus/gold'
import { corpusRevision } from '../../corpus/repository/revisions'
import { corpusRepositories, type ChunkRepository, type ChunkWithTitle, type SentenceRepository, type SentenceWithTitle, type WorkspaceHandle } from '../../corpus/repository'
import type { EpisodeOutcome, ResolvedGold } from '../../harness'

/** A sentence with its document's title (the corpus's one sentence-with-title reader). */
export type SentenceRef = SentenceWithTitle

/** A chunk with its document's title. */
export type ChunkRef = ChunkWithTitle

/** Resolves sentence and chunk ids to what the metrics compare (their documents and sentences), and questions to their gold. */
export class EvidenceResolver {
  private readonly sentenceRows: SentenceRepository
  private readonly chunkRows: ChunkRepository
  /** Gold and evidence as scoring and rewards read them (main/corpus/gold.ts). */
  readonly goldEvidence: GoldEvidence
  /** Sentence rows across episodes (SNC scores every preview of every step), while the corpus revision holds. */
  private readonly sentenceCache = new LRUCache<number, SentenceRef>({ max: 50_000 })
  private readonly revision: () => number | null
  private cachedAt: number | null = null

  constructor(raw: WorkspaceHandle) {
    this.goldEvidence = goldEvidence(raw)
    this.revision = corpusRevision(raw)
    const { sentences, chunks } = corpusRepositories(raw)
    this.sentenceRows = sentences
    this.chunkRows = chunks
  }

  /** The question's gold by document and sentence id: resolved when it was loaded, else now (main/corpus/gold.ts). */
  gold(question: GoldQuestion): ResolvedGold {
    return this.goldEvidence.gold(question)
  }

  /** The sentences that exist among `ids`, in that order. */
  sentences(ids: readonly number[]): SentenceRef[] {
    return this.sentenceReader()(ids)
  }

  /**
   * `sentences` for one episode's many calls (SNC scores every preview of every step): the corpus revision
   * is checked once, here, and the rows then come from the cache shared across episodes while it holds.
   */
  sentenceReader(): (ids: readonly number[]) => SentenceRef[] {
    const now = this.revision()
    if (now !== this.cachedAt) {
      this.sentenceCache.clear()
      this.cachedAt = now
    }
    // A workspace without a revision (read-only, from before it) is read every time.
    const read = (id: number): SentenceRef | undefined => {
      if (now === null) return this.sentenceRows.withTitle(id)
      let row = this.sentenceCache.get(id)
      if (!row) {
        row = this.sentenceRows.withTitle(id)
        if (row) this.sentenceCache.set(id, row)
      }
      return row
    }
    return (ids) => ids.map(read).filter((s): s is SentenceRef => s !== undefined)
  }

  /** The texts an answerer reads: committed sentences (Harness-G) or curated chunks (Harness-1). */
  evidenceTexts(outcome: EpisodeOutcome): string[] {
    return outcome.evidence.sentenceIds ? this.sentences(outcome.evidence.sentenceIds).map((s) => s.text) : this.chunks(outcome.evidence.chunkIds ?? []).map((c) => c.text)
  }

  /** The chunks that exist among `ids`, in that order. */
  chunks(ids: readonly number[]): ChunkRef[] {
    return ids.map((id) => this.chunkRows.withTitle(id)).filter((c): c is ChunkRef => c !== undefined)
  }
}
