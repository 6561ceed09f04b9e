/**
 * Seeded percentile bootstrap for means. Seeded so that a stored evaluation reproduces its interval
 * exactly; percentile (not BCa) because it is the usual choice in NLP system comparisons and needs
 * nothing beyond resampling.
 */

export interface BootstrapOptions {
  /** Number of resamples; 2000 by default. */
  resamples?: number
  /** Two-sided coverage, 0.95 by default. */
  confidence?: number
  /** Any integer; the same seed and input give the same interval. 0 by default. */
  seed?: number
}

export interface ConfidenceInterval {
  lower: number
  upper: number
  confidence: number
  resamples: number
  seed: number
}

/**
 * 32-bit generator: a Weyl sequence (golden-ratio increment) passed through the MurmurHash3 finaliser.
 * Small, fast and well distributed; cryptographic quality is not needed for resampling.
 */
export const seededRandom = (seed: number): (() => number) => {
  let state = seed >>> 0
  return () => {
    state = (state + 0x9e3779b9) >>> 0
    let z = state
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b)
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35)
    return ((z ^ (z >>> 16)) >>> 0) / 0x1_0000_0000
  }
}

export const resolveBootstrapOptions = (options: BootstrapOptions = {}): Required<BootstrapOptions> => {
  const resamples = options.resamples ?? 2000
  const confidence = options.confidence ?? 0.95
  const seed = options.seed ?? 0
  if (!Number.isInteger(resamples) || resamples < 1) throw new RangeError(`resamples must be a positive integer, got ${resamples}`)
  if (!(confidence > 0 && confidence < 1)) throw new RangeError(`confidence must lie in (0, 1), got ${confidence}`)
  if (!Number.isInteger(seed)) throw new RangeError(`seed must be an integer, got ${seed}`)
  return { resamples, confidence, seed }
}

/** Quantile by linear interpolation between order statistics (the common "type 7" definition). */
const quantile = (sorted: Float64Array, q: number): number => {
  const h = (sorted.length - 1) * q
  const lo = Math.floor(h)
  const hi = Math.min(lo + 1, sorted.length - 1)
  return sorted[lo]! + (h - lo) * (sorted[hi]! - sorted[lo]!)
}

export const mean = (values: readonly number[]): number => {
  let sum = 0
  for (const v of values) sum += v
  return sum / values.length
}

/** Percentile bootstrap interval of the mean; null for an empty sample. */
export const bootstrapMeanCI = (values: readonly number[], options?: BootstrapOptions): ConfidenceInterval | null => {
  const { resamples, confidence, seed } = resolveBootstrapOptions(options)
  const n = values.length
  if (n === 0) return null
  const random = seededRandom(seed)
  const means = new Float64Array(resamples)
  for (let b = 0; b < resamples; b += 1) {
    let sum = 0
    for (let i = 0; i < n; i += 1) sum += values[Math.floor(random() * n)]!
    means[b] = sum / n
  }
  means.sort()
  const tail = (1 - confidence) / 2
  return { lower: quantile(means, tail), upper: quantile(means, 1 - tail), confidence, resamples, seed }
}
