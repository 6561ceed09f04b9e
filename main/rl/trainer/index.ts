export { trainConfigSchema, checkSplits, type TrainConfig, type TrainConfigInput, type SplitSpec } from './config'
export { trainOnBatch, type BatchResult, type TrainingRollout } from './batch'
export { stepDiagnostics, type RolloutSummary, type StepDiagnostics } from './diagnostics'
export { policyUpdate, type TrainingSample, type UpdateStats } from './update'
