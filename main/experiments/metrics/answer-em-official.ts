import { declareMetric, METRIC_GROUPS, NORMALISED, OFFICIAL } from './declaration'

export const answerEmOfficial = declareMetric(
  'answer.em.official',
  `EM (${OFFICIAL})`,
  `Exact match of the normalised answer (${NORMALISED}) with any gold answer, under the ${OFFICIAL} rule.`,
  { group: METRIC_GROUPS.answer, level: 'answer', headline: true },
  { compute: (s) => (s.answer === null ? undefined : s.answer.official.em) },
)
