import { answerTokens, normaliseAnswer } from './normalise'

/**
 * Which answer-scoring rule produced a number. Scores from the two are not comparable, so the label
 * travels with every result.
 * - `official`: the HotpotQA / 2WikiMultiHopQA evaluation scripts. Token F1 (and its precision and
 *   recall) is 0 when either normalised side is "yes", "no" or "noanswer" and the two sides differ, so
 *   "no" scores nothing against "no idea".
 * - `graphr1`: the variant in Graph-R1, HippoRAG and Search-R1: the same normalisation and token F1
 *   without the yes/no/noanswer rule.
 * Exact match is identical under both.
 */
export type NormalisationVariant = 'official' | 'graphr1'

export const NORMALISATION_VARIANTS: readonly NormalisationVariant[] = ['official', 'graphr1']

/** The normalised strings the official rule treats as closed answers. "no answer" (two tokens) is not one; "No-Answer" normalises to "noanswer" and is. */
const CLOSED_ANSWERS: ReadonlySet<string> = new Set(['yes', 'no', 'noanswer'])

export interface TokenOverlap {
  f1: number
  precision: number
  recall: number
}

/**
 * Answer metrics of one prediction. `f1`, `precision` and `recall` come from the gold answer with the
 * highest F1 (the first on ties), so that the joint metrics get one consistent pair.
 */
export interface AnswerScore extends TokenOverlap {
  /** 1 when the normalised prediction equals some normalised gold answer, else 0. */
  em: number
  variant: NormalisationVariant
}

const ZERO: TokenOverlap = { f1: 0, precision: 0, recall: 0 }

/** Exact match after normalisation, max over gold answers (1 or 0). */
export const exactMatch = (prediction: string, golds: string | readonly string[]): number => {
  const normalised = normaliseAnswer(prediction)
  return goldList(golds).some((gold) => normaliseAnswer(gold) === normalised) ? 1 : 0
}

/**
 * Token F1 against one gold answer. Overlap counts tokens with multiplicity (the minimum of the two
 * counts per token, i.e. a multiset intersection), as in the SQuAD/HotpotQA scripts. No shared token,
 * including an empty side, gives 0.
 */
export const tokenOverlap = (prediction: string, gold: string, variant: NormalisationVariant): TokenOverlap => {
  if (variant === 'official') {
    const p = normaliseAnswer(prediction)
    const g = normaliseAnswer(gold)
    if (p !== g && (CLOSED_ANSWERS.has(p) || CLOSED_ANSWERS.has(g))) return ZERO
  }
  const predTokens = answerTokens(prediction)
  const goldTokens = answerTokens(gold)
  const goldCounts = new Map<string, number>()
  for (const token of goldTokens) goldCounts.set(token, (goldCounts.get(token) ?? 0) + 1)
  let shared = 0
  for (const token of predTokens) {
    const left = goldCounts.get(token) ?? 0
    if (left > 0) {
      shared += 1
      goldCounts.set(token, left - 1)
    }
  }
  if (shared === 0) return ZERO
  const precision = shared / predTokens.length
  const recall = shared / goldTokens.length
  return { f1: (2 * precision * recall) / (precision + recall), precision, recall }
}

/** EM and token F1 of a prediction against its gold answers (max over them), labelled with the rule used. */
export const scoreAnswer = (prediction: string, golds: string | readonly string[], variant: NormalisationVariant): AnswerScore => {
  const list = goldList(golds)
  let best = ZERO
  for (const gold of list) {
    const overlap = tokenOverlap(prediction, gold, variant)
    if (overlap.f1 > best.f1) best = overlap
  }
  return { em: exactMatch(prediction, list), ...best, variant }
}

/** A question without gold answers cannot be scored; failing loudly beats averaging in a silent 0. */
const goldList = (golds: string | readonly string[]): readonly string[] => {
  const list = typeof golds === 'string' ? [golds] : golds
  if (list.length === 0) throw new RangeError('answer metrics need at least one gold answer')
  return list
}
