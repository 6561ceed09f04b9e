/**
 * 32-bit FNV-1a over a string's UTF-16 code units, unsigned. Cheap and stable across processes and
 * versions, so stored values built from it (MinHash signatures, hashed embeddings) keep their meaning.
 */
export function fnv1a(text: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i)
    h = Math.imul(h, 0x01000193)
  }
  return h >>> 0
}
