import { arr, bool, str, u32, type GgufValue } from './gguf-file'

/** llama.cpp token types (tokenizer.ggml.token_type). */
const TokenType = { normal: 1, unknown: 2, control: 3, byte: 6 } as const

export type VocabKind = 'spm' | 'bpe'

export interface Vocab {
  kind: VocabKind
  tokens: string[]
  bos: number
  eos: number
  metadata: Array<[string, GgufValue]>
}

/** Words that get whole-word pieces, so tokenization is not all single characters. */
export const DEFAULT_WORDS = [
  'the', 'a', 'and', 'of', 'to', 'in', 'is', 'was', 'it', 'that', 'he', 'she', 'they', 'on', 'for', 'with',
  'once', 'upon', 'time', 'there', 'little', 'girl', 'boy', 'day', 'big', 'saw', 'play', 'search', 'answer',
  'question', 'document', 'evidence', 'select', 'lookup', 'entity', 'paris', 'france', 'capital', 'city',
]

const SPM_SPACE = '\u2581'

/**
 * SentencePiece vocabulary as llama.cpp reads it (tokenizer.ggml.model = "llama"): <unk>, <s>, </s>,
 * the 256 byte-fallback tokens <0x00>..<0xFF>, single printable characters, then word pieces with every
 * prefix present so llama.cpp's greedy bigram merging can reach each whole word.
 */
export function spmVocab(words: readonly string[] = DEFAULT_WORDS): Vocab {
  const tokens: string[] = ['<unk>', '<s>', '</s>']
  const types: number[] = [TokenType.unknown, TokenType.control, TokenType.control]
  for (let b = 0; b < 256; b++) {
    tokens.push(`<0x${b.toString(16).toUpperCase().padStart(2, '0')}>`)
    types.push(TokenType.byte)
  }
  const seen = new Set(tokens)
  const add = (piece: string): void => {
    if (seen.has(piece)) return
    seen.add(piece)
    tokens.push(piece)
    types.push(TokenType.normal)
  }
  add(SPM_SPACE)
  for (let c = 0x21; c <= 0x7e; c++) add(String.fromCharCode(c))
  for (const word of words) {
    const piece = SPM_SPACE + word
    for (let end = 2; end <= piece.length; end++) add(piece.slice(0, end))
  }
  // Later pieces score lower, as in a trained SentencePiece model; merging only needs them present.
  const scores = tokens.map((_, i) => (i < 259 ? 0 : -(i - 259)))
  return {
    kind: 'spm',
    tokens,
    bos: 1,
    eos: 2,
    metadata: [
      ['tokenizer.ggml.model', str('llama')],
      ['tokenizer.ggml.tokens', arr('string', tokens)],
      ['tokenizer.ggml.scores', arr('f32', scores)],
      ['tokenizer.ggml.token_type', arr('i32', types)],
      ['tokenizer.ggml.bos_token_id', u32(1)],
      ['tokenizer.ggml.eos_token_id', u32(2)],
      ['tokenizer.ggml.unknown_token_id', u32(0)],
      ['tokenizer.ggml.add_bos_token', bool(true)],
      ['tokenizer.ggml.add_eos_token', bool(false)],
    ],
  }
}

/** GPT-2's reversible byte -> printable character map used by byte-level BPE vocabularies. */
export function byteLevelAlphabet(): string[] {
  const direct: number[] = []
  for (let b = 0x21; b <= 0x7e; b++) direct.push(b)
  for (let b = 0xa1; b <= 0xac; b++) direct.push(b)
  for (let b = 0xae; b <= 0xff; b++) direct.push(b)
  const map: string[] = new Array(256)
  const directSet = new Set(direct)
  let extra = 0
  for (let b = 0; b < 256; b++) {
    map[b] = directSet.has(b) ? String.fromCharCode(b) : String.fromCharCode(256 + extra++)
  }
  return map
}

export interface BpeOptions {
  words?: readonly string[]
  /** Emit merges that build each word left to right; false writes an empty merges list. */
  merges?: boolean
  /** tokenizer.ggml.pre: llama.cpp's pre-tokenizer name. */
  pre?: string
}

/**
 * Byte-level BPE vocabulary (tokenizer.ggml.model = "gpt2"): the 256 byte characters, optional
 * merges with their merged tokens, then special tokens. llama.cpp refuses a gpt2 vocabulary without
 * a tokenizer.ggml.merges key, so an empty list is still written.
 */
export function bpeVocab(options: BpeOptions = {}): Vocab {
  const alphabet = byteLevelAlphabet()
  const tokens: string[] = [...alphabet]
  const types: number[] = tokens.map(() => TokenType.normal)
  const seen = new Set(tokens)
  const merges: string[] = []
  if (options.merges !== false) {
    const space = alphabet[0x20]!
    for (const word of options.words ?? DEFAULT_WORDS) {
      const chars = [...(space + word)]
      let left = chars[0]!
      for (const ch of chars.slice(1)) {
        const merged = left + ch
        if (!seen.has(merged)) {
          seen.add(merged)
          tokens.push(merged)
          types.push(TokenType.normal)
          merges.push(`${left} ${ch}`)
        }
        left = merged
      }
    }
  }
  const special = ['<|endoftext|>', '<|im_start|>', '<|im_end|>']
  const endOfText = tokens.length
  for (const s of special) {
    tokens.push(s)
    types.push(TokenType.control)
  }
  return {
    kind: 'bpe',
    tokens,
    bos: endOfText,
    eos: endOfText,
    metadata: [
      ['tokenizer.ggml.model', str('gpt2')],
      ['tokenizer.ggml.pre', str(options.pre ?? 'gpt-2')],
      ['tokenizer.ggml.tokens', arr('string', tokens)],
      ['tokenizer.ggml.token_type', arr('i32', types)],
      ['tokenizer.ggml.merges', arr('string', merges)],
      ['tokenizer.ggml.bos_token_id', u32(endOfText)],
      ['tokenizer.ggml.eos_token_id', u32(endOfText)],
      ['tokenizer.ggml.add_bos_token', bool(false)],
    ],
  }
}
