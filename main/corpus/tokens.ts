import { countTokens as cl100kCount } from 'gpt-tokenizer/encoding/cl100k_base'

/**
 * Chunk sizes are counted in cl100k_base tokens (the GPT-4 / text-embedding-3 BPE): model-independent,
 * fast in pure JS, and close to the llama-family counts the papers' 1,200-token setting assumed.
 */
export const CHUNK_TOKENIZER = 'cl100k_base'

export function countTokens(text: string): number {
  return text.length === 0 ? 0 : cl100kCount(text)
}
