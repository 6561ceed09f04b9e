/**
 * Rank AUC (Mann-Whitney U / (n_pos * n_neg)): the chance that a random positive scores above a random
 * negative, ties counting one half. Mid-ranks make it O(n log n) and exact with ties.
 */
export function rankAuc(positives: readonly number[], negatives: readonly number[]): number | null {
  const nPos = positives.length
  const nNeg = negatives.length
  if (nPos === 0 || nNeg === 0) return null
  const all = [...positives.map((v) => ({ v, pos: true })), ...negatives.map((v) => ({ v, pos: false }))].sort((a, b) => a.v - b.v)
  let rankSumPos = 0
  for (let i = 0; i < all.length; ) {
    let j = i
    while (j + 1 < all.length && all[j + 1]!.v === all[i]!.v) j++
    // Ranks are 1-based; a run of ties i..j shares the mean rank.
    const midRank = (i + j) / 2 + 1
    for (let k = i; k <= j; k++) if (all[k]!.pos) rankSumPos += midRank
    i = j + 1
  }
  return (rankSumPos - (nPos * (nPos + 1)) / 2) / (nPos * nNeg)
}
