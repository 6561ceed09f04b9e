/**
 * Proper-noun chunker: runs of capitalised tokens (with name-internal connectors such as "of",
 * "de", "&" and hyphens) that are not already part of a value mention. It only finds candidate
 * spans; `typing.ts` decides what they are. Linear in tokens, no model calls beyond wink's POS.
 */
import type { Token } from './wink'
import { isCommonWord } from './wink'
import { lexClass } from './gazetteer'
import { isDemonym } from './demonyms'
import {
  AMBIGUOUS_TITLES,
  EVENT_OPENERS,
  FAC_HEADS,
  HONORIFICS,
  LAW_HEADS,
  LOC_HEADS,
  ORG_HEADS,
  ORG_OPENERS,
  STOPWORDS,
} from './word-lists'

/** A candidate name over tokens `first..last`; `titled` when an honorific preceded it. */
export interface NameChunk {
  first: number
  last: number
  titled: boolean
  /** Set when the chunk is the whole content of a quotation in title case. */
  quotedTitle: boolean
}

const OPEN_QUOTES = new Set(['"', '“', '‘', "'", '«'])
const CLOSE_QUOTES = new Set(['"', '”', '’', "'", '»'])
const TITLE_FUNCTION_WORDS = new Set(['of', 'the', 'a', 'an', 'and', 'in', 'on', 'to', 'for', 'with', 'at', 'by', 'from', 'or', 'is', 'my', 'your', 'our'])
const PARTICLES = new Set(['de', 'du', 'da', 'das', 'do', 'dos', 'des', 'di', 'del', 'della', 'van', 'von', 'der', 'den', 'la', 'le', 'y', 'bin', 'ibn', 'al', 'el', 'ter', 'ten', 'zu'])
const GPE_OF_HEADS = new Set(['republic', 'kingdom', 'empire', 'states', 'state', 'commonwealth', 'city', 'province', 'county', 'duchy', 'principality', 'union', 'isle', 'sea', 'gulf', 'bay', 'cape', 'house', 'order', 'book', 'lord', 'centre', 'center'])

/** Words that may hang "of ..." off a name: "University of Edinburgh", "Battle of Hastings". */
export function takesOf(lowerWord: string): boolean {
  return (
    ORG_OPENERS.has(lowerWord) ||
    ORG_HEADS.has(lowerWord) ||
    LOC_HEADS.has(lowerWord) ||
    EVENT_OPENERS.has(lowerWord) ||
    LAW_HEADS.has(lowerWord) ||
    HONORIFICS.has(lowerWord) ||
    FAC_HEADS.has(lowerWord) ||
    GPE_OF_HEADS.has(lowerWord)
  )
}

const bare = (t: Token): string => t.text.toLowerCase().replace(/\.$/, '')

export function isCapWord(t: Token | undefined): boolean {
  if (!t || t.kind !== 'word') return false
  const c = t.text.charCodeAt(0)
  // Fast path for ASCII capitals; the Unicode test covers "Ørsted", "Łódź", "Édouard".
  if (c >= 65 && c <= 90) return t.text !== 'I'
  if (c >= 97 && c <= 122) return /^[a-z]{1,2}\p{Lu}/u.test(t.text) // eBay, iPhone
  return /^\p{Lu}/u.test(t.text)
}

/** Whether a capitalised sentence-initial word is a name rather than a capitalised common word. */
function initialIsName(tokens: readonly Token[], i: number, last: number): boolean {
  const t = tokens[i]!
  const low = bare(t)
  if (STOPWORDS.has(low)) return false
  if (HONORIFICS.has(low) || lexClass(low) || isDemonym(t.text)) return true
  if (/^\p{Lu}{2,}$/u.test(t.text) || t.text.includes('.')) return true // acronyms, "U.S."
  if (!isCommonWord(low)) return true
  // A common word opens a name only as part of a longer capitalised run ("New York", "General Electric").
  return t.pos === 'PROPN' && i < last && isCapWord(tokens[i + 1])
}

function quotedTitles(tokens: readonly Token[], from: number, to: number, taken: Uint8Array): NameChunk[] {
  const out: NameChunk[] = []
  for (let i = from; i <= to; i++) {
    if (!OPEN_QUOTES.has(tokens[i]!.text) || taken[i - from]) continue
    let j = i + 1
    while (j <= to && j - i <= 14 && !CLOSE_QUOTES.has(tokens[j]!.text)) j++
    if (j > to || !CLOSE_QUOTES.has(tokens[j]!.text)) continue
    let last = j - 1
    if (last > i && tokens[last]!.text === ',') last-- // American style: "The Salt Road," he wrote
    const first = i + 1
    if (last < first || !isCapWord(tokens[first])) {
      i = j
      continue
    }
    let ok = true
    for (let k = first; k <= last && ok; k++) {
      const tk = tokens[k]!
      if (tk.kind === 'word') ok = isCapWord(tk) || TITLE_FUNCTION_WORDS.has(tk.text.toLowerCase()) || /^\d/.test(tk.text)
      else ok = tk.kind === 'number' || tk.text === '-' || tk.text === ':' || tk.text === "'s" || tk.text === '&'
    }
    if (ok) out.push({ first, last, titled: false, quotedTitle: true })
    i = j
  }
  return out
}

/**
 * Candidate name chunks in the sentence covering tokens `from..to`. `taken[k]` is 1 when token
 * `from + k` already belongs to a value mention (so "April" in "April 1959" is not a name); the
 * tokens of quoted titles are marked in it as well.
 */
