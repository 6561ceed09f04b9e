/**
 * Named training configs in the workspace database (train_configs). A saved config is the TrainConfig
 * minus the splits (SavedTrainConfigSchema): the question set and the train / held-out ranges are chosen
 * at launch. Saving checks what the schema cannot with the rules every training config meets
 * (resolve-config.ts: registry names, the environment against the head and the credit scheme, the
 * Harness-1 weight edits, the loss's declared clip bounds).
 */
import type SQLite from 'better-sqlite3'
import { ApiError, SavedTrainConfigSchema, type SavedTrainConfig, type SavedTrainConfigRequest, type SavedTrainConfigRow } from '../../../../preload/contract'
import { putTrainConfig, removeTrainConfig, trainConfigRecord, trainConfigRecords, type TrainConfigRecord } from './config-store'
import { checkTrainChoices, trainingDefaultsFor } from './resolve-config'

/** Throws a VALIDATION error naming the first problem of a config that passed the schema (the rules every training config meets). */
export function checkSavedConfig(raw: SQLite.Database, config: SavedTrainConfig): void {
  try {
    checkTrainChoices(raw, config)
  } catch (err) {
    throw new ApiError('VALIDATION', err instanceof Error ? err.message : String(err))
  }
}

function toRow(r: TrainConfigRecord): SavedTrainConfigRow {
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
  return trainConfigRecords(raw).map(toRow)
}

export function getTrainConfig(raw: SQLite.Database, name: string): SavedTrainConfigRow | null {
  const r = trainConfigRecord(raw, name)
  return r ? toRow(r) : null
}

/** Saves (or replaces) a named config after checking it, its open choices resolved by its protocol; keeps the first save's creation time. */
export function saveTrainConfig(raw: SQLite.Database, name: string, request: SavedTrainConfigRequest): SavedTrainConfigRow {
  const d = trainingDefaultsFor(request.environment)
  const config: SavedTrainConfig = { ...request, credit: request.credit ?? { scheme: d.credit, lambda: d.lambda }, estimator: request.estimator ?? d.estimator }
  checkSavedConfig(raw, config)
  const now = new Date().toISOString()
  putTrainConfig(raw, name, JSON.stringify(config), now)
  return getTrainConfig(raw, name)!
}

export function deleteTrainConfig(raw: SQLite.Database, name: string): { deleted: string } {
  if (!removeTrainConfig(raw, name)) throw new ApiError('NOT_FOUND', `No saved training config named "${name}"`)
  return { deleted: name }
}
