import { rewardTerms } from '../../rl/reward-schemes'
import { declareMetric, METRIC_GROUPS, type MetricDeclaration } from './declaration'

/**
 * `train.reward.<term>`: each training reward term's weighted contribution to a rollout's reward, one
 * per term the reward schemes declare (main/rl/reward-schemes/terms.ts), with the term's own label.
 */
export const trainRewardTermMetrics: readonly MetricDeclaration[] = rewardTerms().map((t) =>
  declareMetric(`train.reward.${t.name}`, `Reward: ${t.label}`, `Weighted contribution of the ${t.label} term to the training reward.`, { group: METRIC_GROUPS.training, level: 'episode', format: 'number', direction: 'none' }, { storedBy: 'the training run, per rollout (experiments/training/store.ts)' }),
)
