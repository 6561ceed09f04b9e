import { declareMetric, METRIC_GROUPS } from './declaration'

export const spEm = declareMetric(
  'sp.em',
  'SP EM',
  'Committed supporting facts exactly equal the gold set (no false positive, no false negative).',
  { group: METRIC_GROUPS.supportingFacts, level: 'sentence' },
  { compute: (s) => (s.supportingFacts === null ? undefined : s.supportingFacts.em) },
)
