import { declareMetric, METRIC_GROUPS } from './declaration'

export const answererLoglik = declareMetric(
  'answerer.loglik',
  'Answerer log-likelihood',
  "The frozen answerer's mean log-probability of the gold answer given the committed evidence (lexical stand-in without a model).",
  { group: METRIC_GROUPS.answer, level: 'answer', format: 'number' },
  { storedBy: 'training rollouts and the environment server when the reward weighs it (experiments/training/rollouts.ts, env-server/finish.ts)' },
)
