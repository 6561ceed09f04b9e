/**
 * One wink-nlp pass over a piece of text, reduced to plain arrays with source offsets.
 * wink gives sentence boundaries, POS tags and value entities (DATE, MONEY, ...) at several
 * hundred thousand words/s; everything above this file works on these arrays, never on wink items.
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
  entities: WinkEntity[]
}

let instance: WinkMethods | undefined
let probe: ReturnType<WinkMethods['readDoc']> | undefined

function wink(): WinkMethods {
  // Built on first use: loading the model costs ~100 ms and most callers never need it.
  instance ??= winkNLP(model, ['sbd', 'pos', 'ner'])
  return instance
}

/**
 * True when the lower-cased word is in wink's shipped English lexicon (a common word such as
 * "history" or "electric", rarely a name). isOOV, not isLexeme: wink appends every unseen word
 * to its lexicon while reading, so isLexeme drifts with what was read before.
 */
export function isCommonWord(lowerWord: string): boolean {
  probe ??= wink().readDoc('')
  return !probe.isOOV(lowerWord)
}

export function runWink(text: string): WinkPass {
  const nlp = wink()
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
  return { tokens, sentences, entities }
}
