/**
 * Term handling shared by compression, verification and the scripted policy: lower-cased letter/digit
 * runs, English stopwords dropped, a light plural fold so "founders" meets "founder". Deliberately
 * simpler than the FTS5 porter tokenizer: it only ranks sentences inside one chunk.
 */
import { STOPWORDS } from '../../retrieval'
import { foldPlural } from '../../text/fold'

const WORD = /[\p{L}\p{N}]+/gu

export function words(text: string): string[] {
  return (text.toLowerCase().match(WORD) ?? []) as string[]
}

const fold = (word: string): string => foldPlural(word, { ies: true })

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
