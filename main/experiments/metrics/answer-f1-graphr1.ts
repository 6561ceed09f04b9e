import { declareMetric, GRAPHR1, METRIC_GROUPS } from './declaration'

export const answerF1Graphr1 = declareMetric(
  'answer.f1.graphr1',
  `F1 (${GRAPHR1})`,
  `Token F1 of the normalised answer, best over gold answers, without the yes/no/noanswer rule (Graph-R1, HippoRAG, Search-R1).`,
  { group: METRIC_GROUPS.answer, level: 'answer', headline: true },
  { compute: (s) => (s.answer === null ? undefined : s.answer.graphr1.f1) },
)
