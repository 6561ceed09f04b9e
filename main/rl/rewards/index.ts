/** Reward functions by harness; every term is returned separately so runs can chart components. */
export {
  PUBLISHED_HARNESS1_WEIGHTS,
  harness1WeightsSchema,
  resolveHarness1Weights,
  type Harness1Weights,
} from './harness1-weights'
export {
  HARNESS1_TERMS,
  harness1Reward,
  turnRamp,
  type Harness1RewardBreakdown,
  type Harness1RewardInput,
  type Harness1TermName,
  type RewardTerm,
} from './harness1-reward'
export { episodeRecalls, goldDocumentRecalls, type EpisodeRecallOptions, type EpisodeRecalls, type EvidenceSource, type RecallLevel } from './harness1-gold'
export { scoreHarness1Episode, type Harness1EpisodeScore } from './harness1-episode'
