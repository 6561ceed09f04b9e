/**
 * Character-trigram TF-IDF vectors of entity names, L2-normalised, stored row-wise (CSR) with
 * each row's features sorted by a global order, rarest first (what the prefix-filtered join needs).
 */
export interface SparseRows {
  rows: number
  /** Row r's entries are offsets[r] .. offsets[r + 1] - 1. */
  offsets: Int32Array
  /** Feature rank: 0 is the rarest feature in the collection. */
  features: Int32Array
  weights: Float64Array
}

/** Lower case, accents and punctuation gone, single spaces: "Zürich-West" -> "zurich west". */
export function normaliseName(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
}

/** Trigrams of the name padded with one space each side, so word starts and ends count. */
export function trigrams(name: string): string[] {
  const norm = normaliseName(name)
  if (!norm) return []
  const padded = ` ${norm} `
  const chars = Array.from(padded) // code points, so astral letters are not split
  const out: string[] = []
  for (let i = 0; i + 3 <= chars.length; i++) out.push(chars[i]! + chars[i + 1]! + chars[i + 2]!)
  return out
}

export function trigramTfidf(names: readonly string[]): SparseRows {
  const featureOf = new Map<string, number>()
  const df: number[] = []
  const perRow: Map<number, number>[] = names.map((name) => {
    const tf = new Map<number, number>()
    for (const g of trigrams(name)) {
      let f = featureOf.get(g)
      if (f === undefined) {
        f = df.length
        featureOf.set(g, f)
        df.push(0)
      }
      tf.set(f, (tf.get(f) ?? 0) + 1)
    }
    for (const f of tf.keys()) df[f]!++
    return tf
  })
  // Rarest first; ties by first appearance, which is deterministic for a given input order.
  const byRarity = df.map((_, f) => f).sort((a, b) => df[a]! - df[b]! || a - b)
  const rank = new Int32Array(df.length)
  byRarity.forEach((f, r) => (rank[f] = r))

  const n = names.length
  const offsets = new Int32Array(n + 1)
  for (let r = 0; r < n; r++) offsets[r + 1] = offsets[r]! + perRow[r]!.size
  const features = new Int32Array(offsets[n]!)
  const weights = new Float64Array(offsets[n]!)
  for (let r = 0; r < n; r++) {
    const entries: [number, number][] = []
    let norm2 = 0
    for (const [f, tf] of perRow[r]!) {
      // Smoothed idf keeps trigrams present in every name above zero; sublinear tf tames "aaa" runs.
      const w = (1 + Math.log(tf)) * (Math.log((1 + n) / (1 + df[f]!)) + 1)
      entries.push([rank[f]!, w])
      norm2 += w * w
    }
    entries.sort((a, b) => a[0] - b[0])
    const norm = Math.sqrt(norm2)
    let o = offsets[r]!
    for (const [f, w] of entries) {
      features[o] = f
      weights[o++] = w / norm
    }
  }
  return { rows: n, offsets, features, weights }
}
