/**
 * Term handling shared by compression, verification and the scripted policy: lower-cased letter/digit
 * runs, English stopwords dropped, a light plural fold so "founders" meets "founder". Deliberately
 * simpler than the FTS5 porter tokenizer: it only ranks sentences inside one chunk.
 */
import { STOPWORDS } from '../../retrieval'

const WORD = /[\p{L}\p{N}]+/gu

export function words(text: string): string[] {
  return (text.toLowerCase().match(WORD) ?? []) as string[]
}

function fold(word: string): string {
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1)
  return word
}

/** Content terms of a text, in order, with repeats. */
export function contentTerms(text: string): string[] {
  return words(text)
    .filter((w) => !STOPWORDS.has(w))
    .map(fold)
}

export function termSet(text: string): Set<string> {
  return new Set(contentTerms(text))
}

/** Collapses runs of whitespace so summaries render on one line. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim()
}

/** At most `n` words of a text, with an ellipsis when cut. */
export function clipWords(text: string, n: number): string {
  const parts = oneLine(text).split(' ')
  return parts.length <= n ? parts.join(' ') : `${parts.slice(0, n).join(' ')} …`
}
