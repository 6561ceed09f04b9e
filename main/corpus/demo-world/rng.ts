/**
 * Seeded pseudo-random numbers for the demo world. Math.random cannot be seeded, and the world must be
 * byte-identical for a given seed on every machine, so this is sfc32 (a small, fast 128-bit-state
 * generator) whose state is filled by a splitmix32-style mixer. Only 32-bit integer arithmetic is used,
 * which JavaScript performs identically everywhere.
 */

/** Mixes a 32-bit value into a well-spread 32-bit value (one splitmix32 output step). */
function mix32(x: number): number {
  let z = x >>> 0
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b)
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35)
  return (z ^ (z >>> 16)) >>> 0
}

/** FNV-1a over UTF-16 code units: turns a stream label into a number that varies with every character. */
function hashLabel(label: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < label.length; i++) h = Math.imul(h ^ label.charCodeAt(i), 0x01000193)
  return h >>> 0
}

export class Rng {
  private a: number
  private b: number
  private c: number
  private d: number

  /** `seed` may be any safe integer; its high bits count too, so 1 and 2**32 + 1 give different streams. */
  constructor(seed: number, label = '') {
    if (!Number.isSafeInteger(seed)) throw new RangeError(`seed must be a safe integer, got ${seed}`)
    const low = seed >>> 0
    const high = Math.floor(seed / 4294967296) >>> 0
    let s = (low ^ mix32(high ^ 0x9e3779b9) ^ hashLabel(label)) >>> 0
    const next = (): number => {
      s = (s + 0x9e3779b9) >>> 0
      return mix32(s)
    }
    this.a = next()
    this.b = next()
    this.c = next()
    this.d = next()
    // sfc32 needs a few rounds before its output stops echoing the seed.
    for (let i = 0; i < 12; i++) this.uint32()
  }

  /** An independent stream for one concern (names, articles, questions), so that adding draws to one
   *  concern does not reshuffle the others. */
  fork(label: string): Rng {
    return new Rng(this.uint32(), label)
  }

  uint32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0
    this.d = (this.d + 1) | 0
    this.a = this.b ^ (this.b >>> 9)
    this.b = (this.c + (this.c << 3)) | 0
    this.c = (this.c << 21) | (this.c >>> 11)
    this.c = (this.c + t) | 0
    return t >>> 0
  }

  /** Uniform in [0, 1). */
  float(): number {
    return this.uint32() / 4294967296
  }

  /** Uniform integer in [min, max], both ends included. */
  int(min: number, max: number): number {
    if (max < min) throw new RangeError(`empty range ${min}..${max}`)
    return min + Math.floor(this.float() * (max - min + 1))
  }

  chance(probability: number): boolean {
    return this.float() < probability
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new RangeError('pick from an empty list')
    return items[Math.floor(this.float() * items.length)] as T
  }

  /** Picks by relative weight; weights need not sum to one. */
  weighted<T>(entries: readonly (readonly [T, number])[]): T {
    let total = 0
    for (const [, w] of entries) total += w
    let r = this.float() * total
    for (const [item, w] of entries) {
      r -= w
      if (r < 0) return item
    }
    const last = entries[entries.length - 1]
    if (!last) throw new RangeError('weighted pick from an empty list')
    return last[0]
  }

  /** A shuffled copy (Fisher-Yates). */
  shuffled<T>(items: readonly T[]): T[] {
    const out = items.slice()
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(this.float() * (i + 1))
      const tmp = out[i] as T
      out[i] = out[j] as T
      out[j] = tmp
    }
    return out
  }

  /** Up to `count` distinct items, in random order. */
  sample<T>(items: readonly T[], count: number): T[] {
    if (count >= items.length) return this.shuffled(items)
    // Partial Fisher-Yates on a copy keeps this linear in `count` plus one copy.
    const pool = items.slice()
    const out: T[] = []
    for (let i = 0; i < count; i++) {
      const j = i + Math.floor(this.float() * (pool.length - i))
      const tmp = pool[i] as T
      pool[i] = pool[j] as T
      pool[j] = tmp
      out.push(pool[i] as T)
    }
    return out
  }
}
