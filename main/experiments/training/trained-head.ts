/**
 * A training run's head as a policy and as a file: the checkpoint of any completed step (default the
 * last), checked against the environment it will drive, and exported as a head weights file.
 */
import { existsSync } from 'node:fs'
import type SQLite from 'better-sqlite3'
import { GgufTrainSchema, type GgufTrainConfig } from '../../../preload/contract'
import { environmentFactory } from '../../harness'
import { restoreHead, type PolicyHead } from '../../policy/head'
import { headWeightsFile, type HeadWeightsFile } from '../../policy/head-policy'
import { checkpointOf } from './store'
import { storedTrainConfig } from './config/stored-config'

export interface TrainedHead {
  head: PolicyHead
  /** The step whose checkpoint this is (the head after that step's update). */
  step: number
  environment: string
  hasPrior: boolean
  reward: unknown
}

export function trainedHead(raw: SQLite.Database, runId: number, step?: number): TrainedHead {
  const { config } = storedTrainConfig(raw, runId)
  if (config.gguf) throw new Error(`Training run #${runId} trained GGUF weights, not a head: evaluate it as policy {kind: 'gguf-run', trainingRun: ${runId}} (--policy gguf-run on the command line)`)
  const checkpoint = checkpointOf(raw, runId, step)
  return { head: restoreHead(checkpoint.head), step: checkpoint.step, environment: config.environment, hasPrior: Boolean(config.prior), reward: config.reward ?? null }
}

/** The head of a run, checked to drive `environment`: the same protocol as the environment it was trained on. */
export function trainedHeadFor(raw: SQLite.Database, runId: number, step: number | undefined, environment: string): TrainedHead {
  const trained = trainedHead(raw, runId, step)
  const want = environmentFactory(environment).protocol
  const had = environmentFactory(trained.environment).protocol
  if (want !== had) throw new Error(`Training run #${runId} trained a head for ${trained.environment} (${had}); ${environment} speaks ${want}: evaluate it on a ${had} environment`)
  if (trained.hasPrior) throw new Error(`Training run #${runId} trained its head on top of an LLM prior; evaluating such a head as a policy needs the prior model and is not supported yet`)
  return trained
}

export function exportHeadWeights(raw: SQLite.Database, runId: number, step?: number): HeadWeightsFile {
  const trained = trainedHead(raw, runId, step)
  if (trained.hasPrior) throw new Error(`Training run #${runId} trained its head on top of an LLM prior: its weights alone are not the policy`)
  return headWeightsFile(environmentFactory(trained.environment).protocol, trained.environment, trained.head.checkpoint(), { trainingRun: runId, step: trained.step, reward: trained.reward })
}

export interface TrainedGgufWeights {
  /** The run's GGUF options (context, token limits) the held-out evaluation played the weights with. */
  gguf: GgufTrainConfig
  /** The saved weights of `step`. */
  path: string
  step: number
  environment: string
  seed: number
}

/**
 * A GGUF run's trained weights as a policy: the file its checkpoint of `step` (default the last) saved.
 * A run keeps only its last step's file, so an earlier step is refused by name.
 */
export function trainedGguf(raw: SQLite.Database, runId: number, step?: number): TrainedGgufWeights {
  const { config } = storedTrainConfig(raw, runId)
  if (!config.gguf) throw new Error(`Training run #${runId} trained a head, not GGUF weights: evaluate it as policy {kind: 'head', trainingRun: ${runId}}`)
  const checkpoint = checkpointOf(raw, runId, step)
  if (!checkpoint.gguf) throw new Error(`Training run #${runId} saved no GGUF weights at step ${checkpoint.step}`)
  if (!existsSync(checkpoint.gguf.modelPath)) throw new Error(`The weights of training run #${runId} step ${checkpoint.step} are gone (${checkpoint.gguf.modelPath}): a run keeps only its last step's file`)
  return { gguf: GgufTrainSchema.parse(config.gguf), path: checkpoint.gguf.modelPath, step: checkpoint.step, environment: config.environment, seed: config.seed ?? 1 }
}
