/**
 * Span heuristics for the lexical stand-in answerer: candidate answers (capitalised phrases,
 * dates, numbers) read off evidence sentences, the answer type a question asks for, and the
 * yes/no rule. Deliberately simple and deterministic; see lexical-answerer.ts for what it is for.
 */
import { answerTokens } from '../../eval/normalise'
import { STOPWORDS } from '../../retrieval/stopwords'
import { foldPlural } from '../../text/fold'

export type SpanType = 'entity' | 'date' | 'number'

export interface Span {
  text: string
  type: SpanType
  /** Index of the evidence sentence and character offset in it: the deterministic tie-break. */
  sentence: number
  offset: number
}

const MONTHS = 'January|February|March|April|May|June|July|August|September|October|November|December'
const DATE_PATTERNS = [
  new RegExp(`\\b(?:${MONTHS})\\s+\\d{1,2},?\\s+\\d{3,4}\\b`, 'g'),
  new RegExp(`\\b\\d{1,2}\\s+(?:${MONTHS})\\s+\\d{3,4}\\b`, 'g'),
  new RegExp(`\\b(?:${MONTHS})\\s+\\d{3,4}\\b`, 'g'),
  /\b(?:1[0-9]|20)\d{2}s?\b/g,
]
const NUMBER = /\b\d{1,3}(?:,\d{3})+(?:\.\d+)?\b|\b\d+(?:\.\d+)?\b(?:\s+(?:million|billion|thousand|hundred|percent|per cent))?/g
const WORD = /[\p{L}\p{N}]+(?:['’.-][\p{L}\p{N}]+)*/gu
/** Lower-case words allowed inside a capitalised name ("University of Oxford", "Leonardo da Vinci"). */
const CONNECTORS = new Set(['of', 'the', 'de', 'da', 'del', 'della', 'di', 'du', 'la', 'le', 'van', 'von', 'der', 'den', 'y', 'al', 'bin', 'ibn', '&'])

const isCapitalised = (word: string): boolean => /^\p{Lu}/u.test(word)

/** Content words of a text: normalised tokens that are not stopwords, with a light plural fold. */
export function contentWords(text: string): string[] {
  return answerTokens(text).filter((t) => !STOPWORDS.has(t)).map(fold)
}

/** "films" and "film" match; short words and words in -ss are left alone. */
export function fold(token: string): string {
  return foldPlural(token, { ies: false })
}

/** Maximal runs of capitalised words, joined by connectors, never starting or ending on one. */
export function capitalisedPhrases(sentence: string): Array<{ text: string; offset: number }> {
  const words = [...sentence.matchAll(WORD)].map((m) => ({ word: m[0], start: m.index, end: m.index + m[0].length }))
  const out: Array<{ text: string; offset: number }> = []
  let i = 0
  while (i < words.length) {
    if (!isCapitalised(words[i]!.word)) {
      i++
      continue
    }
    let j = i
    let last = i
    while (j + 1 < words.length) {
      const next = words[j + 1]!
      // A name does not run across punctuation other than a space.
      const gap = sentence.slice(words[j]!.end, next.start)
      if (!/^\s+$/.test(gap)) break
      if (isCapitalised(next.word)) last = j + 1
      else if (!CONNECTORS.has(next.word.toLowerCase())) break
      j++
    }
    const text = sentence.slice(words[i]!.start, words[last]!.end)
    // "The", "He", "In" at the start of a sentence are not names.
    if (contentWords(text).length > 0) out.push({ text, offset: words[i]!.start })
    i = last + 1
  }
  return out
}

/** Dates and numbers in a sentence; a number inside a date is not counted again. */
export function datesAndNumbers(sentence: string): Array<{ text: string; offset: number; type: 'date' | 'number' }> {
  const found: Array<{ text: string; offset: number; type: 'date' | 'number' }> = []
  const taken: Array<[number, number]> = []
  const overlaps = (a: number, b: number): boolean => taken.some(([x, y]) => a < y && b > x)
  for (const pattern of DATE_PATTERNS) {
    for (const m of sentence.matchAll(pattern)) {
      if (overlaps(m.index, m.index + m[0].length)) continue
      taken.push([m.index, m.index + m[0].length])
      found.push({ text: m[0], offset: m.index, type: 'date' })
    }
  }
  for (const m of sentence.matchAll(NUMBER)) {
    if (overlaps(m.index, m.index + m[0].length)) continue
    taken.push([m.index, m.index + m[0].length])
    found.push({ text: m[0], offset: m.index, type: 'number' })
  }
  return found
}

/** The kind of answer a question asks for. */
export function expectedType(question: string): SpanType {
  const q = question.toLowerCase()
  if (/\b(when|what year|which year|what date|what decade|what century)\b/.test(q)) return 'date'
  if (/\bhow (many|much|old|long|far|tall|big|large)\b|\bwhat (percentage|number|age)\b/.test(q)) return 'number'
  return 'entity'
}

/** Every candidate span in the evidence, in reading order. */
export function candidateSpans(evidence: readonly string[]): Span[] {
  const spans: Span[] = []
  evidence.forEach((sentence, index) => {
    for (const s of datesAndNumbers(sentence)) spans.push({ ...s, sentence: index })
    for (const p of capitalisedPhrases(sentence)) spans.push({ text: p.text, offset: p.offset, type: 'entity', sentence: index })
  })
  return spans.sort((a, b) => a.sentence - b.sentence || a.offset - b.offset)
}

const AUXILIARY = /^\s*(is|are|was|were|do|does|did|has|have|had|can|could|will|would|should)\b/i

/** A question answered by yes or no: it opens with an auxiliary verb and offers no "X or Y" choice. */
export function isYesNoQuestion(question: string): boolean {
  return AUXILIARY.test(question) && !/\bor\b/i.test(question)
}

/** Entities the question names (capitalised phrases after the opening auxiliary). */
export function questionEntities(question: string): string[] {
  const body = question.replace(AUXILIARY, '')
  return capitalisedPhrases(body).map((p) => p.text)
}

/** Every content word of the entity occurs in the sentence. */
export const mentions = (sentenceWords: Set<string>, entity: string): boolean => {
  const words = contentWords(entity)
  return words.length > 0 && words.every((w) => sentenceWords.has(w))
}

/**
 * The yes/no rule. "Are X and Y both P?" / "Is X P?": yes when every entity the question names is
 * mentioned in an evidence sentence that also contains a property word (a content word of the
 * question outside the names). "... the same Q?": yes when the sentences about each entity share a
 * capitalised word or number the question does not contain ("American", "1998").
 */
export function yesNoAnswer(question: string, evidence: readonly string[]): 'yes' | 'no' {
  const entities = questionEntities(question)
  const sentences = evidence.map((e) => ({ text: e, words: new Set(contentWords(e)) }))
  const entityWords = new Set(entities.flatMap(contentWords))
  const questionWords = new Set(contentWords(question))
  const property = [...questionWords].filter((w) => !entityWords.has(w) && !['both', 'same', 'also', 'either'].includes(w))
  if (entities.length === 0) {
    const covered = property.filter((w) => sentences.some((s) => s.words.has(w))).length
    return property.length > 0 && covered * 2 > property.length ? 'yes' : 'no'
  }
  const about = entities.map((entity) => sentences.filter((s) => mentions(s.words, entity)))
  if (about.some((list) => list.length === 0)) return 'no'
  if (/\bsame\b/i.test(question)) {
    const attributes = about.map((list) => new Set(list.flatMap((s) => [
      ...capitalisedPhrases(s.text).flatMap((p) => contentWords(p.text)),
      ...datesAndNumbers(s.text).map((d) => d.text),
    ]).filter((w) => !questionWords.has(w) && !entityWords.has(w))))
    const [first, ...rest] = attributes
    return [...first!].some((a) => rest.every((set) => set.has(a))) ? 'yes' : 'no'
  }
  if (property.length === 0) return 'yes'
  return about.every((list) => list.some((s) => property.some((w) => s.words.has(w)))) ? 'yes' : 'no'
}

/**
 * The two options of a choice question ("Which was published first, X or Y?", "Between X and Y,
 * which ...?"), as capitalised phrases, or null when the question offers no choice.
 */
export function choiceOptions(question: string): [string, string] | null {
  const between = /\bbetween\s+(.+?)\s+and\s+(.+?)\s*,/i.exec(question)
  const or = /^(.*)\s+or\s+(.+?)\s*\??\s*$/i.exec(question)
  const [left, right] = between ? [between[1]!, between[2]!] : or ? [or[1]!, or[2]!] : [null, null]
  if (left === null || right === null) return null
  const a = capitalisedPhrases(left).at(-1)?.text
  const b = capitalisedPhrases(right)[0]?.text
  return a && b && a !== b ? [a, b] : null
}

const EARLIER = /\b(first|earlier|earliest|older|oldest|before|preceded)\b/i
const LATER = /\b(later|latest|younger|youngest|newer|newest|more recent|most recent|last)\b/i

/** The question compares the options in time ("older", "first", "later"): their years decide it. */
export const comparesTime = (question: string): boolean => EARLIER.test(question) || LATER.test(question)

/**
 * The choice rule: for "first / older / earlier" the option whose sentences give the earliest year,
 * for "later / younger" the latest; otherwise (or without years) the option whose sentences share
 * more words with the rest of the question, then the one mentioned most, then the first.
 */
export function choiceAnswer(question: string, options: [string, string], evidence: readonly string[]): string {
  const sentences = evidence.map((e) => ({ text: e, words: new Set(contentWords(e)) }))
  const about = options.map((option) => sentences.filter((s) => mentions(s.words, option)))
  const years = about.map((list) => list.flatMap((s) => datesAndNumbers(s.text).filter((d) => d.type === 'date')
    .map((d) => Number(/\d{3,4}/.exec(d.text)?.[0] ?? NaN)).filter((y) => Number.isFinite(y))))
  const direction = EARLIER.test(question) ? -1 : LATER.test(question) ? 1 : 0
  if (direction !== 0 && years.every((y) => y.length > 0)) {
    const pick = years.map((y) => (direction < 0 ? Math.min(...y) : Math.max(...y)))
    if (pick[0] !== pick[1]) return (direction < 0 ? pick[0]! < pick[1]! : pick[0]! > pick[1]!) ? options[0] : options[1]
  }
  // Otherwise the option whose sentences carry more of the question's other words ("Which singer is American, X or Y?").
  const optionWords = new Set(options.flatMap(contentWords))
  const property = contentWords(question).filter((w) => !optionWords.has(w))
  const support = about.map((list) => list.reduce((n, s) => n + property.filter((w) => s.words.has(w)).length, 0))
  if (support[0] !== support[1]) return support[1]! > support[0]! ? options[1] : options[0]
  return about[1]!.length > about[0]!.length ? options[1] : options[0]
}
