import { declareMetric, METRIC_GROUPS } from './declaration'

export const paragraphTrajectoryRecall = declareMetric(
  'paragraph.trajectoryRecall',
  'Paragraph recall (seen)',
  'Share of the gold documents covered by anything the agent saw during the episode, document level.',
  { group: METRIC_GROUPS.retrieval, level: 'paragraph' },
  { compute: (s) => (s.documents === null ? undefined : s.documents.trajectoryRecall) },
)
