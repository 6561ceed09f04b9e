/** Default RRF constant: the value from Cormack et al. (2009), also the common default elsewhere. */
export const DEFAULT_RRF_K = 60

export interface FusedItem {
  id: number
  /** Sum over lists of 1 / (k + rank), rank 1-based; a list that lacks the id contributes nothing. */
  score: number
  /** 1-based rank of the id in each input list, undefined where absent. */
  ranks: (number | undefined)[]
}

/**
 * Reciprocal rank fusion of ranked id lists (best first). Ties are broken by the best single rank,
 * then by the id, so fusion is deterministic.
 */
export function reciprocalRankFusion(lists: ReadonlyArray<readonly number[]>, k: number = DEFAULT_RRF_K): FusedItem[] {
  if (!(k >= 0) || !Number.isFinite(k)) throw new RangeError(`RRF k must be a finite number >= 0, got ${k}`)
  const fused = new Map<number, FusedItem>()
  lists.forEach((list, listIndex) => {
    list.forEach((id, index) => {
      let item = fused.get(id)
      if (!item) {
        item = { id, score: 0, ranks: new Array<number | undefined>(lists.length).fill(undefined) }
        fused.set(id, item)
      }
      // A duplicate inside one list keeps its first (best) rank.
      if (item.ranks[listIndex] !== undefined) return
      item.ranks[listIndex] = index + 1
      item.score += 1 / (k + index + 1)
    })
  })
  const bestRank = (item: FusedItem) => Math.min(...item.ranks.map((r) => r ?? Infinity))
  return [...fused.values()].sort((a, b) => b.score - a.score || bestRank(a) - bestRank(b) || a.id - b.id)
}
