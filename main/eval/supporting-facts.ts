import type { AnswerScore } from './answer'

/**
 * Supporting-fact metrics for HotpotQA-style [title, sentence id] annotations, following the official
 * HotpotQA evaluation script: both sides are sets (a repeated pair counts once), a predicted pair is
 * a true positive when it is in the gold set, and exact match means no false positive and no false
 * negative. Like the script, an empty side gives precision/recall 0 rather than undefined, and two
 * empty sets are an exact match.
 */

/** A [title, sentence index] pair as in the raw JSON, or the object form used by the corpus importer. */
export type SupportingFactRef = readonly [title: string, sentence: number] | { readonly title: string; readonly sentence: number }

export interface SupportingFactScore {
  em: number
  f1: number
  precision: number
  recall: number
}

/** The official joint metrics: precision and recall are products of the answer and supporting-fact ones. */
export type JointScore = SupportingFactScore

const factKey = (fact: SupportingFactRef): string =>
  'title' in fact ? JSON.stringify([fact.title, fact.sentence]) : JSON.stringify([fact[0], fact[1]])

const harmonic = (precision: number, recall: number): number =>
  precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0

export const supportingFactScore = (predicted: Iterable<SupportingFactRef>, gold: Iterable<SupportingFactRef>): SupportingFactScore => {
  const pred = new Set<string>()
  for (const fact of predicted) pred.add(factKey(fact))
  const goldSet = new Set<string>()
  for (const fact of gold) goldSet.add(factKey(fact))
  let truePositives = 0
  for (const key of pred) if (goldSet.has(key)) truePositives += 1
  const falsePositives = pred.size - truePositives
  const falseNegatives = goldSet.size - truePositives
  const precision = pred.size > 0 ? truePositives / pred.size : 0
  const recall = goldSet.size > 0 ? truePositives / goldSet.size : 0
  return { em: falsePositives + falseNegatives === 0 ? 1 : 0, f1: harmonic(precision, recall), precision, recall }
}

/** Joint EM/F1 of the official HotpotQA script: EM is the product of the two EMs, F1 the harmonic mean of the product precision and product recall. */
export const jointScore = (answer: Pick<AnswerScore, 'em' | 'precision' | 'recall'>, sp: SupportingFactScore): JointScore => {
  const precision = answer.precision * sp.precision
  const recall = answer.recall * sp.recall
  return { em: answer.em * sp.em, f1: harmonic(precision, recall), precision, recall }
}
