import { declareMetric, METRIC_GROUPS } from './declaration'

export const paragraphQueryRecall = declareMetric(
  'paragraph.queryRecall',
  'Paragraphs found by own queries',
  'Share of the gold documents of which the policy\'s own queries made a sentence visible (free query\'s searches; the reset retrieval and menu fetches do not count), document level.',
  { group: METRIC_GROUPS.retrieval, level: 'paragraph' },
  { compute: (s) => (s.queried === null || s.queried.documents === null ? undefined : s.queried.documents) },
)
