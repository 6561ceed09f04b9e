import { declareMetric, METRIC_GROUPS } from './declaration'

export const turns = declareMetric(
  'turns',
  'Turns',
  'Steps the policy took in the episode.',
  { group: METRIC_GROUPS.episode, level: 'episode', direction: 'none', format: 'count', headline: true },
  { compute: (s) => s.outcome.turns },
)
