/**
 * MinHash near-duplicate detection (Harness-1's candidate-pool dedup, Jaccard 0.85 by default).
 * A text becomes a set of word shingles; each shingle is hashed once to 32 bits (FNV-1a), then
 * re-mixed by `permutations` seeded MurmurHash3 finalisers, the hash family. For each member the
 * signature keeps the minimum; the share of equal positions in two signatures is an unbiased estimate
 * of the Jaccard similarity of the shingle sets (standard error sqrt(J(1-J)/permutations), about 0.03
 * at J = 0.85 with 128 permutations). The same seed always gives the same family, so dedup decisions
 * are reproducible across runs and machines.
 */
import { words } from './text'
import { fnv1a } from '../../../common'

export interface MinHashOptions {
  permutations: number
  /** Words per shingle; texts shorter than that use single words. */
  shingle: number
  seed: number
}

export const DEFAULT_MINHASH: MinHashOptions = { permutations: 128, shingle: 3, seed: 0x5eed }

export function shingles(text: string, size: number): Set<string> {
  const w = words(text)
  const out = new Set<string>()
  if (w.length === 0) return out
  const k = Math.max(1, Math.min(size, w.length))
  for (let i = 0; i + k <= w.length; i++) out.add(w.slice(i, i + k).join(' '))
  return out
}

/** Exact Jaccard similarity of two shingle sets (1 for two empty sets). */
export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 && b.size === 0) return 1
  let inter = 0
  for (const x of a) if (b.has(x)) inter++
  return inter / (a.size + b.size - inter)
}


function fmix32(x: number): number {
  x ^= x >>> 16
  x = Math.imul(x, 0x85ebca6b)
  x ^= x >>> 13
  x = Math.imul(x, 0xc2b2ae35)
  x ^= x >>> 16
  return x >>> 0
}

const MEMO_LIMIT = 4096

export class MinHasher {
  private readonly salts: Uint32Array

  constructor(readonly options: MinHashOptions = DEFAULT_MINHASH) {
    if (!Number.isInteger(options.permutations) || options.permutations < 1) throw new RangeError('MinHash needs at least one permutation')
    // Salts come from a splitmix-style sequence over the seed: distinct, well-mixed family members.
    this.salts = new Uint32Array(options.permutations)
    let state = options.seed >>> 0
    for (let i = 0; i < options.permutations; i++) {
      state = (state + 0x9e3779b9) >>> 0
      this.salts[i] = fmix32(state)
    }
  }

  /**
   * Remembered signatures by text: an environment's hasher sees the same chunks in every episode of a
   * training run, and a signature depends only on the text and the family. Bounded (cleared when full).
   */
  private readonly memo = new Map<string, Uint32Array | null>()

  /** Signature of a text (read-only: it may be shared); null when it has no words (an empty text is nobody's duplicate). */
  signature(text: string): Uint32Array | null {
    const known = this.memo.get(text)
    if (known !== undefined) return known
    if (this.memo.size >= MEMO_LIMIT) this.memo.clear()
    const sig = this.compute(text)
    this.memo.set(text, sig)
    return sig
  }

  private compute(text: string): Uint32Array | null {
    const set = shingles(text, this.options.shingle)
    if (set.size === 0) return null
    const sig = new Uint32Array(this.salts.length).fill(0xffffffff)
    for (const s of set) {
      const base = fnv1a(s)
      for (let i = 0; i < sig.length; i++) {
        const h = fmix32(base ^ this.salts[i]!)
        if (h < sig[i]!) sig[i] = h
      }
    }
    return sig
  }
}

/** Estimated Jaccard similarity from two signatures of the same hasher. */
export function estimateJaccard(a: Uint32Array, b: Uint32Array): number {
  if (a.length !== b.length) throw new RangeError('Signatures come from different MinHash families')
  let same = 0
  for (let i = 0; i < a.length; i++) if (a[i] === b[i]) same++
  return same / a.length
}
