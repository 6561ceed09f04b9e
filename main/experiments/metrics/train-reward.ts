import { declareMetric, METRIC_GROUPS } from './declaration'

export const trainReward = declareMetric(
  'train.reward',
  'Reward (training)',
  "The training run's reward for a rollout: its weighted terms summed (train.reward.<term> holds each).",
  { group: METRIC_GROUPS.reward, level: 'episode', format: 'number' },
  { storedBy: 'the training run, per rollout (experiments/training/store.ts)' },
)
