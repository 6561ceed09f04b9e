/** Evaluation metrics: pure functions over answers, evidence sets and per-question results. */
export { normaliseAnswer, answerTokens } from './normalise'
export {
  NORMALISATION_VARIANTS,
  exactMatch,
  scoreAnswer,
  tokenOverlap,
  type AnswerScore,
  type NormalisationVariant,
  type TokenOverlap,
} from './answer'
export { jointScore, supportingFactScore, type JointScore, type SupportingFactRef, type SupportingFactScore } from './supporting-facts'
export { fBeta, recallAtK, setPrecision, setRecall } from './retrieval'
export {
  containsNormalisedAnswer,
  documentRecalls,
  harness1Recalls,
  type AnswerBearingPredicate,
  type DocumentRecallInput,
  type GoldDocument,
  type Harness1RecallInput,
  type Harness1Recalls,
} from './harness1'
export { bootstrapMeanCI, mean, seededRandom, type BootstrapOptions, type ConfidenceInterval } from './bootstrap'
export { questionResult, type QuestionResult, type QuestionResultParts } from './results'
export { aggregate, comparePaired, pairedDifference, type MetricAggregate, type PairedComparison, type PairedOptions } from './aggregate'
