/** Seeded random numbers, so a fixture written twice with the same seed is byte-identical. */
export interface Rng {
  /** Uniform in [0, 1). */
  next(): number
  /** Standard normal. */
  normal(): number
}

export function seededRng(seed: number): Rng {
  // mulberry32: tiny, fast and good enough for test weights.
  let state = seed >>> 0
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  let spare: number | null = null
  const normal = (): number => {
    if (spare !== null) {
      const value = spare
      spare = null
      return value
    }
    // Box-Muller; 1 - u keeps the logarithm finite.
    const u = 1 - next()
    const v = next()
    const radius = Math.sqrt(-2 * Math.log(u))
    spare = radius * Math.sin(2 * Math.PI * v)
    return radius * Math.cos(2 * Math.PI * v)
  }
  return { next, normal }
}
