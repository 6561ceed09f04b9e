import type { Embedder } from './types'
import { STOPWORDS } from './stopwords'
import { fnv1a } from '../../common'

/**
 * Hashed bag-of-words vectors (the "hashing trick"). NOT a semantic embedding model: it knows no
 * synonyms, only shared words. It exists so tests and the bench can exercise the dense and hybrid
 * paths deterministically, with no model file and no native runtime.
 */
export function createHashedEmbedder(dim = 256, model = `hashed-bow-${dim} (toy, not a real model)`): Embedder {
  return {
    model,
    async embed(texts: string[]): Promise<Float32Array[]> {
      return texts.map((text) => hashedVector(text, dim))
    },
  }
}

export function hashedVector(text: string, dim: number): Float32Array {
  const out = new Float32Array(dim)
  for (const token of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    if (STOPWORDS.has(token)) continue
    const h = fnv1a(token)
    // One hash picks the slot, an independent bit the sign, so collisions tend to cancel rather than add.
    out[h % dim]! += (h & 0x80000000) === 0 ? 1 : -1
  }
  return out
}