export function nameChunks(tokens: readonly Token[], from: number, to: number, taken: Uint8Array): NameChunk[] {
  const chunks = quotedTitles(tokens, from, to, taken)
  for (const q of chunks) for (let k = q.first; k <= q.last; k++) taken[k - from] = 1
  const cap = (k: number): boolean => k <= to && !taken[k - from] && isCapWord(tokens[k])
  const tight = (a: number, b: number): boolean => tokens[a]!.end === tokens[b]!.start

  // Index of the first word of the sentence (after any opening quotes or brackets).
  let initial = from
  while (initial <= to && tokens[initial]!.kind !== 'word' && tokens[initial]!.kind !== 'number') initial++

  let i = from
  while (i <= to) {
    if (!cap(i) || (i === initial && !initialIsName(tokens, i, to))) {
      i++
      continue
    }
    let j = i
    for (;;) {
      const n = j + 1
      if (n > to) break
      const nt = tokens[n]!
      const nl = nt.text.toLowerCase()
      if (cap(n)) {
        // "Educationist Dr. Anwaar Ahmad": an abbreviated title starts a new name.
        if (nt.text.endsWith('.') && HONORIFICS.has(bare(nt))) break
        j = n
        continue
      }
      // Hyphenated names: "Jean-Paul", "Mercedes-Benz" (not "Lebanese-born").
      if ((nt.text === '-' || nt.text === '–') && cap(n + 1) && tight(j, n) && tight(n, n + 1)) {
        j = n + 1
        continue
      }
      if ((nt.text === '&' || nl === 'and') && cap(n + 1)) {
        if (nt.text === '&' || joinsAnd(tokens, i, j, n + 1, to, cap)) {
          j = n + 1
          continue
        }
        break
      }
      // "Thirty Years' War": a plural possessive inside a capitalised run.
      if ((nt.text === "'" || nt.text === '’') && /s$/.test(tokens[j]!.text) && cap(n + 1)) {
        j = n + 1
        continue
      }
      // "Hall of Fame", but not "Kate Hall of Toronto": a name opened by a given name takes no "of".
      if (nl === 'of' && takesOf(bare(tokens[j]!)) && lexClass(bare(tokens[i]!)) !== 'first') {
        const k = tokens[n + 1]?.text === 'the' ? n + 2 : n + 1
        if (cap(k)) {
          j = k
          continue
        }
        break
      }
      if ((nl === 'for' || nl === 'on') && (ORG_HEADS.has(bare(tokens[j]!)) || ORG_OPENERS.has(bare(tokens[j]!))) && cap(n + 1)) {
        j = n + 1
        continue
      }
      if (PARTICLES.has(nt.text) && cap(n + 1) && !takesOf(bare(tokens[n + 1]!))) {
        j = n + 1
        continue
      }
      break
    }
    pushChunk(tokens, i, j, chunks)
    i = j + 1
  }
  return chunks.sort((a, b) => a.first - b.first)
}

/**
 * "Securities and Exchange Commission", "School of Physics and Chemistry", but not "Austria,
 * Hungary and Romania" nor "U.S. and Bella Union": the left side must be an "X of Y" name, or
 * common words that only make sense as the start of an organisation name.
 */
function joinsAnd(tokens: readonly Token[], i: number, j: number, k: number, to: number, cap: (k: number) => boolean): boolean {
  for (let x = i; x <= j; x++) if (tokens[x]!.text === 'of') return true
  for (let x = i; x <= j; x++) if (!isCommonWord(bare(tokens[x]!)) || lexClass(bare(tokens[x]!))) return false
  let end = k
  while (end + 1 <= to && cap(end + 1)) end++
  const head = bare(tokens[end]!)
  return ORG_HEADS.has(head) && head !== '&'
}

/** Strips leading honorifics ("Dr.", "President"), drops chunks with no content word, records the rest. */
function pushChunk(tokens: readonly Token[], i: number, j: number, out: NameChunk[]): void {
  let first = i
  let titled = false
  while (first <= j && HONORIFICS.has(bare(tokens[first]!))) {
    const low = bare(tokens[first]!)
    const rest = tokens[first + 1]
    if (first === j) return // a title alone ("the President") is no name
    if (rest && rest.kind !== 'word') break // "Bishop & Clarke": a surname, not a title
    if (rest && rest.text.toLowerCase() === 'of') {
      // "King of Spain" -> "Spain"; "President of the Republic" -> "Republic".
      first += tokens[first + 2]?.text === 'the' ? 3 : 2
      titled = false
      break
    }
    // "General Electric", "Major League": an ambiguous title before a common word is part of the name.
    if (AMBIGUOUS_TITLES.has(low) && rest && isCommonWord(bare(rest)) && !lexClass(bare(rest))) break
    first++
    titled = true
  }
  // A capitalised article opening an unquoted name stays outside it ("The Beatles" -> "Beatles").
  if (first < j && /^(?:The|A|An)$/.test(tokens[first]!.text)) first++
  if (first > j) return
  // Nothing but function words or single letters ("It", "The", "A", "M"): not a name.
  let letters = 0
  let content = false
  for (let k = first; k <= j; k++) {
    const t = tokens[k]!
    if (t.kind !== 'word') continue
    letters += t.text.replace(/[^\p{L}]/gu, '').length
    if (!STOPWORDS.has(t.text.toLowerCase())) content = true
  }
  if (!content || letters < 2) return
  out.push({ first, last: j, titled, quotedTitle: false })
}
