/**
 * What makes a generated question worth asking, measured (bench:questions) and enforced (generation):
 * it must not quote its gold sentences, and its answer must not be a stop phrase ("that year").
 */
import { STOPWORDS } from '../../retrieval'

/** Lower-case words of a text without function words: what "quoting" is measured on. */
export function contentWords(text: string): Set<string> {
  return new Set((text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => !STOPWORDS.has(w) && (w.length > 1 || /\d/.test(w))))
}

/** The largest share of one gold sentence's content words that the question contains (0..1). */
export function goldQuoteShare(question: string, goldSentences: readonly string[]): number {
  const q = contentWords(question)
  let worst = 0
  for (const s of goldSentences) {
    const words = contentWords(s)
    if (words.size === 0) continue
    let shared = 0
    for (const w of words) if (q.has(w)) shared++
    worst = Math.max(worst, shared / words.size)
  }
  return worst
}

/** A question quotes its evidence when it holds at least half of a gold sentence's content words. */
export const QUOTE_SHARE = 0.5

/** Words that name no particular thing on their own: an answer made only of these is a stop phrase. */
const VAGUE = new Set(
  (
    'year years day days time times month months week weeks century centuries decade decades season seasons era period ' +
    'today yesterday tomorrow tonight now later earlier recently currently previously formerly once twice ' +
    'following next last first second former latter same present past future previous current recent early late ' +
    'morning evening night afternoon weekend annual annually daily weekly monthly quarterly ' +
    'one two three several many few some number lot half dozen hundreds thousands millions'
  ).split(' '),
)

/** "that year", "the following season", "several": an answer that says nothing by itself. */
export function isStopPhrase(answer: string): boolean {
  const words = answer.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []
  return words.every((w) => STOPWORDS.has(w) || VAGUE.has(w))
}
