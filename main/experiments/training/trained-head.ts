/**
 * A training run's head as a policy and as a file: the checkpoint of any completed step (default the
 * last), checked against the environment it will drive, and exported as a head weights file.
 */
import type SQLite from 'better-sqlite3'
import { environmentFactory } from '../../harness'
import { restoreHead, type PolicyHead } from '../../policy/head'
import { headWeightsFile, type HeadWeightsFile } from '../../policy/head-policy'
import { checkpointOf } from './store'
import { storedTrainConfig } from './run-training'

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
