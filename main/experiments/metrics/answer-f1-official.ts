import { declareMetric, METRIC_GROUPS, OFFICIAL } from './declaration'

export const answerF1Official = declareMetric(
  'answer.f1.official',
  `F1 (${OFFICIAL})`,
  `Token F1 of the normalised answer, best over gold answers; the ${OFFICIAL} rule scores 0 when either side is yes/no/noanswer and they differ.`,
  { group: METRIC_GROUPS.answer, level: 'answer', headline: true },
  { compute: (s) => (s.answer === null ? undefined : s.answer.official.f1) },
)
