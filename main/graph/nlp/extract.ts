/**
 * The extraction pipeline: one wink pass (tokens, POS, value entities) -> value mentions ->
 * proper-noun chunks over the remaining capitalised tokens -> typing -> document-level fixes
 * (surname-only and acronym mentions inherit the type of their full form) -> canonical keys.
 */
import { canonicalise } from './canonical'
import { nameChunks } from './names'
import { segment, spansOf } from './sentences'
import { isValueType, type EntityType, type Mention, type SentenceSpan } from './types'
import { typeChunk } from './typing'
import { valueSpans } from './values'
import { runWink, type Token, type WinkPass } from './wink'

/** A sentence of `analyseText` with its mentions; mention offsets are relative to `text`. */
export interface AnalysedSentence extends SentenceSpan {
  mentions: Mention[]
}

interface RawMention {
  first: number
  last: number
  type: EntityType
}

/** Raw mentions of the sentence over tokens `from..to`, in token order. */
function sentenceMentions(tokens: readonly Token[], pass: WinkPass, from: number, to: number): RawMention[] {
  const values = valueSpans(tokens, pass.entities, from, to)
  const taken = new Uint8Array(to - from + 1)
  for (const v of values) for (let k = v.first; k <= v.last; k++) taken[k - from] = 1
  const out: RawMention[] = values.map((v) => ({ first: v.first, last: v.last, type: v.type }))
  for (const chunk of nameChunks(tokens, from, to, taken)) {
    out.push({ first: chunk.first, last: chunk.last, type: typeChunk(tokens, chunk, from, to) })
  }
  return out.sort((a, b) => a.first - b.first)
}

/**
 * A raw mention with what the document-level fixes need to know about its neighbourhood, read off
 * the token array of its pass while that array is at hand. Fixes then run over these records alone,
 * so a long document can be read in pieces (one wink pass each) and still be fixed as one document.
 */
interface Candidate {
  /** Token indices in the candidate's own pass: only compared within one sentence. */
  first: number
  last: number
  type: EntityType
  firstText: string
  lastText: string
  /** "(" right before and ")" right after the mention. */
  parenthesised: boolean
  /** A list joiner (",", "and", ...) right before / right after. */
  joinerBefore: boolean
  joinerAfter: boolean
  surface: string
  start: number
  end: number
}

const LIST_JOINERS = new Set([',', 'and', 'or', '&'])
const LIST_TYPES = new Set<EntityType>(['PERSON', 'ORG', 'GPE', 'LOC'])

function candidate(tokens: readonly Token[], source: string, base: number, raw: RawMention): Candidate {
  const start = tokens[raw.first]!.start - base
  let end = tokens[raw.last]!.end - base
  // wink glues a sentence-final period to a roman numeral or initial: "World War I." -> "World War I".
  if (raw.first < raw.last && /^\p{Lu}{1,4}\.$/u.test(tokens[raw.last]!.text) && !/\./.test(tokens[raw.last]!.text.slice(0, -1)) && isSentenceEnd(tokens, raw.last)) end -= 1
  const before = tokens[raw.first - 1]?.text
  const after = tokens[raw.last + 1]?.text
  return {
    first: raw.first,
    last: raw.last,
    type: raw.type,
    firstText: tokens[raw.first]!.text,
    lastText: tokens[raw.last]!.text,
    parenthesised: before === '(' && after === ')',
    joinerBefore: before !== undefined && LIST_JOINERS.has(before),
    joinerAfter: after !== undefined && LIST_JOINERS.has(after),
    surface: source.slice(start, end),
    start,
    end,
  }
}

/**
 * Document-level type fixes over all sentences of a document: "Okafor" after "Amara Okafor" (PERSON)
 * is a person too; "(IBM)" and the name right before it share a type; an untyped member of a list
 * ("Reykjavik, Bergen and Tromsø") takes the type of its typed neighbour.
 */
function harmonise(groups: readonly Candidate[][]): void {
  const personSurnames = new Set<string>()
  for (const mentions of groups) {
    for (const m of mentions) if (m.type === 'PERSON' && m.last > m.first) personSurnames.add(m.lastText)
  }
  for (const mentions of groups) {
    mentions.forEach((m, i) => {
      const prev = mentions[i - 1]
      if (m.first === m.last) {
        const word = m.firstText
        if (m.type === 'NAME' && personSurnames.has(word)) m.type = 'PERSON'
        if (prev && m.parenthesised && prev.last === m.first - 2 && /^\p{Lu}{2,}/u.test(word)) {
          // The long form was typed from its words, the acronym only by shape: the long form wins.
          if (prev.type !== 'NAME') m.type = prev.type
          else prev.type = m.type
        }
      }
    })
    // Lists: two passes so that a type can travel both ways along "A, B and C".
    for (let pass = 0; pass < 2; pass++) {
      for (let i = 0; i < mentions.length; i++) {
        const m = mentions[i]!
        if (m.type !== 'NAME') continue
        const before = mentions[i - 1]
        const after = mentions[i + 1]
        if (before && LIST_TYPES.has(before.type) && before.last === m.first - 2 && m.joinerBefore) m.type = before.type
        else if (after && LIST_TYPES.has(after.type) && after.first === m.last + 2 && m.joinerAfter) m.type = after.type
      }
    }
  }
  typeUntypedByName(groups)
}

