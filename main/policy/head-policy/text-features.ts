/**
 * Text features of the head's sentence candidates (SELECT, ANSWER_WITH), read from the observation. The
 * environment's lexical need counts a sentence that repeats the question's names as fully as one that
 * states the asked-for relation: "Rombine Suwick was a Goloran physicist" and "Suwick was born on 30
 * October 1790" both cover two terms of "Who was born earlier, Rombine Suwick or Lorn Havouskent?".
 * The greedy policy cannot tell them apart and neither could the head. An LLM reads the difference;
 * these features give the head the part of it that text alone shows: which question terms are the
 * relation (words outside the question's capitalised names), whether the sentence carries a number or
 * a date (what comparisons compare), and how many names the question does not mention it brings in (a
 * bridge to a second document).
 */
import { contentTerms, stemSet, type SentenceEnvData } from '../../harness'
import type { Candidate } from './candidate'

export const SENTENCE_TEXT_FEATURES = ['number', 'relation', 'relationNeed', 'relationGap', 'newNames'] as const
/** On ANSWER: the best relation cover a SELECT still offers (stopping while the relation is unstated rarely pays). */
export const ANSWER_TEXT_FEATURES = ['bestRelationNeed'] as const

const WORD = /[\p{L}\p{N}\p{M}]+/gu
const NUMBER = /\p{N}/u

/** Stems of the question's capitalised words after the first (names), and its content terms outside them (the relation). */
export function questionRelation(question: string): { names: Set<string>; relation: string[] } {
  const names = new Set<string>()
  const words = question.normalize('NFC').match(WORD) ?? []
  words.forEach((w, i) => {
    if (i > 0 && w[0] !== w[0]!.toLowerCase()) for (const s of stemSet(w)) names.add(s)
  })
  const relation = contentTerms(question).map((t) => t.stem).filter((s) => !names.has(s))
  return { names, relation: [...new Set(relation)] }
}

const share = (terms: readonly string[], stems: ReadonlySet<string>): number => (terms.length ? terms.filter((t) => stems.has(t)).length / terms.length : 0)

/** The candidates with the text features added to their sentence items (new objects; others unchanged). */
export function withTextFeatures(data: SentenceEnvData, candidates: readonly Candidate[]): Candidate[] {
  const { names, relation } = questionRelation(data.question)
  const met = new Set<string>()
  for (const s of data.committed) for (const stem of stemSet(s.text)) met.add(stem)
  const unmetRelation = relation.filter((s) => !met.has(s))
  const text = new Map(data.visible.map((s) => [s.id, s.text]))
  const entityNames = data.entities.map((e) => e.name).filter((n) => ![...stemSet(n)].every((s) => names.has(s)))
  // A menu candidate's action names its item; the item's target names the sentence.
  const sentenceOf = new Map<string, number>()
  for (const item of data.menu) {
    const id = item.target?.sentence?.id
    if (typeof id === 'number') sentenceOf.set(item.id, id)
  }
  const sentenceText = (c: Candidate): string | undefined => {
    const id = c.action.kind === 'menu' ? sentenceOf.get(c.action.id) : undefined
    return id === undefined ? undefined : text.get(id)
  }
  const out = candidates.map((c) => {
    const t = c.type === 'SELECT' || c.type === 'ANSWER_WITH' ? sentenceText(c) : undefined
    if (t === undefined) return c
    const stems = stemSet(t)
    const lower = t.toLowerCase()
    const extra = {
      number: NUMBER.test(t) ? 1 : 0,
      relation: share(relation, stems),
      relationNeed: share(unmetRelation, stems),
      newNames: entityNames.filter((n) => lower.includes(n.toLowerCase())).length,
    }
    return { ...c, features: { ...c.features, ...extra } }
  })
  const best: Record<string, number> = {}
  for (const type of ['SELECT', 'ANSWER_WITH']) {
    best[type] = Math.max(0, ...out.filter((c) => c.type === type).map((c) => c.features.relationNeed ?? 0))
    for (const c of out) if (c.type === type && c.features.relationNeed !== undefined) c.features.relationGap = c.features.relationNeed - best[type]!
  }
  return out.map((c) => (c.type === 'ANSWER' ? { ...c, features: { ...c.features, bestRelationNeed: best.SELECT! } } : c))
}
