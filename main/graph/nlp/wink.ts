/**
 * One wink-nlp pass over a piece of text, reduced to plain arrays with source offsets.
 * wink gives sentence boundaries, POS tags and value entities (DATE, MONEY, ...) at several
 * hundred thousand words/s; everything above this file works on these arrays, never on wink items.
 *
 * Every pass starts from wink's shipped lexicon. wink appends each unseen word to its lexicon while
 * reading, and its tokenizer consults the lexicon ("God's" is split into "God" + "'s" until some text
 * taught it "God's" as a word, then kept whole), so without a reset one text's tokens, sentences and
 * mentions would depend on what the same process read before it. After each pass the words it added
 * are taken out of the lexicon's hash again (see `pristinePass`); the instance is rebuilt now and then
 * to bound the memory those removed entries leave behind.
 */
import winkNLP, { type WinkMethods } from 'wink-nlp'
import model from 'wink-eng-lite-web-model'

export interface Token {
  text: string
  start: number
  end: number
  /** Universal POS tag from wink (PROPN, NOUN, PUNCT, ...). */
  pos: string
  /** wink's token kind: word, number, punctuation, currency, symbol, ordinal, decade, ... */
  kind: string
}

/** A wink value entity over tokens `first..last` (inclusive), wink's own type name. */
export interface WinkEntity {
  type: string
  first: number
  last: number
}

export interface WinkPass {
  tokens: Token[]
  /** Inclusive token ranges of wink's sentences. */
  sentences: [number, number][]
  /** Sorted by `first`. */
  entities: WinkEntity[]
}

/** The part of wink's core model that reading mutates: a feature's value list and its value -> index hash. */
interface GrowingFeature {
  list: string[]
  hash: Record<string, number>
  maxIndex?: number
}

interface CoreModel {
  features: Record<string, GrowingFeature>
  packing: { layout: Record<string, number[]> }
}

interface Instance {
  nlp: WinkMethods
  lexeme: GrowingFeature
  /** Size of the shipped lexicon. */
  intrinsic: number
  /** Hashed features with a packing limit (prefix, suffix, shape): their lists only grow. */
  limited: GrowingFeature[]
  probe?: ReturnType<WinkMethods['readDoc']>
}

/**
 * Lexicon entries a pass may leave behind (in wink's list and its private per-word feature table,
 * which cannot be trimmed from outside) before the instance is rebuilt (~150 ms): a few tens of MB.
 */
const MAX_LEFTOVER_LEXEMES = 400_000

let instance: Instance | undefined

function build(): Instance {
  let core: CoreModel | undefined
  // wink reads the model through these functions; wrapping `core` lets this module see the lexicon it builds.
  const wrapped = { ...(model as unknown as Record<string, unknown>) }
  const readCore = (model as unknown as { core: () => CoreModel }).core
  wrapped.core = () => (core = readCore())
  const nlp = winkNLP(wrapped as unknown as typeof model, ['sbd', 'pos', 'ner'])
  if (!core) throw new Error('wink-nlp did not load its core model through model.core()')
  const lexeme = core.features.lexeme!
  const limited: GrowingFeature[] = []
  for (const [name, layout] of Object.entries(core.packing.layout)) {
    const feature = core.features[name]
    if (layout[3] === 0 && feature?.maxIndex !== undefined) limited.push(feature)
  }
  return { nlp, lexeme, intrinsic: lexeme.list.length, limited }
}

function wink(): Instance {
  // Built on first use: loading the model costs ~150 ms and most callers never need it.
  instance ??= build()
  return instance
}

/**
 * Runs `read` and then forgets every word it taught the lexicon, so the next pass sees the shipped
 * lexicon again. Entries stay in wink's list (its private feature table is indexed by list position),
 * only their hash keys go; the instance is replaced once enough of them piled up, or before a
 * hashed feature would outgrow its packing width.
 */
function pristinePass<T>(read: (nlp: WinkMethods) => T): T {
  const current = wink()
  const { lexeme } = current
  const mark = lexeme.list.length
  try {
    return read(current.nlp)
  } finally {
    const { list, hash } = lexeme
    for (let i = mark; i < list.length; i++) {
      const word = list[i]!
      if (hash[word] === i) delete hash[word]
    }
    const crowded = current.limited.some((f) => f.list.length > (f.maxIndex ?? Infinity) * 0.9)
    if (list.length - current.intrinsic > MAX_LEFTOVER_LEXEMES || crowded) instance = undefined
  }
}

