import { declareMetric, METRIC_GROUPS } from './declaration'

export const episodePolicyTokens = declareMetric(
  'episode.policyTokens',
  'Policy output tokens',
  'Tokens the policy generated in the episode (GGUF policies; scripted policies report none).',
  { group: METRIC_GROUPS.episode, level: 'episode', direction: 'lower', format: 'count' },
  { storedBy: 'ablation cells, from the stored episode (experiments/ablation/episode-extras.ts)' },
)
