/**
 * A training run's stored config, read back from its run row. It sits on the config floor, beside the
 * resolver, so that the loop, the trained head and the validator each read it without importing one
 * another (the reader in the loop file closed a circle of value imports through the factories).
 */
import type SQLite from 'better-sqlite3'
import { TrainingRunConfig } from '../../../../preload/contract'
import type { TrainConfig } from '../../../rl/trainer'
import { runStore } from '../../runs/store'

/** A stored run's config (resolved when the run was created) and answerer, parsed from its row, for resuming it. */
export function storedTrainConfig(raw: SQLite.Database, runId: number): { config: TrainConfig; answerer: { kind: 'lexical' } | { kind: 'gguf'; modelPath: string } } {
  const row = runStore(raw).trainRunConfig(runId)
  if (!row) throw new Error(`No training run #${runId}`)
  const { kind: _kind, answerer, answererName: _name, ...config } = TrainingRunConfig.parse(JSON.parse(row))
  return { config, answerer }
}
