export { rewardTerm, rewardTermNames, rewardTerms, type RewardTermDefinition } from './terms'
export {
  REWARD_PRESETS,
  bestReward,
  checkRewardConfig,
  checkRewardFits,
  computeReward,
  defaultRewardPreset,
  protocolDefaultReward,
  headlineMetric,
  rewardConfigSchema,
  rewardCorrect,
  rewardPreset,
  unfitTerms,
  type RewardConfig,
  type RewardPreset,
  type RewardValue,
} from './scheme'
export { GOLD_LEVEL_LABELS, evidenceLevel, goldProfile, type GoldFields, type GoldLevel, type GoldProfile } from './gold'
