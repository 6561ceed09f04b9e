/**
 * One answer per bridge question, checked against the corpus itself: follow the question's words as a
 * searcher would and collect every answer they lead to. The first document (by title) must hold one
 * thing of the named kind where the cue points (mentions from the graph; a capitalised word the graph
 * did not type counts as another candidate); the second hop must be the article on it, or the one
 * other sentence naming it (by any of its names, found through its mentions and the full-text index)
 * with the given words next to it; and there, every span of the asked kind where the answer cue points
 * (or every one, without a cue) must read as the gold answer. Anything else is a drop, with its reason.
 */
import type { GenMention, GenSpan } from '../../corpus/repository'
import { normaliseAnswer } from '../../eval/normalise'
import type { GenerationDrop } from '../../../preload/contract'
import { cueFits, cueSites, wordAt, type Cue, type Span } from './cues'
import { normalisedName, type CorpusView, type ViewSentence } from './corpus-view'
import { typesOfWord, type BridgeReading } from './bridge-reading'

/** ok: the sentences that give the one answer (the gold sentence must be among them). */
export type BridgeVerdict = { ok: true; sentenceIds: number[] } | { ok: false; reason: GenerationDrop; because: string }

/** A span of a text that starts and ends on word boundaries (not "France" inside "Tour_de_France.png"). */
export const wholeWordIn = (text: string, m: Span): boolean => !/[\p{L}\p{N}_]/u.test(text[m.start - 1] ?? ' ') && !/[\p{L}\p{N}_]/u.test(text[m.end] ?? ' ')

/** A mention that starts and ends on word boundaries. */
export const wholeWord = (m: Pick<GenMention, 'text' | 'start' | 'end'>): boolean => wholeWordIn(m.text, m)

/** The names a thing goes by in the question's corpus: its entity's name and surfaces; a person also by surname. */
interface Thing {
  entityIds: Set<number>
  names: Set<string>
  types: Set<string>
}

const wordsOf = (s: string): string[] => normalisedName(s).split(' ').filter(Boolean)

/** Two names of one thing: equal, or one is the other's last words ("Shakespeare", "William Shakespeare"). */
function sameName(a: string, b: string): boolean {
  const x = wordsOf(a)
  const y = wordsOf(b)
  if (x.length === 0 || y.length === 0) return false
  const [short, long] = x.length <= y.length ? [x, y] : [y, x]
  return short.every((w, i) => w === long[long.length - short.length + i])
}

const sameThing = (t: Thing, name: string): boolean => [...t.names].some((n) => sameName(n, name))

/** Every name to look for when the thing may be named again: a person's surname as well. */
function aliases(t: Thing): string[] {
  const out = new Set(t.names)
  if (t.types.has('PERSON')) {
    for (const n of t.names) {
      const w = n.trim().split(/\s+/)
      const last = w[w.length - 1]!
      if (w.length > 1 && last.length >= 4 && /^\p{Lu}/u.test(last)) out.add(last)
    }
  }
  return [...out]
}

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** Finds the spans of a text where any of the names stands as whole words (case ignored). */
function occurrencesOf(names: readonly string[]): (text: string) => Span[] {
  const lower = names.map((n) => n.toLowerCase())
  const re = new RegExp(`(?<![\\p{L}\\p{N}_])(?:${[...names].sort((a, b) => b.length - a.length).map(escape).join('|')})(?![\\p{L}\\p{N}_])`, 'giu')
  return (text) => {
    const t = text.toLowerCase()
    if (!lower.some((n) => t.includes(n))) return []
    return [...text.matchAll(re)].map((m) => ({ start: m.index, end: m.index + m[0].length }))
  }
}

/** What a reader finds where a cue points in the sentences: mentions of the types, and capitalised words or numbers no mention covers. */
function atCue(sentences: readonly ViewSentence[], cue: Cue, types: readonly string[]): { mentions: { m: GenSpan; sentenceId: number }[]; unknown: string[] } {
  const mentions: { m: GenSpan; sentenceId: number }[] = []
  const unknown: string[] = []
  for (const s of sentences) {
    for (const site of cueSites(s.text, cue)) {
      const here = s.mentions.filter((m) => wholeWordIn(s.text, m) && (cue.side === 'after' ? m.start === site : m.end === site))
      const typed = here.filter((m) => types.includes(m.type))
      if (typed.length > 0) {
        for (const m of typed) mentions.push({ m, sentenceId: s.id })
        continue
      }
      if (here.length > 0) continue
      const word = wordAt(s.text, site, cue.side)
      if (/^[\p{Lu}\p{N}]/u.test(word)) unknown.push(word)
    }
  }
  return { mentions, unknown }
}

