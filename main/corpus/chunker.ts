/** Splits a document into chunks of whole sentences: at most `chunkTokens`, overlapping by up to `overlapTokens`. */

export interface ChunkingOptions {
  chunkTokens: number
  overlapTokens: number
}

export const DEFAULT_CHUNKING: ChunkingOptions = { chunkTokens: 1200, overlapTokens: 100 }

export interface TokenisedSentence {
  start: number
  end: number
  tokens: number
}

export interface ChunkPlan {
  ord: number
  /** Sentence ords (indices into the document's sentences), inclusive. */
  firstSentence: number
  lastSentence: number
  startChar: number
  endChar: number
  tokenCount: number
}

/**
 * Greedy packing of whole sentences. A sentence longer than the chunk size gets a chunk of its own
 * rather than being cut, so sentence ids stay whole. The next chunk starts with the longest tail of the
 * previous one that fits in the overlap budget, and always advances by at least one sentence.
 */
export function planChunks(sentences: readonly TokenisedSentence[], options: ChunkingOptions): ChunkPlan[] {
  const chunks: ChunkPlan[] = []
  let first = 0
  while (first < sentences.length) {
    let last = first
    let tokens = sentences[first]!.tokens
    while (last + 1 < sentences.length && tokens + sentences[last + 1]!.tokens <= options.chunkTokens) {
      last++
      tokens += sentences[last]!.tokens
    }
    chunks.push({
      ord: chunks.length,
      firstSentence: first,
      lastSentence: last,
      startChar: sentences[first]!.start,
      endChar: sentences[last]!.end,
      tokenCount: tokens,
    })
    if (last === sentences.length - 1) break
    let next = last + 1
    let overlap = 0
    while (next - 1 > first && overlap + sentences[next - 1]!.tokens <= options.overlapTokens) {
      next--
      overlap += sentences[next]!.tokens
    }
    first = next
  }
  return chunks
}
