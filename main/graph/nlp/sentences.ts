/**
 * Sentence splitting. Newlines are decided here (blank lines, headings, list items and short
 * title-like lines end a sentence; a long hard-wrapped line continues), everything inside a block
 * is left to wink's sentence boundary detector, which knows abbreviations ("Dr.", "U.S.", "e.g.",
 * "Inc.") and decimals. Fix-ups on top, for what wink splits wrongly: a piece that starts in
 * lower case continues the sentence before it ("Is it true?" she asked.); a piece after a
 * reference abbreviation ("Fig.", "No.", "est.", "Ph.") or a title ("Gen.", "Capt.") continues;
 * a bare list number ("1.") opens the sentence after it.
 */
import type { SentenceSpan } from './types'
import { runWink, type WinkPass } from './wink'

/** Lines shorter than this that end without a full stop are headings or list rows, not wrapped text. */
const WRAP_MIN_LINE = 60
const BLOCK_MARKER = /^[ \t]*(?:#{1,6}[ \t]|[-*+•][ \t]|\d{1,3}[.)][ \t]|>|\|)/
const LEADING_MARKUP = /^(?:#{1,6}[ \t]+|[-*+•][ \t]+|>[ \t]*|\d{1,3}[.)][ \t]+(?=\p{Lu}))/u

/** [start, end) ranges of text blocks that no sentence may cross. */
export function blocks(text: string): [number, number][] {
  const out: [number, number][] = []
  let blockStart = -1
  let prevLineLen = 0
  let prevHeading = false
  let pos = 0
  while (pos <= text.length) {
    let nl = text.indexOf('\n', pos)
    if (nl < 0) nl = text.length
    const line = text.slice(pos, nl)
    const trimmed = line.trim()
    if (!trimmed) {
      if (blockStart >= 0) out.push([blockStart, pos])
      blockStart = -1
    } else if (blockStart < 0) {
      blockStart = pos
    } else {
      const continues = !prevHeading && !BLOCK_MARKER.test(line) && (/^\p{Ll}/u.test(trimmed) || prevLineLen >= WRAP_MIN_LINE)
      if (!continues) {
        out.push([blockStart, pos])
        blockStart = pos
      }
    }
    if (trimmed) {
      prevLineLen = trimmed.length
      prevHeading = /^#{1,6}[ \t]/.test(trimmed)
    }
    pos = nl + 1
  }
  if (blockStart >= 0) out.push([blockStart, text.length])
  return out
}

/**
 * Longest block read in one wink pass. A longer block (a hard-wrapped book without blank lines, a file
 * that is one line) is cut at the last sentence-like boundary before the limit, so the cost and the
 * memory of a pass stay bounded. Cuts depend on the text alone, so sentence numbering is stable.
 */
export const MAX_BLOCK_CHARS = 100_000

const CUT_AFTER_LINE = /[.!?]["'”’)\]]*[ \t]*\n/g
const CUT_AFTER_SENTENCE = /[.!?]["'”’)\]]*\s+(?=["'“‘(\[]?\p{Lu})/gu
const CUT_AFTER_SPACE = /\s+/g

/** End of the last match of `re` in `window`, or -1. */
function lastMatchEnd(re: RegExp, window: string): number {
  re.lastIndex = 0
  let end = -1
  for (let m = re.exec(window); m; m = re.exec(window)) {
    end = m.index + m[0].length
    if (m[0].length === 0) re.lastIndex++
  }
  return end
}

/** Where to cut a block that starts at `start` and is longer than `max`: after a line-ending sentence, a sentence, a space, or at `max`. */
function cutPoint(text: string, start: number, max: number): number {
  const from = start + Math.floor(max / 2)
  const window = text.slice(from, start + max)
  for (const re of [CUT_AFTER_LINE, CUT_AFTER_SENTENCE, CUT_AFTER_SPACE]) {
    const end = lastMatchEnd(re, window)
    if (end > 0) return from + end
  }
  let cut = start + max
  const code = text.charCodeAt(cut - 1)
  if (code >= 0xd800 && code <= 0xdbff) cut-- // never between the halves of a surrogate pair
  return cut
}

/** `blocks(text)` with every block longer than `max` characters cut into pieces of at most `max`. */
export function boundedBlocks(text: string, max = MAX_BLOCK_CHARS): [number, number][] {
  const out: [number, number][] = []
  for (const [blockStart, blockEnd] of blocks(text)) {
    let start = blockStart
    while (blockEnd - start > max) {
      const cut = cutPoint(text, start, max)
      out.push([start, cut])
      start = cut
    }
    out.push([start, blockEnd])
  }
  return out
}

/** A block's wink pass and its sentences as inclusive token ranges (after the lower-case fix-up). */
export interface SegmentedBlock {
  offset: number
  pass: WinkPass
  sentences: [number, number][]
}

const isContent = (kind: string): boolean => kind !== 'tabCRLF' && kind !== 'spaces'

/** Abbreviations after which a sentence never ends (they precede a name). */
const TITLE_ABBREVIATIONS = new Set(['mr', 'mrs', 'ms', 'dr', 'prof', 'st', 'mt', 'gen', 'col', 'lt', 'sgt', 'capt', 'cmdr', 'adm', 'rev', 'hon', 'sen', 'rep', 'gov', 'pres', 'messrs', 'mme', 'mlle', 'ft'])
/** Abbreviations after which a sentence goes on when a number, a lower-case word or an initial follows. */
const REFERENCE_ABBREVIATIONS = new Set(['fig', 'figs', 'est', 'approx', 'no', 'nos', 'vol', 'vols', 'pp', 'p', 'ch', 'chap', 'sec', 'eq', 'eqs', 'ref', 'refs', 'ed', 'eds', 'ca', 'c', 'cf', 'vs', 'op', 'art', 'para', 'ph', 'nr', 'tel', 'ext', 'ibid', 'al'])

/** Each block of `ranges` (default: all of `text`'s blocks) read by wink and split into sentences. */
export function segment(text: string, ranges: readonly (readonly [number, number])[] = boundedBlocks(text)): SegmentedBlock[] {
  const out: SegmentedBlock[] = []
  for (const [bStart, bEnd] of ranges) {
    const sub = text.slice(bStart, bEnd)
    const pass = runWink(sub)
    const merged: [number, number][] = []
    for (const [a0, b0] of pass.sentences) {
      let a = a0
      let b = b0
      while (a <= b && !isContent(pass.tokens[a]!.kind)) a++
      while (b >= a && !isContent(pass.tokens[b]!.kind)) b--
      if (a > b) continue
      const prev = merged[merged.length - 1]
      if (prev && gluesToPrevious(pass, prev[0], a, b)) prev[1] = b
      else merged.push([a, b])
    }
    out.push({ offset: bStart, pass, sentences: merged })
  }
  return out
}

/** Whether the piece over tokens `a..b` continues the sentence that ends at token `a - 1`. */
function gluesToPrevious(pass: WinkPass, prevFirst: number, a: number, b: number): boolean {
  const { tokens } = pass
  let k = a
  while (k <= b && tokens[k]!.kind === 'punctuation') k++
  if (k > b) return true // nothing but punctuation
  const t = tokens[k]!
  if (t.kind === 'word' && /^\p{Ll}/u.test(t.text)) return true
  // A previous piece that is only a list number ("1.") is a marker, not a sentence.
  if (a - prevFirst <= 2 && tokens[prevFirst]!.kind === 'number' && /^\d{1,3}$/.test(tokens[prevFirst]!.text)) return true
  const abbrev = endingAbbreviation(pass, prevFirst, a - 1)
  if (!abbrev) return false
  if (TITLE_ABBREVIATIONS.has(abbrev)) return true
  return REFERENCE_ABBREVIATIONS.has(abbrev) && (t.kind === 'number' || /^\p{Lu}\.$/u.test(t.text))
}

/** The lower-case abbreviation a piece ends with ("Fig." as one token or "Fig" + "."), or undefined. */
function endingAbbreviation(pass: WinkPass, first: number, last: number): string | undefined {
  const t = pass.tokens[last]!
  if (t.kind === 'word' && t.text.endsWith('.') && !t.text.slice(0, -1).includes('.')) return t.text.slice(0, -1).toLowerCase()
  const w = pass.tokens[last - 1]
  if (t.text === '.' && last > first && w && w.kind === 'word' && w.end === t.start) return w.text.toLowerCase()
  return undefined
}

/** Sentence spans of `text`; `text.slice(start, end) === sentence.text`, markdown heading/bullet marks left out. */
export function splitSentences(text: string): SentenceSpan[] {
  return sentencesOfBlocks(text, boundedBlocks(text))
}

/**
 * Sentence spans of some of `text`'s blocks (a run of `boundedBlocks(text)`): a long text split
 * piece by piece gives the same sentences as `splitSentences(text)`, since no sentence crosses a block.
 */
export function sentencesOfBlocks(text: string, ranges: readonly (readonly [number, number])[]): SentenceSpan[] {
  const out: SentenceSpan[] = []
  for (const block of segment(text, ranges)) for (const span of spansOf(text, block)) out.push(span)
  return out
}

export function spansOf(text: string, block: SegmentedBlock): SentenceSpan[] {
  const { tokens } = block.pass
  return block.sentences.map(([a, b]) => {
    let start = block.offset + tokens[a]!.start
    const end = block.offset + tokens[b]!.end
    const markup = LEADING_MARKUP.exec(text.slice(start, Math.min(end, start + 12)))
    if (markup && markup[0].length < end - start) start += markup[0].length
    return { text: text.slice(start, end), start, end }
  })
}
