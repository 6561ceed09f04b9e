import type { GgufTrainConfig, Job, RouteInput, SavedTrainConfig } from '../../../preload/contract'

export type TrainStart = Extract<RouteInput<'job.start'>, { kind: 'train.run' }>
export type NewTrainParams = Extract<TrainStart['params'], { mode: 'new' }>

/** A run launched from this page whose run row the worker has not written yet: its job, and what the row shows meanwhile. */
export interface LaunchedRun {
  job: Job
  name: string
  environment: string
  credit: string
  steps: number
}

export interface LaunchInput {
  config: SavedTrainConfig
  /** The defaults, not a saved config: reward, credit and estimator are left to the backend, which picks the reward for the set's gold level and the environment's protocol's credit and estimator. */
  defaults?: boolean
  name: string
  environment: string
  questionSetId: number
  /** Offset and limit apply within the stored split, when one is named. */
  train: { offset: number; limit: number; split?: string }
  heldOut: { offset: number; limit: number; split?: string }
  /** Empty: the lexical stand-in. */
  answererPath: string
  /** Train this F32 GGUF's own weights (model path, optimiser, tensors); absent or null: the saved config's policy (the head). */
  gguf?: GgufTrainConfig | null
}

/** The train.run job's parameters for a new run as the launcher filled it in. */
export function newRunParams(input: LaunchInput): NewTrainParams {
  const { reward, credit, estimator, ...rest } = input.config
  const config: NewTrainParams['config'] = {
    ...rest,
    ...(input.defaults ? {} : { reward, credit, estimator }),
    name: input.name.trim() || input.config.name,
    environment: input.environment,
    // The saved config's environment options belong to its environment.
    envConfig: input.environment === input.config.environment ? input.config.envConfig : {},
    train: { questionSetId: input.questionSetId, ...input.train },
    heldOut: { questionSetId: input.questionSetId, ...input.heldOut },
    ...(input.gguf?.modelPath.trim() ? { gguf: { ...input.gguf, modelPath: input.gguf.modelPath.trim() } } : {}),
  }
  const answerer = input.answererPath.trim() ? { kind: 'gguf' as const, modelPath: input.answererPath.trim() } : { kind: 'lexical' as const }
  return { mode: 'new', config, answerer }
}

/** The row a new run's job shows until the worker writes the run's own; `credit` as the backend resolves it. */
export function launchedRow(job: Job, config: NewTrainParams['config'], credit: string): LaunchedRun {
  return { job, name: config.name || `training run (job ${job.id.slice(0, 8)})`, environment: config.environment, credit, steps: config.steps ?? 0 }
}
