/**
 * Named training configs in the workspace database (train_configs). A saved config is the TrainConfig
 * minus the splits (SavedTrainConfigSchema): the question set and the train / held-out ranges are chosen
 * at launch. Saving checks what the schema cannot: registry names, the environment against the head and
 * the credit scheme, the Harness-1 weight edits and the loss's clip bounds.
 */
import type SQLite from 'better-sqlite3'
import { ApiError, SavedTrainConfigSchema, type SavedTrainConfig, type SavedTrainConfigRow } from '../../../preload/contract'
import { createEnvironment, environmentFactory, environmentContext } from '../../harness'
import { candidateBuilder } from '../../policy/head-policy'
import { creditScheme } from '../../rl/credit'
import { estimator } from '../../rl/estimators'
import { policyLoss } from '../../rl/losses'
import { checkRewardConfig } from '../../rl/reward-schemes'
import { resolveHarness1Weights } from '../../rl/rewards'

interface Row {
  name: string
  config_json: string
  created_at: string
  updated_at: string
}

const messageOf = (err: unknown): string => (err instanceof Error ? err.message : String(err))

/** Throws a VALIDATION error naming the first problem of a config that passed the schema. */
export function checkSavedConfig(raw: SQLite.Database, config: SavedTrainConfig): void {
  const check = (what: string, fn: () => unknown): void => {
    try {
      fn()
    } catch (err) {
      throw new ApiError('VALIDATION', `${what}: ${messageOf(err)}`)
    }
  }
  check('Environment', () => {
    const factory = environmentFactory(config.environment)
    candidateBuilder(factory.protocol)
    createEnvironment(config.environment, environmentContext(raw), config.envConfig)
  })
  check('Credit', () => {
    creditScheme(config.credit.scheme)
    if (config.credit.scheme !== 'outcome' && environmentFactory(config.environment).actionKind !== 'menu') {
      throw new Error(`"${config.credit.scheme}" reads menu previews; ${config.environment} has none: use "outcome"`)
    }
  })
  check('Estimator', () => estimator(config.estimator))
  check('Loss', () => {
    policyLoss(config.loss.name)
    if (config.loss.dualClip !== null && !(config.loss.dualClip > 1)) throw new Error(`the dual clip C must exceed 1 (or be off), got ${config.loss.dualClip}`)
    if (config.loss.cispoLow > config.loss.cispoHigh) throw new Error(`the CISPO clip needs lo <= hi, got [${config.loss.cispoLow}, ${config.loss.cispoHigh}]`)
  })
  check('Reward', () => {
    checkRewardConfig(config.reward)
    resolveHarness1Weights(config.reward.harness1Weights)
  })
}

function toRow(r: Row): SavedTrainConfigRow {
  const parsed = SavedTrainConfigSchema.safeParse(JSON.parse(r.config_json))
  return {
    name: r.name,
    config: parsed.success ? parsed.data : null,
    problem: parsed.success ? null : parsed.error.issues.map((i) => `${i.path.join('.') || '(config)'}: ${i.message}`).join('; '),
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  }
}

export function listTrainConfigs(raw: SQLite.Database): SavedTrainConfigRow[] {
  return (raw.prepare('select * from train_configs order by name collate nocase').all() as Row[]).map(toRow)
}

export function getTrainConfig(raw: SQLite.Database, name: string): SavedTrainConfigRow | null {
  const r = raw.prepare('select * from train_configs where name = ?').get(name) as Row | undefined
  return r ? toRow(r) : null
}

/** Saves (or replaces) a named config after checking it; keeps the first save's creation time. */
export function saveTrainConfig(raw: SQLite.Database, name: string, config: SavedTrainConfig): SavedTrainConfigRow {
  checkSavedConfig(raw, config)
  const now = new Date().toISOString()
  raw
    .prepare('insert into train_configs (name, config_json, created_at, updated_at) values (?, ?, ?, ?) on conflict(name) do update set config_json = excluded.config_json, updated_at = excluded.updated_at')
    .run(name, JSON.stringify(config), now, now)
  return getTrainConfig(raw, name)!
}

export function deleteTrainConfig(raw: SQLite.Database, name: string): { deleted: string } {
  const { changes } = raw.prepare('delete from train_configs where name = ?').run(name)
  if (changes === 0) throw new ApiError('NOT_FOUND', `No saved training config named "${name}"`)
  return { deleted: name }
}