/**
 * An untyped name (NAME) takes the type its name has elsewhere in the document: "Lagos" read as GPE
 * in one sentence is GPE where no cue typed it. The most frequent type wins, ties to the first seen.
 */
function typeUntypedByName(groups: readonly Candidate[][]): void {
  const types = new Map<string, Map<EntityType, number>>()
  for (const mentions of groups) {
    for (const m of mentions) {
      if (m.type === 'NAME' || isValueType(m.type)) continue
      const key = canonicalise(m.surface, 'NAME')
      let votes = types.get(key)
      if (!votes) types.set(key, (votes = new Map()))
      votes.set(m.type, (votes.get(m.type) ?? 0) + 1)
    }
  }
  if (types.size === 0) return
  for (const mentions of groups) {
    for (const m of mentions) {
      if (m.type !== 'NAME') continue
      const votes = types.get(canonicalise(m.surface, 'NAME'))
      if (!votes) continue
      let best: EntityType = 'NAME'
      let n = 0
      for (const [type, count] of votes) if (count > n) [best, n] = [type, count]
      m.type = best
    }
  }
}

const toMention = (c: Candidate): Mention => ({ surface: c.surface, start: c.start, end: c.end, type: c.type, canonical: canonicalise(c.surface, c.type) })

function isSentenceEnd(tokens: readonly Token[], i: number): boolean {
  const next = tokens[i + 1]
  return !next || next.kind === 'tabCRLF' || (next.kind === 'word' && /^\p{Lu}/u.test(next.text)) || next.text === '"' || next.text === '”'
}

const SEPARATOR = '\n\n'

/**
 * Mentions of a document's sentences, fed in batches: each `add` is one wink pass over its sentences
 * (joined by blank lines), `finish` applies the document-level fixes over everything added and returns
 * the mentions of every sentence in order. Feeding a long document in bounded batches keeps each pass,
 * and the memory it holds, bounded; only the compact candidates of the whole document are kept.
 */
export class EntityExtractor {
  private readonly groups: Candidate[][] = []

  /** Adds the next sentences of the document. */
  add(sentences: readonly string[]): void {
    if (sentences.length === 0) return
    const pass = runWink(sentences.join(SEPARATOR))
    const { tokens } = pass
    let base = 0
    let k = 0
    for (const sentence of sentences) {
      const end = base + sentence.length
      while (k < tokens.length && tokens[k]!.start < base) k++
      const first = k
      while (k < tokens.length && tokens[k]!.end <= end) k++
      const last = k - 1
      const raw = last >= first ? sentenceMentions(tokens, pass, first, last) : []
      this.groups.push(raw.map((r) => candidate(tokens, sentence, base, r)))
      base = end + SEPARATOR.length
    }
  }

  /** Sentences added so far. */
  get size(): number {
    return this.groups.length
  }

  /** Mentions of every sentence added, offsets relative to its sentence. */
  finish(): Mention[][] {
    harmonise(this.groups)
    return this.groups.map((group) => group.map(toMention))
  }

  /**
   * `finish` without a copy: the candidates themselves, completed into mentions (they carry a few more
   * fields). For long documents, where a second object per mention would double the memory.
   */
  finishInPlace(): Mention[][] {
    harmonise(this.groups)
    for (const group of this.groups) for (const c of group) (c as Candidate & { canonical: string }).canonical = canonicalise(c.surface, c.type)
    return this.groups as unknown as Mention[][]
  }
}

/**
 * Mentions of each sentence, in one wink pass over all of them. Sentences of one document should
 * go in one call (or one EntityExtractor): surname-only mentions borrow the type of full names seen
 * in the same document.
 */
export function extractEntitiesBatch(sentences: readonly string[]): Mention[][] {
  const extractor = new EntityExtractor()
  extractor.add(sentences)
  return extractor.finish()
}

/** Mentions of one sentence; offsets are relative to `sentence`. */
export function extractEntities(sentence: string): Mention[] {
  return extractEntitiesBatch([sentence])[0] ?? []
}

/**
 * Sentences and their mentions in one pass: the fast path for building the graph from a paragraph
 * (each block of the text goes through wink once, not once to split and once to extract).
 */
export function analyseText(text: string): AnalysedSentence[] {
  const blocks = segment(text)
  const spans = blocks.map((block) => spansOf(text, block))
  const groups = blocks.map((block, bi) =>
    block.sentences.map(([a, b], si) => {
      const span = spans[bi]![si]!
      const base = span.start - block.offset
      return sentenceMentions(block.pass.tokens, block.pass, a, b).map((raw) => candidate(block.pass.tokens, span.text, base, raw))
    }),
  )
  // One document: a surname in one block can borrow the type of a full name in another.
  harmonise(groups.flat())
  const out: AnalysedSentence[] = []
  spans.forEach((blockSpans, bi) => {
    blockSpans.forEach((span, si) => {
      out.push({ ...span, mentions: groups[bi]![si]!.map(toMention).filter((m) => m.start >= 0) })
    })
  })
  return out
}
