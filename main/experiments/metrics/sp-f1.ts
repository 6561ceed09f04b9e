import { declareMetric, METRIC_GROUPS } from './declaration'

export const spF1 = declareMetric(
  'sp.f1',
  'SP F1',
  'Harmonic mean of supporting-fact precision and recall.',
  { group: METRIC_GROUPS.supportingFacts, level: 'sentence', headline: true },
  { compute: (s) => (s.supportingFacts === null ? undefined : s.supportingFacts.f1) },
)
