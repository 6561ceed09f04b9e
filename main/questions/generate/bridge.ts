/**
 * Bridge questions: two documents joined by a named entity E. The first document's sentence names E
 * (hop 1); a sentence of a second document that names E gives the answer, another mention in it
 * (hop 2). The question names neither E nor the answer and quotes neither sentence: it describes E by
 * the first document's title and the few words its sentence puts next to E, names the second hop (the
 * article on E, or the one other sentence that names E with given words next to it), and describes the
 * answer by its kind and, when needed, the words next to it (bridge-reading.ts). A candidate is kept
 * only when the corpus itself gives its words one answer (bridge-check.ts) and both sentences are prose
 * (evidence.ts); otherwise it is dropped with the reason of the furthest check it reached.
 * Only entities whose type their own words support are used (entity-types.ts), and answers that name
 * something (quality.ts). Gold: both sentences, in hop order.
 */
import type { GenerationDrop } from '../../../preload/contract'
import type { GenMention, QuestionGenerationRepository } from '../../corpus/repository'
import { checkBridge, wholeWord, wholeWordIn } from './bridge-check'
import { renderBridge, TYPE_WORD, type BridgeReading, type SecondHop } from './bridge-reading'
import { normalisedName, type CorpusView } from './corpus-view'
import { cueOf } from './cues'
import { confidentType } from './entity-types'
import { goldQuoteShare, isStopPhrase, QUOTE_SHARE } from './quality'
import { furthest, type Outcomes } from './outcomes'
import type { GeneratedQuestion } from './types'

export { wholeWord } from './bridge-check'
export { relation } from './cues'

const VALUE_TYPES = new Set(['DATE', 'MONEY', 'PERCENT', 'CARDINAL', 'QUANTITY'])

export const BRIDGE_TYPES = ['PERSON', 'ORG', 'GPE', 'LOC', 'FAC', 'EVENT', 'WORK_OF_ART', 'PRODUCT', 'LAW', 'NAME']

/** Answer types in order of preference (a date or a name before a bare number). */
const ANSWER_TYPES = ['DATE', 'PERSON', 'ORG', 'GPE', 'LOC', 'FAC', 'EVENT', 'WORK_OF_ART', 'NORP', 'MONEY', 'PERCENT', 'QUANTITY', 'PRODUCT', 'LAW', 'LANGUAGE']

/** Sentences a mention of E is taken from, per document; answers tried per pair; pairs tried per entity. */
const MENTIONS_PER_DOCUMENT = 3
const ANSWERS_PER_PAIR = 4
const PAIRS_PER_ENTITY = 12

/** Sentences too short carry no clue; too long ones are not questions. */
const usableSentence = (text: string): boolean => text.length >= 30 && text.length <= 320

/** Single-word untyped names are mostly capitalised common words ("Category"): no bridge. */
const usableBridge = (m: GenMention): boolean => m.name.length >= 3 && confidentType(m.name, m.type)

export interface BridgeOptions {
  rand: () => number
  /** Stop once this many questions are kept. */
  cap: number
  throwIfCancelled(): void
  progress(share: number): void
}

export function bridgeQuestions(repo: QuestionGenerationRepository, view: CorpusView, options: BridgeOptions): Outcomes {
  const byEntity = new Map<number, Map<number, GenMention[]>>()
  for (const m of repo.bridgeMentions(BRIDGE_TYPES, 30)) {
    if (!usableBridge(m) || !usableSentence(m.text) || !wholeWord(m)) continue
    let docs = byEntity.get(m.entityId)
    if (!docs) byEntity.set(m.entityId, (docs = new Map()))
    // The document's first few usable sentences that name E (rows come in document order), one mention each.
    const list = docs.get(m.documentId) ?? []
    if (list.length < MENTIONS_PER_DOCUMENT && !list.some((x) => x.sentenceId === m.sentenceId)) docs.set(m.documentId, [...list, m])
  }
  // Two articles at least: passages of one article (one title) join nothing.
  const entities = [...byEntity.entries()].filter(([, docs]) => new Set([...docs.values()].map((l) => normalisedName(l[0]!.title))).size >= 2).map(([id]) => id)
  shuffle(entities, options.rand)
  const out: Outcomes = { questions: [], dropped: {} }
  for (const [i, entityId] of entities.entries()) {
    if (out.questions.length >= options.cap) break
    if (i % 50 === 0) {
      options.throwIfCancelled()
      options.progress(i / entities.length)
    }
    const outcome = bridgeFor(view, [...byEntity.get(entityId)!.values()], options.rand)
    if (typeof outcome === 'string') out.dropped[outcome] = (out.dropped[outcome] ?? 0) + 1
    else out.questions.push(outcome)
  }
  return out
}

/** The first pair of mentions (in the seed's order) that makes a question, or the furthest reason none did. */
function bridgeFor(view: CorpusView, docs: GenMention[][], rand: () => number): GeneratedQuestion | GenerationDrop {
  const pairs: [GenMention, GenMention][] = []
  for (const as of docs) {
    for (const bs of docs) {
      const [a0, b0] = [as[0]!, bs[0]!]
      // Different articles; the first hop is not the article on E itself (that hop would lead nowhere).
      if (normalisedName(a0.title) === normalisedName(b0.title) || normalisedName(a0.title) === normalisedName(a0.name)) continue
      for (const a of as) for (const b of bs) pairs.push([a, b])
    }
  }
  shuffle(pairs, rand)
  let reason: GenerationDrop = 'no-cue'
  for (const [a, b] of pairs.slice(0, PAIRS_PER_ENTITY)) {
    const q = build(view, a, b)
    if (typeof q !== 'string') return q
    reason = furthest(reason, q)
  }
  return reason
}

