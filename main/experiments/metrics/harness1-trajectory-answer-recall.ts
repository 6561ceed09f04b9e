import { declareMetric, METRIC_GROUPS } from './declaration'

export const harness1TrajectoryAnswerRecall = declareMetric(
  'harness1.trajectoryAnswerRecall',
  'Trajectory answer recall (documents)',
  'Share of the answer-bearing gold documents covered by anything seen.',
  { group: METRIC_GROUPS.harness1, level: 'paragraph' },
  { compute: (s) => (s.documents === null ? undefined : s.documents.trajectoryAnswerRecall) },
)
