import { declareMetric, METRIC_GROUPS } from './declaration'

export const formatErrors = declareMetric(
  'formatErrors',
  'Format errors',
  'Steps whose action was malformed or not offered.',
  { group: METRIC_GROUPS.episode, level: 'episode', direction: 'lower', format: 'count', headline: true },
  { compute: (s) => s.outcome.formatErrors },
)
