export { ensureTrainerBinary, GgufTrainerUnavailableError, trainerStatus, projectRoot, type BuildOptions, type TrainerBackend, type TrainerBinary } from './trainer-build'
export { GgufTrainer, GgufTrainerError, type TrainItem, type TrainResult, type TrainerEstimate, type TrainerLoadOptions, type TrainerModelInfo } from './trainer-process'
