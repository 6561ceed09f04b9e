import { declareMetric, METRIC_GROUPS } from './declaration'

export const spPrecision = declareMetric(
  'sp.precision',
  'SP precision',
  'Share of the committed sentences that are gold supporting facts.',
  { group: METRIC_GROUPS.supportingFacts, level: 'sentence' },
  { compute: (s) => (s.supportingFacts === null ? undefined : s.supportingFacts.precision) },
)
