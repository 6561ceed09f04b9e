/**
 * Cues: how a question points at a span of a sentence without naming it, by the few lower-case words
 * right before or right after it ('a person right after the words "a tragedy by"'). The same words
 * are read back to find every span a reader of the question could take for it (bridge-check.ts).
 */
import { STOPWORDS } from '../../retrieval'

export interface Cue {
  /** 'after': the span comes right after the words; 'before': right before them. */
  side: 'after' | 'before'
  /** Lower-case words, in text order. */
  words: string[]
}

export interface Span {
  start: number
  end: number
}

const CUE_WORDS = 3
const TOKEN = /[\p{L}\p{N}'’-]+|[^\s\p{L}\p{N}]/gu
const LOWER_WORD = /^\p{Ll}[\p{Ll}'’-]*$/u

/** Up to three lower-case words next to a span, stopping at punctuation, digits and capitalised words (names stay out). */
function cueWords(side: string, where: 'before' | 'after'): string[] {
  const tokens = [...side.matchAll(TOKEN)].map((m) => m[0])
  if (where === 'before') tokens.reverse()
  const out: string[] = []
  for (const t of tokens) {
    if (out.length >= CUE_WORDS || !LOWER_WORD.test(t)) break
    out.push(t)
  }
  return where === 'before' ? out.reverse() : out
}

/**
 * The cue of a span: the words before it when they hold a content word, else the words after it;
 * null when neither side has one (a cue of function words only locates nothing).
 */
export function cueOf(text: string, span: Span): Cue | null {
  const before = cueWords(text.slice(0, span.start), 'before')
  if (before.some((w) => !STOPWORDS.has(w))) return { side: 'after', words: before }
  const after = cueWords(text.slice(span.end), 'after')
  if (after.some((w) => !STOPWORDS.has(w))) return { side: 'before', words: after }
  return null
}

/** ' right after the words "born in"', or '' for no cue. */
export const cueText = (cue: Cue | null): string => (cue === null ? '' : ` right ${cue.side} the words "${cue.words.join(' ')}"`)

/** The old name of cueText(cueOf(...)), kept for its callers and tests. */
export const relation = (text: string, span: Span): string => cueText(cueOf(text, span))

/** Words of a text as tokens with their offsets (letters, digits, apostrophes and hyphens). */
function wordsWithOffsets(text: string): { word: string; start: number; end: number }[] {
  return [...text.matchAll(/[\p{L}\p{N}'’-]+|[^\s\p{L}\p{N}]/gu)].map((m) => ({ word: m[0].toLowerCase(), start: m.index, end: m.index + m[0].length }))
}

/**
 * Where a reader of the cue would look in a text: for 'after', the offset right after each run of the
 * cue's words (the span starts there, past spaces); for 'before', the offset right before each run.
 * Case is ignored; the words must follow each other with nothing but spaces between them.
 */
export function cueSites(text: string, cue: Cue): number[] {
  const tokens = wordsWithOffsets(text)
  const n = cue.words.length
  const out: number[] = []
  for (let i = 0; i + n <= tokens.length; i++) {
    let ok = true
    for (let k = 0; k < n && ok; k++) ok = tokens[i + k]!.word === cue.words[k]
    if (!ok) continue
    if (cue.side === 'after') {
      const next = tokens[i + n]
      if (next) out.push(next.start)
    } else if (i > 0) out.push(tokens[i - 1]!.end)
  }
  return out
}

/** True when the span sits right where the cue points in this text. */
export function cueFits(text: string, span: Span, cue: Cue): boolean {
  return cueSites(text, cue).some((at) => (cue.side === 'after' ? at === span.start : at === span.end))
}

/** The word that starts (cue 'after') or ends (cue 'before') at a site: what a reader finds there. */
export function wordAt(text: string, at: number, side: Cue['side']): string {
  const m = side === 'after' ? /^[\p{L}\p{N}][\p{L}\p{N}'’.-]*/u.exec(text.slice(at)) : /[\p{L}\p{N}][\p{L}\p{N}'’.-]*$/u.exec(text.slice(0, at))
  return m?.[0] ?? ''
}
