/**
 * Bridge questions: two documents joined by a named entity E. The first document's sentence names E
 * (hop 1, E masked); a sentence of the second that mentions E gives the answer, another mention in it
 * (hop 2, E and the answer masked). Gold: both sentences.
 */
import type { GenMention, QuestionGenerationRepository } from '../../corpus/repository'
import { mask, type GeneratedQuestion } from './types'

export const BRIDGE_TYPES = ['PERSON', 'ORG', 'GPE', 'LOC', 'FAC', 'EVENT', 'WORK_OF_ART', 'PRODUCT', 'LAW', 'NAME']

const WORD: Record<string, string> = { PERSON: 'person', ORG: 'organisation', GPE: 'place', LOC: 'place', FAC: 'place', EVENT: 'event', WORK_OF_ART: 'work', PRODUCT: 'product', LAW: 'law', NAME: 'name' }
const ANSWER_WORD: Record<string, string> = { DATE: 'date', PERSON: 'person', ORG: 'organisation', GPE: 'place', LOC: 'place', FAC: 'place', EVENT: 'event', WORK_OF_ART: 'work', NORP: 'group', MONEY: 'amount', PERCENT: 'percentage', CARDINAL: 'number', QUANTITY: 'quantity', PRODUCT: 'product', LAW: 'law', NAME: 'name', LANGUAGE: 'language' }
/** Answer types in order of preference (a date or a name before a bare number). */
const ANSWER_TYPES = ['DATE', 'PERSON', 'ORG', 'GPE', 'LOC', 'FAC', 'EVENT', 'WORK_OF_ART', 'NORP', 'MONEY', 'PERCENT', 'QUANTITY', 'PRODUCT', 'LAW', 'LANGUAGE']

/** Sentences too short carry no clue; too long ones are not questions. */
const usableSentence = (text: string): boolean => text.length >= 30 && text.length <= 320 && !text.includes('\t') && !/Category:|\.(png|jpe?g|svg)\b/i.test(text)

/** A mention that starts and ends on word boundaries (not "France" inside "Tour_de_France.png"). */
export const wholeWord = (m: Pick<GenMention, 'text' | 'start' | 'end'>): boolean => !/[\p{L}\p{N}_]/u.test(m.text[m.start - 1] ?? ' ') && !/[\p{L}\p{N}_]/u.test(m.text[m.end] ?? ' ')

/** Single-word untyped names are mostly capitalised common words ("Category"): no bridge. */
const usableBridge = (m: GenMention): boolean => m.name.length >= 3 && !(m.type === 'NAME' && !/\s/.test(m.name.trim()))

export interface BridgeOptions {
  rand: () => number
  /** Stop after this many candidates. */
  cap: number
  throwIfCancelled(): void
  progress(share: number): void
}

export function bridgeQuestions(repo: QuestionGenerationRepository, options: BridgeOptions): GeneratedQuestion[] {
  const byEntity = new Map<number, Map<number, GenMention>>()
  for (const m of repo.bridgeMentions(BRIDGE_TYPES, 30)) {
    if (!usableBridge(m) || !usableSentence(m.text) || !wholeWord(m)) continue
    let docs = byEntity.get(m.entityId)
    if (!docs) byEntity.set(m.entityId, (docs = new Map()))
    // The document's first usable sentence that names E (rows come in document order).
    if (!docs.has(m.documentId)) docs.set(m.documentId, m)
  }
  const entities = [...byEntity.entries()].filter(([, docs]) => docs.size >= 2).map(([id]) => id)
  shuffle(entities, options.rand)
  const out: GeneratedQuestion[] = []
  for (const [i, entityId] of entities.entries()) {
    if (out.length >= options.cap) break
    if (i % 50 === 0) {
      options.throwIfCancelled()
      options.progress(i / entities.length)
    }
    const docs = [...byEntity.get(entityId)!.values()]
    shuffle(docs, options.rand)
    const q = build(repo, docs[0]!, docs[1]!) ?? build(repo, docs[1]!, docs[0]!)
    if (q) out.push(q)
  }
  return out
}

function build(repo: QuestionGenerationRepository, a: GenMention, b: GenMention): GeneratedQuestion | null {
  const name = a.name.toLowerCase()
  const aText = a.text.toLowerCase()
  const answers = repo
    .mentionsOf([b.sentenceId])
    .filter((m) => m.entityId !== b.entityId && ANSWER_TYPES.includes(m.type) && wholeWord(m) && (m.end <= b.start || m.start >= b.end))
    .filter((m) => {
      const s = m.surface.toLowerCase()
      // The answer must be new: not part of E's name, not in the first sentence.
      return s.length >= 2 && !name.includes(s) && !s.includes(name) && !aText.includes(s)
    })
    .sort((x, y) => ANSWER_TYPES.indexOf(x.type) - ANSWER_TYPES.indexOf(y.type) || x.start - y.start)
  const ans = answers[0]
  if (!ans) return null
  const word = WORD[a.type] ?? 'entity'
  const hop1 = mask(a.text, [{ start: a.start, end: a.end, with: `[the ${word}]` }])
  const hop2 = mask(b.text, [
    { start: b.start, end: b.end, with: `[the ${word}]` },
    { start: ans.start, end: ans.end, with: '___' },
  ])
  const answerWord = ANSWER_WORD[ans.type] ?? 'entity'
  return {
    externalId: `bridge:${a.entityId}:${a.sentenceId}:${b.sentenceId}`,
    kind: 'bridge',
    form: 'bridge',
    question: `In "${a.title}": "${hop1}" Another article says of the same ${word}: "${hop2}" What ${answerWord} fills the blank?`,
    answers: [ans.surface],
    gold: [
      { sentenceId: a.sentenceId, documentId: a.documentId, title: a.title, externalId: a.externalId, ord: a.ord, contains: [a.surface] },
      { sentenceId: b.sentenceId, documentId: b.documentId, title: b.title, externalId: b.externalId, ord: b.ord, contains: [b.surface, ans.surface] },
    ],
    detail: `bridge entity "${a.name}" (${a.type}) joins "${a.title}" (sentence ${a.ord}) and "${b.title}" (sentence ${b.ord}); answer "${ans.surface}" (${ans.type}) from the second`,
  }
}

/** Fisher-Yates with the seeded generator. */
export function shuffle<T>(xs: T[], rand: () => number): T[] {
  for (let i = xs.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1))
    ;[xs[i], xs[j]] = [xs[j]!, xs[i]!]
  }
  return xs
}
