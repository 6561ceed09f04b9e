/**
 * What a bridge question says, as data: the first document by title, the bridge entity by its kind
 * and the words next to it there, the second hop (the article on that entity, the one other sentence
 * that names it with given words next to it, or a document by title), and the answer by its kind and,
 * when needed, the words next to it. The question's text is rendered from this reading and parsed back
 * to it, so the uniqueness check (bridge-check.ts) reads exactly what a searcher reads.
 */
import { cueText, type Cue } from './cues'

/** How a question names a kind of thing: one word per graph type. */
export const TYPE_WORD: Readonly<Record<string, string>> = {
  PERSON: 'person',
  ORG: 'organisation',
  GPE: 'place',
  LOC: 'place',
  FAC: 'place',
  EVENT: 'event',
  WORK_OF_ART: 'work',
  PRODUCT: 'product',
  LAW: 'law',
  NAME: 'name',
  DATE: 'date',
  NORP: 'group',
  MONEY: 'amount',
  PERCENT: 'percentage',
  CARDINAL: 'number',
  QUANTITY: 'quantity',
  LANGUAGE: 'language',
}

/** The graph types a reader takes a word to cover ("place": GPE, LOC and FAC). */
export const typesOfWord = (word: string): string[] => Object.keys(TYPE_WORD).filter((t) => TYPE_WORD[t] === word)

export type SecondHop =
  /** The article whose title is the bridge entity's name. */
  | { kind: 'article-on' }
  /** The one sentence outside the first hop that names the bridge entity with these words next to it. */
  | { kind: 'names'; cue: Cue }

export interface BridgeReading {
  title: string
  bridgeWord: string
  bridgeCue: Cue
  second: SecondHop
  answerWord: string
  /** null: the answer is the only one of its kind where the second hop points. */
  answerCue: Cue | null
}

const article = (word: string): string => (/^[aeiou]/.test(word) ? 'an' : 'a')

export function renderBridge(r: BridgeReading): string {
  const first = `"${r.title}" mentions ${article(r.bridgeWord)} ${r.bridgeWord}${cueText(r.bridgeCue)}.`
  if (r.second.kind === 'article-on') return `${first} What ${r.answerWord} does the article on that ${r.bridgeWord} give${cueText(r.answerCue)}?`
  return `${first} What ${r.answerWord} is given${cueText(r.answerCue)} in the one other sentence that names that ${r.bridgeWord}${cueText(r.second.cue)}?`
}

const CUE = String.raw`(?: right (after|before) the words "([^"]+)")?`
const FIRST = new RegExp(String.raw`^"(.+)" mentions an? ([a-z]+)${CUE}\. `)
const ARTICLE_ON = new RegExp(String.raw`^What ([a-z]+) does the article on that ([a-z]+) give${CUE}\?$`)
const NAMES = new RegExp(String.raw`^What ([a-z]+) is given${CUE} in the one other sentence that names that ([a-z]+)${CUE}\?$`)

const cueFrom = (side: string | undefined, words: string | undefined): Cue | null => (side && words ? { side: side as Cue['side'], words: words.split(' ') } : null)

/** The reading of a question in the bridge templates above, or null for any other text (a rewrite, an edit). */
export function parseBridge(text: string): BridgeReading | null {
  const first = FIRST.exec(text)
  if (!first) return null
  const [head, title, bridgeWord, side1, words1] = first
  const bridgeCue = cueFrom(side1, words1)
  if (!bridgeCue) return null
  const rest = text.slice(head.length)
  const on = ARTICLE_ON.exec(rest)
  if (on && on[2] === bridgeWord) return { title: title!, bridgeWord: bridgeWord!, bridgeCue, second: { kind: 'article-on' }, answerWord: on[1]!, answerCue: cueFrom(on[3], on[4]) }
  const names = NAMES.exec(rest)
  const secondCue = names ? cueFrom(names[5], names[6]) : null
  if (names && secondCue && names[4] === bridgeWord) return { title: title!, bridgeWord: bridgeWord!, bridgeCue, second: { kind: 'names', cue: secondCue }, answerWord: names[1]!, answerCue: cueFrom(names[2], names[3]) }
  return null
}
