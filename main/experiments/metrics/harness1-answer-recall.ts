import { declareMetric, METRIC_GROUPS } from './declaration'

export const harness1AnswerRecall = declareMetric(
  'harness1.answerRecall',
  'Answer recall (documents)',
  'Share of the answer-bearing gold documents covered by the evidence; empty when no gold document bears the answer.',
  { group: METRIC_GROUPS.harness1, level: 'paragraph' },
  { compute: (s) => (s.documents === null ? undefined : s.documents.answerRecall) },
)
