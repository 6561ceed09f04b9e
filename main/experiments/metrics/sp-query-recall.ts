import { declareMetric, METRIC_GROUPS } from './declaration'

export const spQueryRecall = declareMetric(
  'sp.queryRecall',
  'SP found by own queries',
  'Share of the gold supporting-fact sentences that the policy\'s own queries made visible (free query\'s searches; the reset retrieval and menu fetches do not count): how often the queries it writes retrieve gold.',
  { group: METRIC_GROUPS.retrieval, level: 'sentence' },
  { compute: (s) => (s.queried === null || s.queried.facts === null ? undefined : s.queried.facts) },
)
