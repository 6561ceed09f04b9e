import { declareMetric, METRIC_GROUPS } from './declaration'

export const spRecall = declareMetric(
  'sp.recall',
  'SP recall',
  'Share of the gold supporting-fact sentences among the committed evidence (set metric of the official HotpotQA script).',
  { group: METRIC_GROUPS.supportingFacts, level: 'sentence' },
  { compute: (s) => (s.supportingFacts === null ? undefined : s.supportingFacts.recall) },
)
