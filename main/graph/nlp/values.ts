/**
 * Value mentions (DATE, TIME, CARDINAL, ORDINAL, QUANTITY, PERCENT, MONEY) from wink's entities,
 * re-cut to the span conventions of the gold list: no leading prepositions or approximators, a
 * unit makes a QUANTITY, a currency sign or word makes MONEY, a bare year is a DATE, a range
 * ("from 1998 to 2005") is two DATEs, durations are DATEs.
 */
import type { ValueType } from './types'
import type { Token, WinkEntity } from './wink'
import { CURRENCY_WORDS, DATE_NOUNS_AFTER_ORDINAL, MONTHS, UNIT_MODIFIERS, UNIT_WORDS, WEEKDAYS } from './word-lists'

/** A value mention over tokens `first..last` (inclusive). */
export interface ValueSpan {
  type: ValueType
  first: number
  last: number
}

const DIRECT: Record<string, ValueType> = {
  DATE: 'DATE',
  TIME: 'TIME',
  CARDINAL: 'CARDINAL',
  ORDINAL: 'ORDINAL',
  MONEY: 'MONEY',
  PERCENT: 'PERCENT',
  DURATION: 'DATE',
}

// Leading words wink sometimes folds into a span and the convention keeps outside it.
const LEADING_NOISE = new Set([
  'the', 'a', 'an', 'between', 'from', 'by', 'in', 'on', 'at', 'since', 'until', 'till', 'before', 'after', 'during',
  'about', 'around', 'approximately', 'roughly', 'nearly', 'almost', 'over', 'under', 'some', 'circa', 'c.', 'ca.',
  'more', 'less', 'than', 'up', 'to', 'of', 'within', 'for',
])
const RANGE_WORDS = new Set(['and', 'to', '-', '–', '—', 'until', 'till', 'through'])
const YEAR = /^(1[0-9]{3}|20[0-9]{2})$/
const CURRENCY_SIGNS = /^[$€£¥₹₩₽¢]$|^(us\$|a\$|c\$|hk\$)$/i

const lower = (t: Token | undefined): string => (t ? t.text.toLowerCase() : '')

/** Index of the first entity whose `first` is at or after `from`; `entities` sorted by `first`. */
function firstEntityFrom(entities: readonly WinkEntity[], from: number): number {
  let lo = 0
  let hi = entities.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (entities[mid]!.first < from) lo = mid + 1
    else hi = mid
  }
  return lo
}

/**
 * Value mentions inside tokens `from..to`. `entities` must be sorted by `first` (WinkPass's are): the
 * sentence's entities are found by binary search, so a pass over a long text costs linear time in
 * its sentences, not sentences x entities.
 */
export function valueSpans(tokens: readonly Token[], entities: readonly WinkEntity[], from: number, to: number): ValueSpan[] {
  const out: ValueSpan[] = []
  for (let index = firstEntityFrom(entities, from); index < entities.length; index++) {
    const e = entities[index]!
    if (e.first > to) break
    if (e.last > to) continue
    const base = DIRECT[e.type]
    if (!base) continue // URL, EMAIL, HASHTAG, EMOJI ...: not entities of the graph
    let first = e.first
    let last = e.last
    while (first < last && LEADING_NOISE.has(lower(tokens[first]))) first++
    if (LEADING_NOISE.has(lower(tokens[first]))) continue

    // "from 1998 to 2005", "between 21 January and 20 February": two dates, not one duration.
    if (e.type === 'DURATION' || e.type === 'DATE') {
      const halves = splitRange(tokens, first, last)
      if (halves) {
        for (const [a, b] of halves) out.push({ type: 'DATE', first: a, last: b })
        continue
      }
    }
    // "the Thirty Years' War", "Late Night with ...": capitalised number or time words inside a name.
    if (isInsideName(tokens, first, last, from)) continue

    let type: ValueType = base
    if (type === 'CARDINAL' || type === 'MONEY') {
      const prev = first > from ? tokens[first - 1] : undefined
      if (prev && (CURRENCY_SIGNS.test(prev.text) || prev.kind === 'currency')) {
        first -= 1
        type = 'MONEY'
      }
    }
    if (type === 'CARDINAL') {
      // Never reach into the next sentence for a unit.
      const next = last + 1 <= to ? lower(tokens[last + 1]) : ''
      const after = last + 2 <= to ? lower(tokens[last + 2]) : ''
      if (CURRENCY_WORDS.has(next)) {
        type = 'MONEY'
        last += 1
      } else if (UNIT_MODIFIERS.has(next) && UNIT_WORDS.has(after)) {
        type = 'QUANTITY'
        last += 2
      } else if (UNIT_WORDS.has(next) && !UNIT_MODIFIERS.has(next)) {
        type = 'QUANTITY'
        last += 1
      } else if (first === last && YEAR.test(tokens[first]!.text) && !(last + 1 <= to && isCountedNoun(tokens[last + 1]))) {
        type = 'DATE'
      }
    }
    if (type === 'ORDINAL' && last + 1 <= to && DATE_NOUNS_AFTER_ORDINAL.has(lower(tokens[last + 1]))) {
      type = 'DATE'
      last += 1
    }
    out.push({ type, first, last })
  }
  return out
}

/** Token ranges of the two ends of a date range, each holding a number, or undefined. */
function splitRange(tokens: readonly Token[], first: number, last: number): [number, number][] | undefined {
  let joiner = -1
  for (let i = first + 1; i < last; i++) {
    if (!RANGE_WORDS.has(tokens[i]!.text.toLowerCase())) continue
    if (joiner >= 0) return undefined
    joiner = i
  }
  if (joiner < 0) return undefined
  const hasNumber = (a: number, b: number): boolean => tokens.slice(a, b + 1).some((t) => /\d/.test(t.text))
  let b = joiner + 1
  while (b < last && LEADING_NOISE.has(tokens[b]!.text.toLowerCase())) b++
  if (!hasNumber(first, joiner - 1) || !hasNumber(b, last)) return undefined
  return [
    [first, joiner - 1],
    [b, last],
  ]
}

/**
 * A value span made only of title-case words (no digits, no month or weekday) is part of a name:
 * mid-sentence always ("Late Night with ...", "the Winter Olympics", "First Lady"), at the start
 * of a sentence when a capitalised word follows ("Thirty Years' War").
 */
function isInsideName(tokens: readonly Token[], first: number, last: number, sentenceFirst: number): boolean {
  for (let i = first; i <= last; i++) {
    const t = tokens[i]!.text
    if (!/^\p{Lu}\p{Ll}+$/u.test(t) || MONTHS.has(t.toLowerCase()) || WEEKDAYS.has(t.toLowerCase())) return false
  }
  if (first > sentenceFirst && !/^[("“'‘]$/.test(tokens[first - 1]!.text)) return true
  let next = tokens[last + 1]
  if (next && (next.text === "'" || next.text === '’' || next.text === "'s")) next = tokens[last + 2]
  return last > first && !!next && next.kind === 'word' && /^\p{Lu}/u.test(next.text)
}

/** "1500 soldiers": a four-digit count followed by a plural noun is a number, not a year. */
function isCountedNoun(t: Token | undefined): boolean {
  return !!t && t.pos === 'NOUN' && /[a-z]s$/.test(t.text)
}
