/**
 * Per-step credit schemes for RL on the Harness-G menu and the free-query baseline (README,
 * Training): outcome-only, Structured Non-myopic Credit, IGPO-style information gain, and their
 * batch-global combination with the outcome advantage.
 */
export { pickAlternatives } from './alternatives'
export { combineAdvantages, creditScale, type CombineOptions, type CombinedAdvantages, type CreditScaleKind } from './combine'
export { canonicalSet, memoScorer, newEvidence, type MemoScorer } from './evidence'
export { infoGain, infoGainDeclaration } from './info-gain'
export { outcomeCredit, outcomeDeclaration } from './outcome'
export { creditNames, creditScheme, creditSchemes } from './registry'
export { snc, sncDeclaration } from './snc'
export { sncStop, sncStopDeclaration } from './snc-stop'
export {
  COMMIT_TYPES,
  SURFACE_TYPES,
  isInformationAction,
  type CreditAlternative,
  type CreditCapabilities,
  type CreditDeclaration,
  type CreditInput,
  type CreditMenuItem,
  type CreditOptions,
  type CreditScheme,
  type CreditStep,
  type EvidenceScorer,
  type StepCredit,
} from './types'
