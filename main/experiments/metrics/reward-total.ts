import { declareMetric, METRIC_GROUPS } from './declaration'

export const rewardTotal = declareMetric(
  'reward.total',
  'Reward (Harness-1)',
  "The Harness-1 reward with the run's weights: max(floor, sum of the terms), replaced by fixed values on a format error or an empty curated set.",
  { group: METRIC_GROUPS.reward, level: 'episode', format: 'number', headline: true },
  { storedBy: 'the Harness-1 reward scheme (experiments/metrics/rewards.ts)' },
)
