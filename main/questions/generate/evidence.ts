/**
 * Evidence worth finding: whether a sentence is prose a question may use as gold or as a hop, or a
 * line a searcher should never be sent to (a reference or citation line, a list or calendar item, a
 * table row, wiki markup, a heading, a fragment cut off by a passage boundary). One test per sentence
 * from its own text, plus two readings of its document: the end matter (everything after a
 * "References" / "External links" / "See also" heading or a category line) and list pages (a document
 * most of whose lines are not prose, such as a calendar page or a discography).
 * Measured against hand labels and HotpotQA's own supporting facts by bench:questions.
 */

export type SentenceFlaw = 'reference' | 'list' | 'markup' | 'fragment' | 'heading' | 'end-matter' | 'list-page'

/** Headings that open a document's end matter (compared lower-case, without '#', '=' or a trailing colon). */
const END_MATTER = new Set([
  'references',
  'notes',
  'footnotes',
  'citations',
  'sources',
  'bibliography',
  'selected bibliography',
  'works cited',
  'external links',
  'further reading',
  'see also',
  'notes and references',
  'references and notes',
  'references and footnotes',
  'literature',
])

// A citation: access and archive notes, identifiers, page numbers, editors, "via" a database.
const CITATION = /\b(retrieved|accessed|archived)( from| on)?\b|\bISBN\b|\bdoi\s*:|\bISSN\b|\bOCLC\b|\bpp?\.\s*\d|\bvol\.\s*\d|\beds?\.(?=[\s,])|\bvia [A-Z]|access-?date|\bet al\.|\(PDF\)|\bOriginal on\b/i
// Wiki and HTML markup, template fields, file names, URLs.
const MARKUP = /\[\[|\]\]|\{\{|\}\}|\|\s*\w+\s*=|\bCategory:|\bFile:|\bImage:|https?:\/\/|\bwww\.\w|\.(png|jpe?g|svg|gif)\b|<\/?[a-z]+[ >]/i
// A list item: a bullet, or a leading date or year with a dash or colon ("1537 – ...", "January 30: ...", "22 MAY 1946: ...").
const LIST_ITEM = /^\s*([-*•·]\s|\d+[.)]\s|(\d{1,2}\s+)?\p{L}+\s+\d{1,2}(,\s*\d{4})?\s*[:–—-]\s|(\d{1,2}\s+\p{L}+\s+)?\d{3,4}(\s*(BC|BCE|AD|CE))?\s*[:–—]\s)/u
/** Footnote markers at either end: "[13] They had ..." is prose that carries the previous sentence's marker. */
const MARKERS_START = /^(\s*\[\s*\w{1,4}\s*\])+\s*/
const MARKERS_END = /(\[\s*\w{1,4}\s*\]|\s)+$/

const WORD = /[\p{L}\p{N}][\p{L}\p{N}'’.-]*/gu
const MIN_WORDS = 5
/** Prose is mostly lower-case words; a line of names and numbers ("Peščenica – Žitnjak 9 4 3 2 1") is not. */
const MIN_LOWER_SHARE = 0.3

/** A heading as the text's own line: short, no sentence punctuation at the end, no line break. */
function headingText(text: string): string | null {
  const t = text.trim().replace(/^[#=*\s]+|[#=*\s]+$/g, '')
  if (t === '' || t.includes('\n') || /[.!?;,]$/.test(t) || t.length > 60) return null
  const words = t.match(WORD) ?? []
  return words.length >= 1 && words.length <= 6 ? t.replace(/:$/, '').replace(/\s*\(.*\)$/, '').toLowerCase() : null
}

/** The flaw of a sentence read alone, or null when it is prose. */
export function sentenceFlaw(text: string): SentenceFlaw | null {
  if (markerOnly(text)) return 'reference'
  if (headingText(text) !== null) return 'heading'
  if (MARKUP.test(text) || text.includes('\t')) return 'markup'
  if (CITATION.test(text)) return 'reference'
  const body = text.replace(MARKERS_START, '').replace(MARKERS_END, '')
  // A footnote line: a marker, then a quoted title or a source in parentheses with a date.
  if (MARKERS_START.test(text) && /^["“'‘]|\(\s*(\p{L}+\s+)?\d{1,2},?\s+\d{4}\s*\)|\(\d{4}\)/u.test(body)) return 'reference'
  if (body.includes('\n') || LIST_ITEM.test(body)) return 'list'
  const words = body.match(WORD) ?? []
  if (words.length < MIN_WORDS) return 'fragment'
  // Cut at a passage boundary or a bad split: no sentence end, or a start in the middle of a sentence.
  if (!/[.!?…]["”'’)\]]*$/u.test(body)) return 'fragment'
  if (/^\p{Ll}/u.test(body) && !/^\p{Ll}+\p{Lu}/u.test(body)) return 'fragment'
  // The tail of a caption or a clause split off its sentence (", with military leaders during ...").
  if (/^[,;:.)\]}]/.test(body)) return 'fragment'
  const lower = words.filter((w) => /^\p{Ll}/u.test(w)).length
  if (lower / words.length < MIN_LOWER_SHARE) return 'fragment'
  return null
}

/**
 * Share of a document's body lines (before its end matter; headings count, footnote markers on a line
 * of their own do not) that may be flawed before the whole document reads as a list page. Calendar
 * pages, discographies and results tables sit above 0.8 on wikipedia-md-300; articles with a table or
 * a few formula lines between their paragraphs, between 0.3 and 0.7.
 */
export const LIST_PAGE_SHARE = 0.75

const markerOnly = (text: string): boolean => text.replace(MARKERS_START, '').trim() === ''

/**
 * Each sentence's flaw read in its document (sentences in order): the sentence's own flaw, then end
 * matter from an end-matter heading or a category line to the end, then, when most of the body is
 * not prose, 'list-page' for the prose that is left.
 */
export function documentFlaws(texts: readonly string[]): (SentenceFlaw | null)[] {
  const out: (SentenceFlaw | null)[] = []
  let endMatter = false
  let body = 0
  let flawed = 0
  for (const text of texts) {
    const heading = headingText(text)
    if (heading !== null && END_MATTER.has(heading)) endMatter = true
    if (/^\s*Category:/.test(text)) endMatter = true
    const own = sentenceFlaw(text)
    if (!endMatter && !markerOnly(text)) {
      body++
      if (own !== null) flawed++
    }
    out.push(endMatter && own !== 'heading' ? 'end-matter' : own)
  }
  if (body > 0 && flawed / body > LIST_PAGE_SHARE) return out.map((f) => f ?? 'list-page')
  return out
}

/** Flaws that make a sentence a reference or list line (what bench:questions counts among gold). */
export const REFERENCE_OR_LIST: ReadonlySet<SentenceFlaw> = new Set(['reference', 'list', 'markup', 'end-matter', 'list-page'])
