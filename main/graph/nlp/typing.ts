/**
 * Types a proper-noun chunk from its own words, a lexicon and a little context, in decreasing
 * order of reliability: quoted title, honorific, demonym, whole-phrase lexicon, head words
 * ("... University", "Mount ..."), acronyms, given names and surnames, neighbouring cue words.
 * What none of these settles stays NAME, an untyped proper name (still a valid LOOKUP target).
 */
import type { NameType } from './types'
import type { Token } from './wink'
import { isCommonWord } from './wink'
import { lexClass, type LexClass } from './gazetteer'
import { isDemonym } from './demonyms'
import type { NameChunk } from './names'
import {
  EVENT_HEADS,
  EVENT_OPENERS,
  FAC_HEADS,
  LANGUAGE_HEADS,
  LANGUAGES,
  LAW_HEADS,
  LOC_HEADS,
  LOC_OPENERS,
  ORG_HEADS,
  ORG_OPENERS,
  PERSON_CUES,
  PERSON_VERB_CUES,
  PLACE_PREPOSITIONS,
} from './word-lists'

const GPE_HEADS = new Set(['republic', 'kingdom', 'empire', 'states', 'emirates', 'province', 'county', 'territory', 'principality', 'duchy', 'city', 'commonwealth'])
const ROMAN_OR_NUMBER = /^(?:[IVXLC]+|\d+)$/

const FROM_LEX: Record<LexClass, NameType> = { first: 'PERSON', last: 'PERSON', person: 'PERSON', gpe: 'GPE', loc: 'LOC', org: 'ORG' }

const key = (t: Token): string => t.text.toLowerCase().replace(/\.$/, '')
/** Lexicon class of a word or phrase as written or without its final period ("U.S.", "Inc"). */
const lex = (s: string): LexClass | undefined => lexClass(s) ?? lexClass(`${s}.`)

/** Type of a head word, or undefined; the order settles "Kumo Games" (ORG) vs "Harbour Tower" (FAC). */
function headType(word: string): NameType | undefined {
  if (ORG_HEADS.has(word)) return 'ORG'
  if (GPE_HEADS.has(word)) return 'GPE'
  if (LOC_HEADS.has(word)) return 'LOC'
  if (FAC_HEADS.has(word)) return 'FAC'
  if (EVENT_HEADS.has(word)) return 'EVENT'
  if (LAW_HEADS.has(word)) return 'LAW'
  if (LANGUAGE_HEADS.has(word)) return 'LANGUAGE'
  return undefined
}

export function typeChunk(tokens: readonly Token[], chunk: NameChunk, sentenceFirst: number, sentenceLast: number): NameType {
  if (chunk.quotedTitle) return 'WORK_OF_ART'
  if (chunk.titled) return 'PERSON'
  const words: Token[] = []
  for (let k = chunk.first; k <= chunk.last; k++) if (tokens[k]!.kind === 'word') words.push(tokens[k]!)
  const keys = words.map(key)
  const surface = words.map((w) => w.text).join(' ')
  if (isDemonym(surface)) return 'NORP'
  if (keys.length === 1 && LANGUAGES.has(keys[0]!)) return 'LANGUAGE'

  // Whole phrase in the lexicon: "general electric", "san francisco", "the beatles".
  const phrase = keys.join(' ')
  const prev = tokens[chunk.first - 1]
  const whole = lex(phrase) ?? lex(phrase.replace(/^st /, 'saint ')) ?? (prev && key(prev) === 'the' ? lex(`the ${phrase}`) : undefined)
  if (whole && (keys.length > 1 || (whole !== 'first' && whole !== 'last'))) return FROM_LEX[whole]

  for (let k = chunk.first; k <= chunk.last; k++) if (tokens[k]!.text === '&') return 'ORG'
  if (keys.some((k) => k === 'olympic' || k === 'olympics')) return 'EVENT'

  // Head words: the word before "of" ("Institute of Science"), else the last word ("Stanford University").
  const ofAt = keys.indexOf('of')
  const opener = keys[0]!
  if (keys.length > 1) {
    if (ofAt > 0) {
      const head = keys[ofAt - 1]!
      if (EVENT_OPENERS.has(head)) return LAW_HEADS.has(head) ? 'LAW' : 'EVENT'
      const t = headType(head) ?? (ORG_OPENERS.has(head) ? 'ORG' : undefined)
      if (t) return t
    }
    let lastKey = keys[keys.length - 1]!
    if (ROMAN_OR_NUMBER.test(keys[keys.length - 1]!.toUpperCase()) && keys.length > 1) lastKey = keys[keys.length - 2]!
    const t = headType(lastKey)
    if (t) return t
    if (LOC_OPENERS.has(opener)) return 'LOC'
  } else {
    // "the Senate", "the Navy": a capitalised institution word after "the", mid-sentence.
    const only = keys[0]!
    if (ORG_HEADS.has(only) && (!isCommonWord(only) || (prev && key(prev) === 'the'))) return 'ORG'
  }

  const word = words[0]!.text
  if (keys.length === 1 && /^\p{Lu}{2,6}s?$/u.test(word) && !lex(keys[0]!)) return 'ORG' // IBM, NASA, UNESCO

  // Personal names: a known given name first, or a known surname last, with nothing place-like.
  const classes = keys.map(lex)
  if (keys.length >= 2 && keys.length <= 4) {
    if (classes[0] === 'first' || classes[0] === 'person' || classes[classes.length - 1] === 'last') return 'PERSON'
  }
  if (keys.length === 1) {
    const c = classes[0]
    if (c) return FROM_LEX[c]
  }

  // Context: "the economist Amara Okafor", "Gustav Lindqvist, a Swedish engineer", "Okafor said".
  const before = prev ? key(prev) : ''
  if (PERSON_CUES.has(before)) return 'PERSON'
  if (appositivePerson(tokens, chunk.last, sentenceLast)) return 'PERSON'
  const after1 = tokens[chunk.last + 1]
  const after2 = tokens[chunk.last + 2]
  if (after1 && (PERSON_VERB_CUES.has(key(after1)) || (after2 && PERSON_VERB_CUES.has(`${key(after1)}-${key(after2)}`)))) return 'PERSON'
  if (keys.length === 1 && PLACE_PREPOSITIONS.has(before) && chunk.first > sentenceFirst) return 'GPE'

  // Two or three unknown capitalised words with no other signal: in encyclopedic text, a person.
  if (keys.length >= 2 && keys.length <= 3 && keys.every((k) => !isCommonWord(k) && !lex(k))) return 'PERSON'
  if (keys.length >= 2 && keys.length <= 3 && classes.some((c) => c === 'first' || c === 'last' || c === 'person')) return 'PERSON'
  return 'NAME'
}

/** "X, a Swedish engineer" / "X, an English navigator": comma, article, optional adjectives, person noun. */
function appositivePerson(tokens: readonly Token[], last: number, sentenceLast: number): boolean {
  if (tokens[last + 1]?.text !== ',') return false
  const art = tokens[last + 2]
  if (!art || !/^(a|an|the)$/i.test(art.text)) return false
  for (let k = last + 3; k <= Math.min(sentenceLast, last + 6); k++) {
    const t = tokens[k]!
    if (PERSON_CUES.has(key(t))) return true
    if (t.kind !== 'word') return false
  }
  return false
}
