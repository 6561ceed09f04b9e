/** Group-relative advantage estimators by name, and zero-variance group handling (README, "Environments, policies and evaluation", Training). */
export {
  grpo,
  groupMean,
  groupStd,
  meanCentred,
  reinforcePlusPlus,
  rloo,
  type AdvantageEstimator,
  type EstimatorOptions,
  type RewardGroups,
} from './group'
export { estimator, estimatorNames, registerEstimator } from './registry'
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
