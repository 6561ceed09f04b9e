/**
 * One episode's mutable state: the inner tier (pool, curated set, records) and the outer tier, plus
 * the bookkeeping the reward needs (turns, tools used, format errors). Tool handlers change it;
 * the environment renders it.
 */
import type { EnvQuestion } from '../types'
import { compressSentences } from './compress'
import type { StatefulConfig } from './config'
import { CuratedSet } from './curated-set'
import { docId } from './doc-ids'
import type { LastResultView } from './render'
import type { PoolEntry, SearchRecord, VerificationRecord } from './memory'
import { estimateJaccard, type MinHasher } from './minhash'
import type { ChunkStore, StoredChunk } from './outer-tier'
import { OuterTier } from './outer-tier'
import { oneLine } from './text'
import type { ToolName } from './tools'
import type { TranscriptEntry } from './transcript'

export interface Duplicate {
  chunkId: number
  duplicateOf: number
  similarity: number
}

export type Admission = { kind: 'new'; entry: PoolEntry } | { kind: 'seen'; entry: PoolEntry } | { kind: 'duplicate'; duplicate: Duplicate }

export class Episode {
  turn = 0
  done = false
  endReason: string | null = null
  endReasoning: string | null = null
  formatErrors = 0
  /** Steps whose result a wall-clock safety net cut short (their figures depend on machine load). */
  wallClockGuards = 0
  /** Valid calls per tool. */
  readonly toolCounts: Record<string, number> = {}
  readonly outer: OuterTier
  readonly curated: CuratedSet
  /** Every chunk shown to the policy, in the order first shown (the trajectory's "seen" set). */
  readonly pool = new Map<number, PoolEntry>()
  readonly duplicates = new Map<number, Duplicate>()
  readonly history: SearchRecord[] = []
  readonly verifications: VerificationRecord[] = []
  readonly transcript: TranscriptEntry[] = []
  lastResult: LastResultView | null = null
  /** Auto-seeding happens at most once: at the first search that returns something new. */
  autoSeedSpent = false
  private readonly signatures = new Map<number, Uint32Array | null>()

  constructor(
    readonly question: EnvQuestion,
    readonly seed: number,
    readonly config: StatefulConfig,
    store: ChunkStore,
    private readonly hasher: MinHasher,
  ) {
    this.outer = new OuterTier(store)
    this.curated = new CuratedSet(config.curatedCap, config.importanceTags)
  }

  /** Chunks no search should return again: everything shown, and duplicates suppressed. */
  excluded(): Set<number> {
    return new Set([...this.pool.keys(), ...this.duplicates.keys()])
  }

  isSeen(chunkId: number): boolean {
    return this.pool.has(chunkId)
  }

  /**
   * Puts a retrieved chunk into working memory: full text into the outer tier, a (compressed) entry
   * into the pool, unless dedup finds a near-duplicate of something already there.
   */
  admit(chunkId: number, source: { query: string; tool: ToolName; rank: number }, options: { dedup: boolean }): Admission {
    const seen = this.pool.get(chunkId)
    if (seen) return { kind: 'seen', entry: seen }
    const chunk = this.outer.load(chunkId)
    if (options.dedup && this.config.dedup) {
      const dup = this.nearestDuplicate(chunk)
      if (dup) {
        this.duplicates.set(chunkId, dup)
        return { kind: 'duplicate', duplicate: dup }
      }
    }
    const entry: PoolEntry = {
      id: docId(chunkId),
      chunkId,
      documentId: chunk.documentId,
      title: chunk.title,
      summary: this.summarise(chunk, source.query),
      query: source.query,
      tool: source.tool,
      turn: this.turn,
      rank: source.rank,
    }
    this.pool.set(chunkId, entry)
    return { kind: 'new', entry }
  }

  /** The pool's text for a chunk: its most query-relevant sentences, or the whole chunk without compression. */
  summarise(chunk: StoredChunk, query: string): string {
    if (!this.config.compression) return oneLine(chunk.text)
    const sentences = chunk.sentences.length ? chunk.sentences.map((s) => s.text) : [chunk.text]
    return compressSentences(sentences, query, this.config.compressionSentences).text
  }

  private signature(chunk: StoredChunk): Uint32Array | null {
    if (!this.signatures.has(chunk.chunkId)) this.signatures.set(chunk.chunkId, this.hasher.signature(chunk.text))
    return this.signatures.get(chunk.chunkId)!
  }

  private nearestDuplicate(chunk: StoredChunk): Duplicate | null {
    const sig = this.signature(chunk)
    if (!sig) return null
    let best: Duplicate | null = null
    for (const other of this.pool.keys()) {
      const o = this.signature(this.outer.get(other)!)
      if (!o) continue
      const similarity = estimateJaccard(sig, o)
      if (similarity >= this.config.dedupThreshold && (!best || similarity > best.similarity)) best = { chunkId: chunk.chunkId, duplicateOf: other, similarity }
    }
    return best
  }

  countTool(name: ToolName): void {
    this.toolCounts[name] = (this.toolCounts[name] ?? 0) + 1
  }

  /** Distinct tools used in valid calls. */
  toolsUsed(): string[] {
    return Object.keys(this.toolCounts)
  }
}
