import { declareMetric, METRIC_GROUPS } from './declaration'

export const episodeMs = declareMetric(
  'episode.ms',
  'Time per episode',
  'Wall time of the episode (policy, previews and environment), ms.',
  { group: METRIC_GROUPS.episode, level: 'episode', direction: 'lower', format: 'ms' },
  { storedBy: 'ablation cells, from the stored episode (experiments/ablation/episode-extras.ts)' },
)
