/** Group-relative advantage estimators by name, and zero-variance group handling (README, "Environments, policies and evaluation", Training). */
export { groupMean, groupStd, type AdvantageEstimator, type EstimatorDeclaration, type EstimatorOptions, type RewardGroups } from './group'
export { grpo, grpoDeclaration } from './grpo'
export { meanCentred, meanCentredDeclaration } from './mean-centred'
export { reinforcePlusPlus, reinforcePlusPlusDeclaration } from './reinforce-plus-plus'
export { rloo, rlooDeclaration } from './rloo'
export { estimator, estimatorNames, estimators } from './registry'
export {
  classifyGroups,
  dropZeroVarianceGroups,
  isZeroAdvantage,
  zeroAdvantageStats,
  type DropOptions,
  type DropResult,
  type GroupClassOptions,
  type GroupKind,
  type ZeroAdvantageStats,
} from './zero-variance'
