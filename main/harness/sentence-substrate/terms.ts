import { STOPWORDS } from '../../retrieval'

/** Runs of letters, digits and marks: the same units the FTS5 tokenizer indexes. */
const TERM = /[\p{L}\p{N}\p{M}]+/gu

/** A content word: `surface` goes into retrieval queries (FTS5 stems it itself), `stem` is compared. */
export interface Term {
  surface: string
  stem: string
}

/**
 * A light suffix stripper for overlap features: "cities" and "city", "founded" and "founder", "married"
 * and "marry" must meet. Both sides of every comparison go through it, so its odd stems ("wat" for
 * "water") cost nothing; anything heavier would cost more than the menu build it serves.
 */
export function stem(word: string): string {
  let w = word.toLowerCase()
  if (w.length <= 3 || /\d/.test(w)) return w
  if (w.endsWith('ies') && w.length > 4) w = `${w.slice(0, -3)}y`
  else if (/(ss|sh|ch|x|z)es$/.test(w)) w = w.slice(0, -2)
  else if (w.endsWith('s') && !/(ss|us|is)$/.test(w)) w = w.slice(0, -1)
  if (w.endsWith('ing') && w.length > 5) w = w.slice(0, -3)
  else if (w.endsWith('ed') && w.length > 4) w = w.slice(0, -2)
  else if (w.endsWith('er') && w.length > 5) w = w.slice(0, -2)
  if (w.endsWith('i')) w = `${w.slice(0, -1)}y`
  return w
}

/** Distinct content terms in order of first appearance (stopwords dropped; kept if nothing else is left). */
export function contentTerms(text: string): Term[] {
  const seen = new Set<string>()
  const all: Term[] = []
  const content: Term[] = []
  for (const token of text.normalize('NFC').match(TERM) ?? []) {
    const lower = token.toLowerCase()
    const s = stem(lower)
    if (seen.has(s)) continue
    seen.add(s)
    const term = { surface: lower, stem: s }
    all.push(term)
    if (!STOPWORDS.has(lower)) content.push(term)
  }
  return content.length > 0 ? content : all
}

export function stemSet(text: string): Set<string> {
  return new Set(contentTerms(text).map((t) => t.stem))
}

/** How many of `terms` occur in `set`. */
export function hits(terms: readonly Term[], set: ReadonlySet<string>): number {
  let n = 0
  for (const t of terms) if (set.has(t.stem)) n++
  return n
}

/** Share of `terms` that occur in `set`; 0 for no terms. */
export function coverage(terms: readonly Term[], set: ReadonlySet<string>): number {
  return terms.length === 0 ? 0 : hits(terms, set) / terms.length
}

/** Order-free identity of a query: the sorted distinct stems. Two queries with the same key retrieve alike. */
export function queryKey(query: string): string {
  return [...stemSet(query)].sort().join(' ')
}

/** Lower-cased, punctuation-free text, for merging sentences that say the same thing. */
export function normalisedText(text: string): string {
  return (text.normalize('NFC').toLowerCase().match(TERM) ?? []).join(' ')
}
