export { ensureTrainerBinary, GgufTrainerUnavailableError, trainerStatus, projectRoot, type BuildOptions, type TrainerBackend, type TrainerBinary } from './trainer-build'
export { GgufTrainer, GgufTrainerError } from './trainer-process'
export { TRAINER_PROTOCOL, ProbeItem, type EstimateRequest, type KlResult, type LoadRequest, type TrainItem, type TrainRequest, type TrainResult, type TrainerEstimate, type TrainerModelInfo } from './protocol'
export { memoryShortfall } from './memory-fit'
