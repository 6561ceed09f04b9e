/**
 * Canonical keys for entity mentions: two mentions of the same thing should share a key
 * ("Dr. Ada Lovelace's" and "Ada Lovelace" -> "ada lovelace"; "the Beatles" -> "beatles";
 * "Acme Holdings Inc." -> "acme holdings"). Keys are for matching, never for display.
 */
import { isValueType, type EntityType } from './types'
import { AMBIGUOUS_TITLES, HONORIFICS } from './word-lists'

// Letters NFKD does not decompose into a base letter plus a mark.
const FOLD: Record<string, string> = { ø: 'o', æ: 'ae', œ: 'oe', ß: 'ss', ð: 'd', þ: 'th', đ: 'd', ł: 'l', ı: 'i', ħ: 'h' }
const CORPORATE_SUFFIX = /\s+(?:inc|incorporated|corp|corporation|co|ltd|limited|llc|plc|gmbh|ag|sa|nv|llp|lp)$/

/** Lower case, diacritics folded, whitespace collapsed. */
export function foldText(s: string): string {
  return s
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[øæœßðþđłıħ]/g, (c) => FOLD[c] ?? c)
    .replace(/\s+/g, ' ')
    .trim()
}

/**
 * Canonical key of a mention surface. Names: folded case and diacritics, no possessive, no
 * leading article, no honorifics (people only), "&" read as "and", punctuation dropped ("U.S." -> "us",
 * "O'Neill" -> "oneill"), corporate suffixes dropped for ORG. Values: folded, article and
 * thousands separators dropped ("the 1990s" -> "1990s", "1,280 metres" -> "1280 metres").
 */
export function canonicalise(surface: string, type: EntityType): string {
  let s = foldText(surface)
  if (isValueType(type)) {
    return s
      .replace(/^(?:the|a|an)\s+/, '')
      .replace(/(\d),(?=\d{3}\b)/g, '$1')
      .replace(/\s*([%$€£¥])\s*/g, '$1')
      .trim()
  }
  s = s.replace(/[’‘`´]/g, "'").replace(/(?:'s|s')$/, (m) => (m === "s'" ? 's' : ''))
  s = s.replace(/&/g, ' and ').replace(/[-–—/_]+/g, ' ')
  s = s.replace(/[^\p{L}\p{N}\s]+/gu, '').replace(/\s+/g, ' ').trim()
  let words = s.split(' ')
  while (words.length > 1 && (words[0] === 'the' || words[0] === 'a' || words[0] === 'an')) words = words.slice(1)
  // Titles go only from names of people (or untyped names): "General Electric" keeps its "general".
  const dropsTitle = (w: string): boolean =>
    HONORIFICS.has(w) && (type === 'PERSON' || (type === 'NAME' && !AMBIGUOUS_TITLES.has(w)))
  while (words.length > 1 && dropsTitle(words[0]!)) words = words.slice(1)
  s = words.join(' ')
  if (type === 'ORG' || type === 'NAME') {
    const stripped = s.replace(CORPORATE_SUFFIX, '')
    if (stripped) s = stripped
  }
  return s
}
