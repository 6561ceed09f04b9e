export { runTraining, resolveTrainConfig, storedTrainConfig, evaluateHead, type TrainingDeps, type HeldOutResult } from './run-training'
export { TrainingStore, decodeSteps, encodeSteps, type CompactStep, type TrainingCheckpoint } from './store'
export { playRollout, type PlayedRollout, type RolloutContext } from './rollouts'
export { creditSteps } from './credit-steps'