/**
 * True when the lower-cased word is in wink's shipped English lexicon (a common word such as
 * "history" or "electric", rarely a name). isOOV, not isLexeme: isLexeme would also be true for
 * a word read earlier in the same pass.
 */
export function isCommonWord(lowerWord: string): boolean {
  const current = wink()
  current.probe ??= current.nlp.readDoc('')
  return !current.probe.isOOV(lowerWord)
}

/**
 * Longest run of non-space characters wink reads as one: its tokenizer is quadratic in a token's
 * length (20,000 characters: 0.3 s; 100,000: seconds, per pass), and a file can hold megabytes of
 * base64 or minified code without a space.
 */
export const MAX_WINK_RUN = 1000

const isSpace = (code: number): boolean =>
  code <= 0x20 || code === 0x85 || code === 0xa0 || code === 0x1680 || (code >= 0x2000 && code <= 0x200a) || code === 0x2028 || code === 0x2029 || code === 0x202f || code === 0x205f || code === 0x3000 || code === 0xfeff

/** [start, end) of every run of more than `max` non-space characters in `text`, in one linear scan. */
export function longRuns(text: string, max: number): [number, number][] {
  const out: [number, number][] = []
  let start = 0
  for (let i = 0; i <= text.length; i++) {
    if (i === text.length || isSpace(text.charCodeAt(i))) {
      if (i - start > max) out.push([start, i])
      start = i + 1
    }
  }
  return out
}

/**
 * `text` with a space every MAX_WINK_RUN characters inside longer runs (replacing a character, so
 * every offset stays the same): wink then reads such a run as several tokens. Ordinary text, whose
 * words are all shorter, comes back unchanged.
 */
export function breakLongRuns(text: string): string {
  const runs = longRuns(text, MAX_WINK_RUN)
  if (runs.length === 0) return text
  const parts: string[] = []
  let at = 0
  for (const [start, end] of runs) {
    for (let p = start + MAX_WINK_RUN; p < end; p += MAX_WINK_RUN) {
      const code = text.charCodeAt(p)
      // Never leave half a surrogate pair: a pair gives up both halves.
      const [from, to] = code >= 0xdc00 && code <= 0xdfff ? [p - 1, p + 1] : code >= 0xd800 && code <= 0xdbff ? [p, p + 2] : [p, p + 1]
      parts.push(text.slice(at, from), ' '.repeat(to - from))
      at = to
    }
  }
  parts.push(text.slice(at))
  return parts.join('')
}

export function runWink(source: string): WinkPass {
  // Offsets below are into `text`, which has the same length as `source`: callers slice `source` with them.
  const text = breakLongRuns(source)
  return pristinePass((nlp) => {
    const its = nlp.its
    const doc = nlp.readDoc(text)
    const values = doc.tokens().out() as string[]
    const pos = doc.tokens().out(its.pos) as string[]
    const kinds = doc.tokens().out(its.type) as string[]
    const tokens: Token[] = []
    // wink keeps token text verbatim, so a forward scan recovers offsets; a token it rewrote
    // (never seen on English text so far) gets a zero-width span instead of a wrong one.
    let cursor = 0
    for (let i = 0; i < values.length; i++) {
      const value = values[i]!
      const at = text.indexOf(value, cursor)
      const found = at >= 0 && at - cursor <= 64
      const start = found ? at : cursor
      const end = found ? at + value.length : cursor
      tokens.push({ text: value, start, end, pos: pos[i] ?? 'X', kind: kinds[i] ?? 'word' })
      cursor = end
    }
    const sentences = (doc.sentences().out(its.span) as unknown as number[][]).map(([a, b]) => [a!, b!] as [number, number])
    const spans = doc.entities().out(its.span) as unknown as number[][]
    const types = doc.entities().out(its.type) as string[]
    const entities = spans.map(([first, last], i) => ({ type: types[i]!, first: first!, last: last! }))
    // wink emits them in text order; sorted anyway, because sentence lookups binary-search them.
    entities.sort((a, b) => a.first - b.first || a.last - b.last)
    return { tokens, sentences, entities }
  })
}

/** Counters for tests and benchmarks: how far the current instance's lexicon grew beyond the shipped one. */
export function winkLexiconState(): { shipped: number; listed: number; hashed: number } {
  const current = wink()
  return { shipped: current.intrinsic, listed: current.lexeme.list.length, hashed: Object.keys(current.lexeme.hash).length }
}
