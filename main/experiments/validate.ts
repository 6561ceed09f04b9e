import { environmentContext } from '../harness'
import { existsSync } from 'node:fs'
import type SQLite from 'better-sqlite3'
import { ApiError, type EvalParams, type TrainParams } from '../../preload/contract'
import { corpusRepositories } from '../corpus/repository'
import { createEnvironment } from '../harness'
import { checkSplit } from '../questions/splits'
import { resolveHarness1Weights } from '../rl/rewards'
import { resolveParsedTrainConfig, storedTrainConfig } from './training'
import { policyFor } from './factories'
import { trainedGguf } from './training/trained-head'
import { runStore } from './runs/store'

/**
 * Checks an evaluation before it is queued, so a mistake is a validation error at once rather than a
 * failed run later: the environment and its config delta, the policy, the reward weights, the split.
 */
export async function validateEvalParams(raw: SQLite.Database, params: EvalParams): Promise<void> {
  const fail = (message: string): never => {
    throw new ApiError('VALIDATION', message)
  }
  try {
    // Building the environment checks its name and every config value.
    createEnvironment(params.environment, environmentContext(raw), params.envConfig)
  } catch (err) {
    fail(err instanceof Error ? err.message : String(err))
  }
  if (params.policy.kind === 'gguf-run') {
    // Its weights are found, not loaded, before the job is queued.
    try {
      trainedGguf(raw, params.policy.trainingRun, params.policy.step)
    } catch (err) {
      fail(err instanceof Error ? err.message : String(err))
    }
  } else if (params.policy.kind !== 'llm') {
    await policyFor(params.policy, params.environment, raw).catch((err: unknown) => fail(err instanceof Error ? err.message : String(err)))
  } else if (!existsSync(params.policy.modelPath)) {
    fail(`No model file at ${params.policy.modelPath}`)
  }
  if (params.answerer.kind === 'gguf' && !existsSync(params.answerer.modelPath)) fail(`No answerer model file at ${params.answerer.modelPath}`)
  try {
    resolveHarness1Weights(params.rewardWeights)
  } catch (err) {
    fail(err instanceof Error ? err.message : String(err))
  }
  if (params.split !== undefined) {
    try {
      checkSplit(raw, params.questionSetId, params.split)
    } catch (err) {
      fail(err instanceof Error ? err.message : String(err))
    }
  }
  const inRange = corpusRepositories(raw).questions.countFrom(params.questionSetId, params.offset, params.split ?? null)
  if (inRange === 0) fail(`Question set ${params.questionSetId}${params.split !== undefined ? ` (split ${params.split})` : ''} has no questions from offset ${params.offset}`)
}

/**
 * Checks a training run before it is queued: a new run's whole config, or that a resumed run exists and is
 * not finished and its stored config still holds. A new run's params come back with the config resolved
 * (its reward chosen): the job stores them and the worker runs them without checking again.
 */
export async function validateTrainParams(raw: SQLite.Database, params: TrainParams): Promise<TrainParams> {
  try {
    if (params.mode === 'new') {
      const config = resolveParsedTrainConfig(raw, params.config)
      if (params.answerer.kind === 'gguf' && !existsSync(params.answerer.modelPath)) throw new Error(`No answerer model file at ${params.answerer.modelPath}`)
      return { ...params, config }
    }
    const status = runStore(raw).trainRunStatus(params.runId)
    if (status === undefined) throw new Error(`No training run #${params.runId}`)
    if (status === 'done') throw new Error(`Training run #${params.runId} is finished; start a new run to train further`)
    resolveParsedTrainConfig(raw, storedTrainConfig(raw, params.runId).config)
    return params
  } catch (err) {
    throw new ApiError('VALIDATION', err instanceof Error ? err.message : String(err))
  }
}
