import { normaliseAnswer } from './normalise'
import { fBeta } from './retrieval'

/**
 * Harness-1's recall family (README, Evaluation), the inputs of its published reward:
 * - curated recall: share of gold units covered by the curated set;
 * - trajectory recall: the same over everything the agent saw (the curated set counts as seen);
 * - answer recall / trajectory answer recall: the same two with gold restricted to answer-bearing units;
 * - curated precision (share of curated items that cover some gold unit) and its F-beta with curated
 *   recall, beta = 2 by default as in Harness-1's reward.
 * A gold unit is a document (document level) or a fact (fact level: facts covered / facts); what
 * "covers" means is injected, so both levels share one implementation. As in ./retrieval, a ratio
 * with an empty denominator is `null`: e.g. answer recall when no gold unit bears the answer.
 */

/** Whether a gold unit's text bears one of the gold answers. */
export type AnswerBearingPredicate = (text: string, answers: readonly string[]) => boolean

/** Closed answers say nothing about which passage holds the evidence: the word "yes" in a passage does not answer a comparison question. */
const CLOSED_ANSWERS: ReadonlySet<string> = new Set(['yes', 'no', 'noanswer'])

/**
 * Default answer-bearing test: the normalised text contains a normalised gold answer as a run of whole
 * tokens, the token-level match DPR-style answer-presence checks use, so "no" does not match inside
 * "not". The price is that inflected forms miss ("tower's" normalises to "towers"); inject a looser
 * predicate where that matters. Empty and yes/no/noanswer answers never make a unit answer-bearing.
 */
export const containsNormalisedAnswer: AnswerBearingPredicate = (text, answers) => {
  const haystack = ` ${normaliseAnswer(text)} `
  return answers.some((answer) => {
    const needle = normaliseAnswer(answer)
    return needle !== '' && !CLOSED_ANSWERS.has(needle) && haystack.includes(` ${needle} `)
  })
}

export interface Harness1RecallInput<Item, Gold> {
  /** The curated set at the end of the episode (distinct items). */
  curated: readonly Item[]
  /** Everything the trajectory surfaced: search results, reads, reviews. */
  seen: readonly Item[]
  gold: readonly Gold[]
  /** Gold answers, for the answer-bearing restriction. */
  answers: readonly string[]
  /** Whether an item covers a gold unit: id equality for documents; containment, a judge, ... for facts. */
  covers: (item: Item, gold: Gold) => boolean
  /** Text of a gold unit, given to the answer-bearing predicate. */
  goldText: (gold: Gold) => string
  isAnswerBearing?: AnswerBearingPredicate
  beta?: number
}

export interface Harness1Recalls {
  curatedRecall: number | null
  trajectoryRecall: number | null
  answerRecall: number | null
  trajectoryAnswerRecall: number | null
  /** null when nothing is curated. */
  curatedPrecision: number | null
  /** F-beta of curated precision and curated recall; 0 when nothing is curated, null without gold. */
  curatedFBeta: number | null
  beta: number
  goldCount: number
  answerBearingCount: number
}

export const harness1Recalls = <Item, Gold>(input: Harness1RecallInput<Item, Gold>): Harness1Recalls => {
  const { curated, seen, gold, answers, covers, goldText } = input
  const isAnswerBearing = input.isAnswerBearing ?? containsNormalisedAnswer
  const beta = input.beta ?? 2
  const answerBearing = gold.filter((unit) => isAnswerBearing(goldText(unit), answers))
  const seenAll = [...curated, ...seen]

  const recallOver = (items: readonly Item[], units: readonly Gold[]): number | null =>
    units.length === 0 ? null : units.filter((unit) => items.some((item) => covers(item, unit))).length / units.length

  const curatedRecall = recallOver(curated, gold)
  const curatedPrecision =
    curated.length === 0 ? null : curated.filter((item) => gold.some((unit) => covers(item, unit))).length / curated.length
  return {
    curatedRecall,
    trajectoryRecall: recallOver(seenAll, gold),
    answerRecall: recallOver(curated, answerBearing),
    trajectoryAnswerRecall: recallOver(seenAll, answerBearing),
    curatedPrecision,
    curatedFBeta: curatedRecall === null ? null : fBeta(curatedPrecision ?? 0, curatedRecall, beta),
    beta,
    goldCount: gold.length,
    answerBearingCount: answerBearing.length,
  }
}

export interface GoldDocument {
  id: string
  text: string
}

export interface DocumentRecallInput {
  curated: Iterable<string>
  seen: Iterable<string>
  gold: readonly GoldDocument[]
  answers: readonly string[]
  isAnswerBearing?: AnswerBearingPredicate
  beta?: number
}

/** Document-level Harness-1 recalls over ids; repeated ids (on either side) count once. */
export const documentRecalls = (input: DocumentRecallInput): Harness1Recalls => {
  const byId = new Map<string, GoldDocument>()
  for (const doc of input.gold) if (!byId.has(doc.id)) byId.set(doc.id, doc)
  return harness1Recalls<string, GoldDocument>({
    curated: [...new Set(input.curated)],
    seen: [...new Set(input.seen)],
    gold: [...byId.values()],
    answers: input.answers,
    covers: (id, doc) => id === doc.id,
    goldText: (doc) => doc.text,
    isAnswerBearing: input.isAnswerBearing,
    beta: input.beta,
  })
}
