export { registerRewardTerm, rewardTerm, rewardTermNames, rewardTerms, type RewardTermDefinition } from './terms'
export { REWARD_PRESETS, checkRewardConfig, computeReward, rewardConfigSchema, rewardPreset, type RewardConfig, type RewardPreset, type RewardValue } from './scheme'
