import type { WorkHooks } from '../store/types'
import { TopKTable } from './top-k-table'
import type { SparseRows } from './trigram-vectors'

export interface JoinOptions extends WorkHooks {
  threshold: number
  topK: number
}

export interface JoinResult {
  table: TopKTable
  /** Pairs whose exact cosine was computed: the work the blocking left. */
  scored: number
}

// Floating-point slack: a pair exactly at the threshold must not be lost to rounding in the bound.
const EPS = 1e-9
const REPORT_EVERY = 2048

/**
 * Every pair of rows with cosine >= threshold, kept as each row's top k: exact, and sub-quadratic
 * in practice through prefix filtering (all-pairs similarity search). With features in one global
 * order, rarest first, a row's prefix is its shortest run of leading features whose remainder has
 * norm below the threshold. Two unit rows with cosine >= t must share a feature inside both
 * prefixes (the shorter prefix's rest cannot reach t alone, Cauchy-Schwarz), so only rows meeting
 * in an inverted index over prefixes are scored, and common trigrams rarely sit in a prefix.
 * The suffix bound also uses each feature's largest weight in the collection, which keeps the
 * low-IDF trigrams shared by thousands of names out of the prefixes.
 */
export function sparseCosineJoin(v: SparseRows, options: JoinOptions): JoinResult {
  const { threshold, topK } = options
  const n = v.rows
  // Largest weight each feature takes in any row: common trigrams have low IDF, so a suffix of
  // them can contribute little to any dot product, whatever its norm.
  let features = 0
  for (let j = 0; j < v.features.length; j++) features = Math.max(features, v.features[j]! + 1)
  const maxWeight = new Float64Array(features)
  for (let j = 0; j < v.features.length; j++) maxWeight[v.features[j]!] = Math.max(maxWeight[v.features[j]!]!, v.weights[j]!)

  // The suffix bound is min(its norm, sum of weight x max weight): both cap its dot with any unit row.
  const bound = threshold - EPS
  const prefixEnd = new Int32Array(n)
  let maxFeature = -1
  for (let r = 0; r < n; r++) {
    const start = v.offsets[r]!
    let i = v.offsets[r + 1]!
    let norm2 = 0
    let byMax = 0
    while (i > start) {
      const w = v.weights[i - 1]!
      const nextNorm2 = norm2 + w * w
      const nextByMax = byMax + w * maxWeight[v.features[i - 1]!]!
      if (Math.min(Math.sqrt(nextNorm2), nextByMax) >= bound) break
      norm2 = nextNorm2
      byMax = nextByMax
      i--
    }
    prefixEnd[r] = i
    for (let j = start; j < i; j++) maxFeature = Math.max(maxFeature, v.features[j]!)
  }

  // Inverted index over prefix features; rows are appended in ascending order.
  const listStart = new Int32Array(maxFeature + 2)
  for (let r = 0; r < n; r++) for (let j = v.offsets[r]!; j < prefixEnd[r]!; j++) listStart[v.features[j]! + 1]!++
  for (let f = 0; f <= maxFeature; f++) listStart[f + 1]! += listStart[f]!
  const fill = listStart.slice(0, maxFeature + 1)
  const postings = new Int32Array(listStart[maxFeature + 1] ?? 0)
  for (let r = 0; r < n; r++) for (let j = v.offsets[r]!; j < prefixEnd[r]!; j++) postings[fill[v.features[j]!]!++] = r

  const table = new TopKTable(n, topK)
  const seen = new Int32Array(n).fill(-1)
  let scored = 0
  for (let x = 0; x < n; x++) {
    if (x % REPORT_EVERY === 0) {
      options.checkpoint?.()
      options.onProgress?.(x, n, 'link')
    }
    for (let j = v.offsets[x]!; j < prefixEnd[x]!; j++) {
      const f = v.features[j]!
      const end = listStart[f + 1]!
      // Each pair once: only partners after x, found by binary search in the ascending list.
      let lo = listStart[f]!
      let hi = end
      while (lo < hi) {
        const mid = (lo + hi) >> 1
        if (postings[mid]! <= x) lo = mid + 1
        else hi = mid
      }
      for (let p = lo; p < end; p++) {
        const y = postings[p]!
        if (seen[y] === x) continue
        seen[y] = x
        scored++
        const cos = Math.min(1, sparseDot(v, x, y))
        if (cos >= threshold) {
          table.offer(x, y, cos)
          table.offer(y, x, cos)
        }
      }
    }
  }
  options.onProgress?.(n, n, 'link')
  return { table, scored }
}

/** Dot product of two rows by merging their rank-sorted features. */
function sparseDot(v: SparseRows, a: number, b: number): number {
  let i = v.offsets[a]!
  let j = v.offsets[b]!
  const iEnd = v.offsets[a + 1]!
  const jEnd = v.offsets[b + 1]!
  let dot = 0
  while (i < iEnd && j < jEnd) {
    const fa = v.features[i]!
    const fb = v.features[j]!
    if (fa === fb) dot += v.weights[i++]! * v.weights[j++]!
    else if (fa < fb) i++
    else j++
  }
  return dot
}