/** Answers of the types in the sentences where the cue points (every one without a cue), normalised, with the sentences that give each. */
function answersIn(sentences: readonly ViewSentence[], types: readonly string[], cue: Cue | null): Map<string, Set<number>> {
  const found = new Map<string, Set<number>>()
  const add = (answer: string, sentenceId: number): void => {
    const at = found.get(answer)
    if (at) at.add(sentenceId)
    else found.set(answer, new Set([sentenceId]))
  }
  if (cue) {
    for (const s of sentences) {
      const { mentions, unknown } = atCue([s], cue, types)
      for (const { m } of mentions) add(normaliseAnswer(m.surface), s.id)
      for (const w of unknown) add(`?${normaliseAnswer(w)}`, s.id)
    }
    return found
  }
  for (const s of sentences) {
    const typed = s.mentions.filter((m) => wholeWordIn(s.text, m) && types.includes(m.type))
    for (const m of typed) add(normaliseAnswer(m.surface), s.id)
    // A year the graph did not read as a date is still a date to the reader.
    if (types.includes('DATE')) {
      for (const y of s.text.matchAll(/(?<![\p{L}\p{N}])(1\d{3}|20\d{2})(?![\p{L}\p{N}])/gu)) {
        if (!typed.some((m) => m.start <= y.index && y.index < m.end)) add(`?${y[0]}`, s.id)
      }
    }
  }
  return found
}

/** An unknown word at a cue is the thing itself when one of its names starts with it. */
const startsAName = (t: Thing, word: string): boolean => [...t.names].some((n) => normalisedName(n).startsWith(normalisedName(word)))

/**
 * The bridge entity the first hop points to, or why there is not exactly one: every mention of the
 * kind where the cue points in the document(s) with this title, grouped by name.
 */
function firstHop(view: CorpusView, r: BridgeReading): { thing: Thing; sentenceIds: Set<number> } | { ok: false; reason: GenerationDrop; because: string } {
  const documents = view.titled(r.title)
  if (documents.length === 0) return { ok: false, reason: 'gold-not-reached', because: `no document is titled "${r.title}"` }
  const sentences = documents.flatMap((d) => view.sentences(d))
  const { mentions, unknown } = atCue(sentences, r.bridgeCue, typesOfWord(r.bridgeWord))
  const things: Thing[] = []
  const sentenceIds = new Set<number>()
  for (const { m, sentenceId } of mentions) {
    sentenceIds.add(sentenceId)
    let t = things.find((x) => x.entityIds.has(m.entityId) || sameThing(x, m.name) || sameThing(x, m.surface))
    if (!t) things.push((t = { entityIds: new Set(), names: new Set(), types: new Set() }))
    t.entityIds.add(m.entityId)
    t.names.add(m.name)
    t.names.add(m.surface)
    t.types.add(m.type)
  }
  if (things.length === 0) return { ok: false, reason: 'gold-not-reached', because: `"${r.title}" has no ${r.bridgeWord} where the words point` }
  const others = unknown.filter((w) => !things.some((t) => startsAName(t, w)))
  if (things.length > 1 || others.length > 0) {
    const names = [...things.map((t) => [...t.names][0]!), ...others]
    return { ok: false, reason: 'bridge-not-unique', because: `"${r.title}" has ${names.length} candidates where the words point: ${names.slice(0, 4).join(', ')}` }
  }
  return { thing: things[0]!, sentenceIds }
}

/** Checks that the question's words lead to one answer, `answer`. */
export function checkBridge(view: CorpusView, r: BridgeReading, answer: string): BridgeVerdict {
  const first = firstHop(view, r)
  if ('ok' in first) return first
  const { thing, sentenceIds } = first
  let scope: ViewSentence[]
  if (r.second.kind === 'article-on') {
    const documents = [...new Set([...thing.names].flatMap((n) => view.articlesOn(n)))]
    if (documents.length === 0) return { ok: false, reason: 'second-hop-not-unique', because: `no article is on ${[...thing.names][0]}` }
    const titles = new Set(documents.map((d) => view.title(d)))
    scope = documents.flatMap((d) => view.sentences(d))
    if (titles.size > 1 && answersIn(scope, typesOfWord(r.answerWord), r.answerCue).size > 1) {
      return { ok: false, reason: 'second-hop-not-unique', because: `${titles.size} articles are on ${[...thing.names][0]}: ${[...titles].slice(0, 3).join(', ')}` }
    }
  } else {
    const cue = r.second.cue
    const names = aliases(thing)
    const occurrences = occurrencesOf(names)
    scope = []
    for (const d of view.documentsNaming([...thing.entityIds], names)) {
      for (const s of view.sentences(d)) {
        if (sentenceIds.has(s.id)) continue
        if (occurrences(s.text).some((o) => cueFits(s.text, o, cue))) scope.push(s)
      }
    }
    if (scope.length !== 1) {
      return { ok: false, reason: scope.length === 0 ? 'gold-not-reached' : 'second-hop-not-unique', because: `${scope.length} sentences name ${[...thing.names][0]} where the words point` }
    }
  }
  const found = answersIn(scope, typesOfWord(r.answerWord), r.answerCue)
  const at = found.get(normaliseAnswer(answer))
  if (!at) return { ok: false, reason: 'gold-not-reached', because: `the second hop does not give "${answer}"` }
  if (found.size > 1) return { ok: false, reason: 'answer-not-unique', because: `the second hop gives ${found.size} ${r.answerWord}s: ${[...found.keys()].slice(0, 4).join(', ')}` }
  return { ok: true, sentenceIds: [...at] }
}
