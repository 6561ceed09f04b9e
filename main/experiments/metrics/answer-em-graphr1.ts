import { declareMetric, METRIC_GROUPS, GRAPHR1, NORMALISED } from './declaration'

export const answerEmGraphr1 = declareMetric(
  'answer.em.graphr1',
  `EM (${GRAPHR1})`,
  `Exact match of the normalised answer (${NORMALISED}) with any gold answer, under the ${GRAPHR1} rule (identical to the official EM).`,
  { group: METRIC_GROUPS.answer, level: 'answer' },
  { compute: (s) => (s.answer === null ? undefined : s.answer.graphr1.em) },
)
