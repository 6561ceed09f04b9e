/** Evidence-set arithmetic and a memoised scorer shared by the credit schemes. */
import { COMMIT_TYPES, SURFACE_TYPES, type EvidenceScorer } from './types'

/** Sorted, de-duplicated ids: the one spelling of a set, for memo keys and for the scorer. */
export const canonicalSet = (ids: Iterable<number>): number[] => [...new Set(ids)].sort((a, b) => a - b)

export const sameSet = (a: readonly number[], b: readonly number[]): boolean =>
  a.length === b.length && a.every((x, i) => x === b[i])

/**
 * What an action adds that is not already there: a commit adds its sentence unless already
 * committed; a surfacing action adds what is neither seen nor committed (committed sentences were
 * visible once, but a state may not list them as seen, so both are excluded). Other types add nothing.
 */
export const newEvidence = (
  type: string,
  preview: readonly number[],
  seenBefore: readonly number[],
  committedBefore: readonly number[],
): number[] => {
  const committed = new Set(committedBefore)
  if (COMMIT_TYPES.has(type)) return canonicalSet(preview.filter((s) => !committed.has(s)))
  if (SURFACE_TYPES.has(type)) {
    const seen = new Set(seenBefore)
    return canonicalSet(preview.filter((s) => !committed.has(s) && !seen.has(s)))
  }
  return []
}

export interface MemoScorer {
  score(ids: Iterable<number>): Promise<number>
  /** Distinct sets sent to the underlying scorer so far. */
  readonly calls: number
}

/**
 * Memoises by canonical set within one scheme call, so every state's base score and every shared
 * preview is scored once. A non-finite score throws: one NaN would poison the batch credit scale.
 */
export const memoScorer = (score: EvidenceScorer): MemoScorer => {
  const memo = new Map<string, Promise<number>>()
  return {
    score(ids) {
      const set = canonicalSet(ids)
      const key = set.join(',')
      let value = memo.get(key)
      if (value === undefined) {
        value = score(set).then((v) => {
          if (!Number.isFinite(v)) throw new RangeError(`evidence scorer returned ${v} for {${key}}`)
          return v
        })
        memo.set(key, value)
      }
      return value
    },
    get calls() {
      return memo.size
    },
  }
}
