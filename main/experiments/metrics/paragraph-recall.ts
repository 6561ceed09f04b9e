import { declareMetric, METRIC_GROUPS } from './declaration'

export const paragraphRecall = declareMetric(
  'paragraph.recall',
  'Paragraph recall (evidence)',
  'Share of the gold documents covered by the committed (Harness-G) or curated (Harness-1) evidence, document level.',
  { group: METRIC_GROUPS.retrieval, level: 'paragraph' },
  { compute: (s) => (s.documents === null ? undefined : s.documents.curatedRecall) },
)
