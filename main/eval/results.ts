import type { AnswerScore, NormalisationVariant } from './answer'
import type { Harness1Recalls } from './harness1'
import type { JointScore, SupportingFactScore } from './supporting-facts'

/**
 * One question's evaluation, the unit that is stored and from which every aggregate is recomputed.
 * Keeping per-question values (not only means) is what lets ablations be compared as paired samples.
 */
export interface QuestionResult {
  questionId: string
  /** Rule behind the answer metrics; null when the record holds none (retrieval-only evaluations). */
  variant: NormalisationVariant | null
  /** Metric name to value; null or absent when undefined for this question (e.g. recall without gold). */
  metrics: Readonly<Record<string, number | null | undefined>>
}

export interface QuestionResultParts {
  answer?: AnswerScore
  supportingFacts?: SupportingFactScore
  joint?: JointScore
  harness1?: Harness1Recalls
  /** Anything else (recall@k, reward, turns, ...), stored under its own name. */
  extra?: Readonly<Record<string, number | null>>
}

/**
 * Flattens score objects into one record under prefixed names, so answer recall (token level,
 * `answer.recall`) cannot be confused with Harness-1's answer recall (`harness1.answerRecall`):
 * answer.{em,f1,precision,recall}, sp.*, joint.*, harness1.{curatedRecall, trajectoryRecall,
 * answerRecall, trajectoryAnswerRecall, curatedPrecision, curatedFBeta}.
 */
export const questionResult = (questionId: string, parts: QuestionResultParts): QuestionResult => {
  const metrics: Record<string, number | null> = {}
  const put = (prefix: string, values: Readonly<Record<string, number | null>>) => {
    for (const [name, value] of Object.entries(values)) metrics[`${prefix}.${name}`] = value
  }
  if (parts.answer) {
    const { em, f1, precision, recall } = parts.answer
    put('answer', { em, f1, precision, recall })
  }
  if (parts.supportingFacts) put('sp', { ...parts.supportingFacts })
  if (parts.joint) put('joint', { ...parts.joint })
  if (parts.harness1) {
    const { curatedRecall, trajectoryRecall, answerRecall, trajectoryAnswerRecall, curatedPrecision, curatedFBeta } = parts.harness1
    put('harness1', { curatedRecall, trajectoryRecall, answerRecall, trajectoryAnswerRecall, curatedPrecision, curatedFBeta })
  }
  if (parts.extra) Object.assign(metrics, parts.extra)
  return { questionId, variant: parts.answer?.variant ?? null, metrics }
}
