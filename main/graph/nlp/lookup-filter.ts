/**
 * Which mentions may appear as LOOKUP targets in the Harness-G menu (README, "Corpus, index and graph").
 * Values (dates, numbers, money ...) and group words (NORP, demonyms) are not things to look up;
 * malformed surfaces would only waste a menu slot. Filtered mentions stay in the sentence text.
 */
import { isDemonym } from './demonyms'
import type { Mention } from './types'
import { HONORIFICS, MONTHS, STOPWORDS, WEEKDAYS } from './word-lists'

const NEVER_TARGET = new Set(['DATE', 'TIME', 'CARDINAL', 'ORDINAL', 'QUANTITY', 'PERCENT', 'MONEY', 'NORP'])
const MAX_CHARS = 60
const MAX_WORDS = 8
const PAIRS: [string, string][] = [['(', ')'], ['[', ']'], ['{', '}'], ['“', '”'], ['«', '»']]

/** False for the types whose entities are never LOOKUP targets (values, NORP), whatever their surface. */
export function lookupType(type: string): boolean {
  return !NEVER_TARGET.has(type)
}

/** Why a mention is not a LOOKUP target, or null when it is one. Useful for UI tooltips and tests. */
export function lookupRejection(mention: Pick<Mention, 'surface' | 'type'> & { canonical?: string }): string | null {
  if (NEVER_TARGET.has(mention.type)) return `type ${mention.type}`
  const surface = mention.surface.trim()
  if (surface.length < 2) return 'single character'
  if (!/\p{L}/u.test(surface)) return 'no letters'
  if (surface.length > MAX_CHARS || surface.split(/\s+/).length > MAX_WORDS) return 'too long'
  if (!balanced(surface)) return 'unbalanced brackets or quotes'
  // A name may end in "." (Inc.) or ")" (Acme (UK)), never start or end in other punctuation.
  if (!/^[\p{L}\p{N}]/u.test(surface) || !/[\p{L}\p{N}.)]$/u.test(surface)) return 'stray punctuation'
  const lower = surface.toLowerCase().replace(/\.$/, '')
  if (HONORIFICS.has(lower)) return 'stopword'
  // A typed, capitalised name may coincide with a function word ("May", a surname); untyped may not.
  if (STOPWORDS.has(lower) && (mention.type === 'NAME' || !/^\p{Lu}/u.test(surface))) return 'stopword'
  if (mention.type === 'NAME' && (MONTHS.has(lower) || WEEKDAYS.has(lower))) return 'calendar word'
  if (isDemonym(surface)) return 'nationality or group adjective'
  if (mention.canonical !== undefined && mention.canonical.trim() === '') return 'empty canonical form'
  return null
}

/** True when the mention may be offered as `LOOKUP <entity>` in a Harness-G menu. */
export function isLookupTarget(mention: Pick<Mention, 'surface' | 'type'> & { canonical?: string }): boolean {
  return lookupRejection(mention) === null
}

function balanced(s: string): boolean {
  for (const [open, close] of PAIRS) {
    let depth = 0
    for (const ch of s) {
      if (ch === open) depth++
      else if (ch === close && --depth < 0) return false
    }
    if (depth !== 0) return false
  }
  // Straight double quotes come in pairs.
  return (s.split('"').length - 1) % 2 === 0
}
