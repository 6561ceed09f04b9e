/**
 * Whether the graph's type for a name is confident enough to word a question with ("the person",
 * "the organisation"). The graph types names by rules whose weakest steps (a lone capitalised word,
 * two unknown capitalised words read as a person) are often wrong ("Bible" as a person); a question
 * that names the wrong kind of thing misleads. Rather than re-typing the graph (every graph and bench
 * figure would change), generation keeps only names whose own words support the type: a lexicon
 * entry for the whole name, a head word ("... University", "River ..."), a known given name or
 * surname in a multi-word person name. Measured on a hand-labelled sample (bench:questions).
 */
import { lexClass } from '../../graph/nlp/gazetteer'
import { EVENT_HEADS, EVENT_OPENERS, FAC_HEADS, LAW_HEADS, LOC_HEADS, LOC_OPENERS, ORG_HEADS, ORG_OPENERS } from '../../graph/nlp/word-lists'

const GPE_HEADS = new Set(['republic', 'kingdom', 'empire', 'province', 'county', 'territory', 'principality', 'duchy', 'city', 'commonwealth', 'state', 'states'])
const HEADS: Record<string, ReadonlySet<string>> = { ORG: ORG_HEADS, GPE: GPE_HEADS, LOC: LOC_HEADS, FAC: FAC_HEADS, EVENT: EVENT_HEADS, LAW: LAW_HEADS }

const wordsOf = (name: string): string[] => name.toLowerCase().replace(/[.,]/g, '').split(/\s+/).filter(Boolean)
const lex = (s: string) => lexClass(s) ?? lexClass(`${s}.`)

/** The head-word type of a name: the word before "of" ("University of X") or the last word ("X University"). */
function headOf(words: readonly string[]): string | undefined {
  const ofAt = words.indexOf('of')
  const candidates = ofAt > 0 ? [words[ofAt - 1]!, words[words.length - 1]!] : [words[words.length - 1]!]
  for (const w of candidates) {
    for (const [type, heads] of Object.entries(HEADS)) if (heads.has(w)) return type
    if (ofAt > 0 && ORG_OPENERS.has(w)) return 'ORG'
    if (ofAt > 0 && EVENT_OPENERS.has(w)) return 'EVENT'
  }
  if (words.length > 1 && LOC_OPENERS.has(words[0]!)) return 'LOC'
  return undefined
}

/** True when the name's own words support the type; false for types generation never words (NAME, PRODUCT, WORK_OF_ART, ...). */
export function confidentType(name: string, type: string): boolean {
  const words = wordsOf(name)
  if (words.length === 0 || words.some((w) => /\d/.test(w))) return false
  const whole = lex(words.join(' '))
  const head = headOf(words)
  switch (type) {
    case 'PERSON': {
      if (words.length < 2 || words.length > 4 || head !== undefined) return false
      if (whole === 'person') return true
      const first = lex(words[0]!)
      const last = lex(words[words.length - 1]!)
      // A given name first or a surname last, and no word that is itself a place or organisation.
      return (first === 'first' || first === 'person' || last === 'last') && words.every((w) => !['gpe', 'loc', 'org'].includes(lex(w) ?? ''))
    }
    case 'GPE':
      return whole === 'gpe' || head === 'GPE'
    case 'LOC':
      return whole === 'loc' || head === 'LOC'
    case 'ORG':
      return whole === 'org' || (words.length > 1 && head === 'ORG')
    case 'FAC':
    case 'EVENT':
    case 'LAW':
      return words.length > 1 && head === type
    default:
      return false
  }
}
