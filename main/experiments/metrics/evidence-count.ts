import { declareMetric, METRIC_GROUPS } from './declaration'

export const evidenceCount = declareMetric(
  'evidence.count',
  'Evidence items',
  'Sentences committed (Harness-G) or documents curated (Harness-1): a gain in recall bought with more evidence is not a gain.',
  { group: METRIC_GROUPS.episode, level: 'episode', direction: 'none', format: 'number' },
  { storedBy: 'training rollouts and the environment server, beside scoreEpisode (experiments/training/rollouts.ts, env-server/finish.ts)' },
)
