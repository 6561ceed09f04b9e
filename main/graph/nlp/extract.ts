/**
 * The extraction pipeline: one wink pass (tokens, POS, value entities) -> value mentions ->
 * proper-noun chunks over the remaining capitalised tokens -> typing -> document-level fixes
 * (surname-only and acronym mentions inherit the type of their full form) -> canonical keys.
 */
import { canonicalise } from './canonical'
import { nameChunks } from './names'
import { segment, spansOf } from './sentences'
import type { EntityType, Mention, SentenceSpan } from './types'
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

/** Raw mentions of one sentence with the token array they index. */
interface SentenceGroup {
  tokens: readonly Token[]
  mentions: RawMention[]
}

const LIST_JOINERS = new Set([',', 'and', 'or', '&'])
const LIST_TYPES = new Set<EntityType>(['PERSON', 'ORG', 'GPE', 'LOC'])

/**
 * Document-level type fixes over all sentences of a batch: "Okafor" after "Amara Okafor" (PERSON)
 * is a person too; "(IBM)" and the name right before it share a type; an untyped member of a list
 * ("Reykjavik, Bergen and Tromsø") takes the type of its typed neighbour.
 */
function harmonise(groups: readonly SentenceGroup[]): void {
  const personSurnames = new Set<string>()
  for (const { tokens, mentions } of groups) {
    for (const m of mentions) if (m.type === 'PERSON' && m.last > m.first) personSurnames.add(tokens[m.last]!.text)
  }
  for (const { tokens, mentions } of groups) {
    mentions.forEach((m, i) => {
      const prev = mentions[i - 1]
      if (m.first === m.last) {
        const word = tokens[m.first]!.text
        if (m.type === 'PROPN' && personSurnames.has(word)) m.type = 'PERSON'
        const parenthesised = tokens[m.first - 1]?.text === '(' && tokens[m.last + 1]?.text === ')'
        if (prev && parenthesised && prev.last === m.first - 2 && /^\p{Lu}{2,}/u.test(word)) {
          // The long form was typed from its words, the acronym only by shape: the long form wins.
          if (prev.type !== 'PROPN') m.type = prev.type
          else prev.type = m.type
        }
      }
    })
    // Lists: two passes so that a type can travel both ways along "A, B and C".
    for (let pass = 0; pass < 2; pass++) {
      for (let i = 0; i < mentions.length; i++) {
        const m = mentions[i]!
        if (m.type !== 'PROPN') continue
        const before = mentions[i - 1]
        const after = mentions[i + 1]
        if (before && LIST_TYPES.has(before.type) && before.last === m.first - 2 && LIST_JOINERS.has(tokens[m.first - 1]!.text)) m.type = before.type
        else if (after && LIST_TYPES.has(after.type) && after.first === m.last + 2 && LIST_JOINERS.has(tokens[m.last + 1]!.text)) m.type = after.type
      }
    }
  }
}

function toMention(tokens: readonly Token[], source: string, base: number, raw: RawMention): Mention {
  const start = tokens[raw.first]!.start - base
  let end = tokens[raw.last]!.end - base
  // wink glues a sentence-final period to a roman numeral or initial: "World War I." -> "World War I".
  if (raw.first < raw.last && /^\p{Lu}{1,4}\.$/u.test(tokens[raw.last]!.text) && !/\./.test(tokens[raw.last]!.text.slice(0, -1)) && isSentenceEnd(tokens, raw.last)) end -= 1
  const surface = source.slice(start, end)
  return { surface, start, end, type: raw.type, canonical: canonicalise(surface, raw.type) }
}

function isSentenceEnd(tokens: readonly Token[], i: number): boolean {
  const next = tokens[i + 1]
  return !next || next.kind === 'tabCRLF' || (next.kind === 'word' && /^\p{Lu}/u.test(next.text)) || next.text === '"' || next.text === '”'
}

const SEPARATOR = '\n\n'

/**
 * Mentions of each sentence, in one wink pass over all of them. Sentences of one document should
 * go in one call: surname-only mentions borrow the type of full names seen in the same batch.
 */
export function extractEntitiesBatch(sentences: readonly string[]): Mention[][] {
  if (sentences.length === 0) return []
  const joined = sentences.join(SEPARATOR)
  const pass = runWink(joined)
  const { tokens } = pass
  const ranges: [number, number, number][] = [] // [base offset, first token, last token]
  let base = 0
  let k = 0
  for (const s of sentences) {
    const end = base + s.length
    while (k < tokens.length && tokens[k]!.start < base) k++
    const first = k
    while (k < tokens.length && tokens[k]!.end <= end) k++
    ranges.push([base, first, k - 1])
    base = end + SEPARATOR.length
  }
  const groups = ranges.map(([, first, last]) => ({ tokens, mentions: last >= first ? sentenceMentions(tokens, pass, first, last) : [] }))
  harmonise(groups)
  return groups.map((group, i) => {
    const [offset] = ranges[i]!
    const sentence = sentences[i]!
    return group.mentions.map((raw) => toMention(tokens, sentence, offset, raw))
  })
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
  const groups = blocks.map((block) =>
    block.sentences.map(([a, b]) => ({ tokens: block.pass.tokens, mentions: sentenceMentions(block.pass.tokens, block.pass, a, b) })),
  )
  // One document: a surname in one block can borrow the type of a full name in another.
  harmonise(groups.flat())
  const out: AnalysedSentence[] = []
  blocks.forEach((block, bi) => {
    spansOf(text, block).forEach((span, si) => {
      const base = span.start - block.offset
      const mentions = groups[bi]![si]!.mentions.map((raw) => toMention(block.pass.tokens, span.text, base, raw))
      out.push({ ...span, mentions: mentions.filter((m) => m.start >= 0) })
    })
  })
  return out
}
