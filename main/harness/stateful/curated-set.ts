/**
 * The curated set: the documents the agent commits to (the episode's evidence). Capped (30 by
 * default); with importance tags on, a full set evicts its lowest-tagged document (the oldest among
 * equals) only when the incoming tag outranks it, otherwise the addition is refused with a capacity
 * message. With tags off every document is alike, so a full set always refuses.
 */
export const IMPORTANCE_TAGS = ['very_high', 'high', 'fair', 'low'] as const
export type ImportanceTag = (typeof IMPORTANCE_TAGS)[number]

const RANK: Record<ImportanceTag, number> = { low: 0, fair: 1, high: 2, very_high: 3 }

export interface CuratedEntry {
  chunkId: number
  /** null when importance tags are off. */
  tag: ImportanceTag | null
  /** Turn it was (last) added or re-tagged. */
  turn: number
  via: 'policy' | 'auto-seed'
}

export type CurateOutcome =
  | { kind: 'added'; chunkId: number; tag: ImportanceTag | null }
  | { kind: 'retagged'; chunkId: number; from: ImportanceTag | null; to: ImportanceTag | null }
  | { kind: 'unchanged'; chunkId: number }
  | { kind: 'evicted'; chunkId: number; tag: ImportanceTag | null; evicted: CuratedEntry }
  | { kind: 'full'; chunkId: number; tag: ImportanceTag | null; lowest: CuratedEntry }

export class CuratedSet {
  /** Insertion order is the episode's evidence order. */
  private readonly entries = new Map<number, CuratedEntry>()

  constructor(
    readonly cap: number,
    readonly tagged: boolean,
  ) {}

  get size(): number {
    return this.entries.size
  }

  has(chunkId: number): boolean {
    return this.entries.has(chunkId)
  }

  list(): CuratedEntry[] {
    return [...this.entries.values()]
  }

  ids(): number[] {
    return [...this.entries.keys()]
  }

  add(chunkId: number, tag: ImportanceTag, turn: number, via: CuratedEntry['via']): CurateOutcome {
    const effective = this.tagged ? tag : null
    const existing = this.entries.get(chunkId)
    if (existing) {
      if (existing.tag === effective) return { kind: 'unchanged', chunkId }
      const from = existing.tag
      this.entries.set(chunkId, { ...existing, tag: effective, turn })
      return { kind: 'retagged', chunkId, from, to: effective }
    }
    if (this.entries.size < this.cap) {
      this.entries.set(chunkId, { chunkId, tag: effective, turn, via })
      return { kind: 'added', chunkId, tag: effective }
    }
    const lowest = this.lowest()!
    if (effective !== null && lowest.tag !== null && RANK[effective] > RANK[lowest.tag]) {
      this.entries.delete(lowest.chunkId)
      this.entries.set(chunkId, { chunkId, tag: effective, turn, via })
      return { kind: 'evicted', chunkId, tag: effective, evicted: lowest }
    }
    return { kind: 'full', chunkId, tag: effective, lowest }
  }

  remove(chunkId: number): boolean {
    return this.entries.delete(chunkId)
  }

  /** The eviction candidate: lowest tag, oldest first among equals. */
  lowest(): CuratedEntry | undefined {
    let best: CuratedEntry | undefined
    for (const e of this.entries.values()) {
      if (!best || rankOf(e.tag) < rankOf(best.tag)) best = e
    }
    return best
  }

  /** Entries grouped by tag, strongest first ("untagged" when tags are off). */
  byTag(): Record<ImportanceTag | 'untagged', CuratedEntry[]> {
    const out: Record<ImportanceTag | 'untagged', CuratedEntry[]> = { very_high: [], high: [], fair: [], low: [], untagged: [] }
    for (const e of this.entries.values()) out[e.tag ?? 'untagged'].push(e)
    return out
  }
}

function rankOf(tag: ImportanceTag | null): number {
  return tag === null ? -1 : RANK[tag]
}

export function tagRank(tag: ImportanceTag): number {
  return RANK[tag]
}