/** Answers must name something: a value with a digit, a name whose type its own words support. */
function usableAnswer(m: Pick<GenMention, 'surface' | 'type'>): boolean {
  if (isStopPhrase(m.surface)) return false
  // A date names a day, a month, a year or a century ("20 years" is a duration), and has no decimals (a footnote number run into it: "June 12, 1996.65").
  if (m.type === 'DATE') return /\b\d{3,4}s?\b|\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\b|\bcentur(y|ies)\b/i.test(m.surface) && /\d/.test(m.surface) && !/\d\.\d/.test(m.surface)
  if (VALUE_TYPES.has(m.type)) return /\d/.test(m.surface)
  return m.type === 'NORP' || m.type === 'LANGUAGE' || confidentType(m.surface, m.type)
}

/** A span inside a longer mention names a part of something else ("Rome" in "Treaties of Rome"): no bridge, no answer. */
const insideAnother = (m: { start: number; end: number }, mentions: readonly { start: number; end: number }[]): boolean =>
  mentions.some((x) => x.start <= m.start && x.end >= m.end && x.end - x.start > m.end - m.start)

const mentionsAt = (view: CorpusView, m: GenMention) => view.sentences(m.documentId).find((s) => s.id === m.sentenceId)!.mentions

function build(view: CorpusView, a: GenMention, b: GenMention): GeneratedQuestion | GenerationDrop {
  if (view.flaw(a.sentenceId) !== null || view.flaw(b.sentenceId) !== null) return 'evidence-not-prose'
  const bMentions = mentionsAt(view, b)
  if (insideAnother(a, mentionsAt(view, a)) || insideAnother(b, bMentions)) return 'inside-another-name'
  const bridgeCue = cueOf(a.text, a)
  if (!bridgeCue) return 'no-cue'
  // The second hop is named: the article on E when b is in it, else b's sentence by the words next to E.
  let second: SecondHop
  if (view.articlesOn(a.name).includes(b.documentId)) second = { kind: 'article-on' }
  else {
    const cue = cueOf(b.text, b)
    if (!cue) return 'no-cue'
    second = { kind: 'names', cue }
  }
  const name = a.name.toLowerCase()
  const aText = a.text.toLowerCase()
  const answers = bMentions
    .filter((m) => m.entityId !== b.entityId && ANSWER_TYPES.includes(m.type) && wholeWordIn(b.text, m) && (m.end <= b.start || m.start >= b.end) && !insideAnother(m, bMentions) && usableAnswer(m))
    .filter((m) => {
      const s = m.surface.toLowerCase()
      // The answer must be new: not part of E's name, not in the first sentence.
      return s.length >= 2 && !name.includes(s) && !s.includes(name) && !aText.includes(s)
    })
    .sort((x, y) => ANSWER_TYPES.indexOf(x.type) - ANSWER_TYPES.indexOf(y.type) || x.start - y.start)
    .slice(0, ANSWERS_PER_PAIR)
  if (answers.length === 0) return 'no-answer'
  let reason: GenerationDrop = 'no-answer'
  for (const ans of answers) {
    const cue = cueOf(b.text, ans)
    // Without an answer cue first (the shorter question), then with one.
    for (const answerCue of cue ? [null, cue] : [null]) {
      const reading: BridgeReading = { title: a.title, bridgeWord: TYPE_WORD[a.type]!, bridgeCue, second, answerWord: TYPE_WORD[ans.type]!, answerCue }
      const verdict = checkBridge(view, reading, ans.surface)
      if (!verdict.ok) {
        reason = furthest(reason, verdict.reason)
        continue
      }
      if (!verdict.sentenceIds.includes(b.sentenceId)) {
        reason = furthest(reason, 'gold-not-reached')
        continue
      }
      const question = renderBridge(reading)
      if (goldQuoteShare(question, [a.text, b.text]) >= QUOTE_SHARE) {
        reason = furthest(reason, 'quotes-gold')
        continue
      }
      return {
        externalId: `bridge:${a.entityId}:${a.sentenceId}:${b.sentenceId}`,
        kind: 'bridge',
        form: 'bridge',
        question,
        answers: [ans.surface],
        gold: [
          { sentenceId: a.sentenceId, documentId: a.documentId, title: a.title, externalId: a.externalId, ord: a.ord, contains: [a.surface] },
          { sentenceId: b.sentenceId, documentId: b.documentId, title: b.title, externalId: b.externalId, ord: b.ord, contains: [b.surface, ans.surface] },
        ],
        detail: `bridge entity "${a.name}" (${a.type}) joins "${a.title}" (sentence ${a.ord}) and "${b.title}" (sentence ${b.ord}); answer "${ans.surface}" (${ans.type}) from the second`,
      }
    }
  }
  return reason
}

/** Fisher-Yates with the seeded generator. */
export function shuffle<T>(xs: T[], rand: () => number): T[] {
  for (let i = xs.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1))
    ;[xs[i], xs[j]] = [xs[j]!, xs[i]!]
  }
  return xs
}
