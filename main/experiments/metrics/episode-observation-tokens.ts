import { declareMetric, METRIC_GROUPS } from './declaration'

export const episodeObservationTokens = declareMetric(
  'episode.observationTokens',
  'Observation tokens (cl100k)',
  'Tokens of every observation the policy was shown in the episode, counted with cl100k_base.',
  { group: METRIC_GROUPS.episode, level: 'episode', direction: 'lower', format: 'count' },
  { storedBy: 'ablation cells, from the stored episode (experiments/ablation/episode-extras.ts)' },
)
