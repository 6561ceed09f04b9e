import { declareMetric, METRIC_GROUPS } from './declaration'

export const harness1CuratedFBeta = declareMetric(
  'harness1.curatedFBeta',
  'Curated F-beta (documents)',
  'F-beta (beta = 2) of the precision and recall of the evidence against the gold documents.',
  { group: METRIC_GROUPS.harness1, level: 'paragraph' },
  { compute: (s) => (s.documents === null ? undefined : s.documents.curatedFBeta) },
)
