/**
 * Set metrics over document (paragraph) ids. Both sides are sets: retrieving a document twice does
 * not count twice. When there is nothing to measure against (no gold for recall, nothing retrieved
 * for precision) the value is `null`, not 0 or 1: an undefined recall is excluded from averages by
 * the aggregation instead of biasing them, and a reward function must choose its own fallback.
 */

const overlapCount = (a: ReadonlySet<string>, b: ReadonlySet<string>): number => {
  let n = 0
  for (const id of a) if (b.has(id)) n += 1
  return n
}

/** |retrieved ∩ gold| / |gold| (paragraph recall of the multi-hop QA literature). */
export const setRecall = (retrieved: Iterable<string>, gold: Iterable<string>): number | null => {
  const goldSet = new Set(gold)
  return goldSet.size === 0 ? null : overlapCount(goldSet, new Set(retrieved)) / goldSet.size
}

/** |retrieved ∩ gold| / |retrieved|. */
export const setPrecision = (retrieved: Iterable<string>, gold: Iterable<string>): number | null => {
  const retrievedSet = new Set(retrieved)
  return retrievedSet.size === 0 ? null : overlapCount(retrievedSet, new Set(gold)) / retrievedSet.size
}

/** Recall of the first k positions of a ranked list (a document repeated within them counts once). */
export const recallAtK = (ranked: readonly string[], gold: Iterable<string>, k: number): number | null => {
  if (!Number.isInteger(k) || k < 0) throw new RangeError(`recall@k needs a non-negative integer k, got ${k}`)
  return setRecall(ranked.slice(0, k), gold)
}

/**
 * F-beta: (1 + b²)·P·R / (b²·P + R); beta > 1 weights recall more (Harness-1's reward uses beta = 2).
 * 0 when precision and recall are both 0.
 */
export const fBeta = (precision: number, recall: number, beta = 2): number => {
  if (!(beta > 0)) throw new RangeError(`F-beta needs beta > 0, got ${beta}`)
  const b2 = beta * beta
  const denominator = b2 * precision + recall
  return denominator > 0 ? ((1 + b2) * precision * recall) / denominator : 0
}
