/**
 * Saved, named ablations: saved with their rows resolved, listed, re-opened with their cells' progress
 * and their stored results, re-run as a copy (a finished ablation never changes), deleted.
 */
import type SQLite from 'better-sqlite3'
import { ApiError, type AblationConfig, type AblationDetail, type AblationSummary, type ResolvedRow } from '../../../preload/contract'
import { corpusRepositories } from '../../corpus/repository'
import { corpusSignature } from '../questions'
import { resolveAblation } from './resolve'
import { storedAblation } from './run'
import { ablationColumns, ablationStore, type AblationRecord, type AblationStatus } from './store'

const validation = (err: unknown): never => {
  throw new ApiError('VALIDATION', err instanceof Error ? err.message : String(err))
}

function summaryOf(r: AblationRecord, rows: number): AblationSummary {
  return { id: r.id, name: r.name, status: r.status as AblationStatus, jobId: r.job_id, createdAt: r.created_at, finishedAt: r.finished_at, error: r.error, rows, rerunOf: r.rerun_of }
}

function cellsFor(raw: SQLite.Database, config: AblationConfig, resolved: readonly ResolvedRow[]) {
  const { questionSetId, offset, split } = config.base
  const questions = Math.min(config.base.limit, corpusRepositories(raw).questions.countFrom(questionSetId, offset, split ?? null))
  if (questions === 0) validation(new Error(`Question set ${questionSetId}${split !== undefined ? ` (split ${split})` : ''} has no questions from offset ${offset}`))
  return resolved.flatMap((row) => config.base.seeds.map((seed) => ({ row: row.index, seed, total: questions + (row.kind === 'train' ? config.base.training.steps : 0) })))
}

export function saveAblation(raw: SQLite.Database, name: string, config: AblationConfig, rerunOf: number | null = null): AblationDetail {
  if (new Set(config.base.seeds).size !== config.base.seeds.length) validation(new Error('Seeds must be distinct'))
  let resolved: ResolvedRow[] = []
  try {
    resolved = resolveAblation(raw, config)
  } catch (err) {
    validation(err)
  }
  if (resolved[0]!.unavailable) validation(new Error(`The base cannot run: ${resolved[0]!.unavailable}`))
  const id = ablationStore(raw).create(name, config, resolved, cellsFor(raw, config, resolved), rerunOf)
  return ablationDetail(raw, id)
}

export function listAblations(raw: SQLite.Database): AblationSummary[] {
  return ablationStore(raw)
    .list()
    .map((r) => summaryOf(r, ablationColumns.resolved.read(r.resolved_json).length))
}

/** A saved ablation as stored; a running one whose job has ended shows the job's final status. */
export function ablationDetail(raw: SQLite.Database, id: number, finalStatus?: (jobId: string) => { status: string; error: string | null } | undefined): AblationDetail {
  const store = ablationStore(raw)
  const record = store.get(id)
  if (!record) throw new ApiError('NOT_FOUND', `No ablation #${id}`)
  const { config, resolved } = storedAblation(raw, id)
  let status = record.status as AblationStatus
  let error = record.error
  // A job that ended without finishing the ablation (killed, crashed): it can be run again from its finished cells.
  const ended = record.job_id && status === 'running' ? finalStatus?.(record.job_id) : undefined
  if (ended) {
    status = ended.status === 'cancelled' ? 'cancelled' : 'failed'
    error = ended.error ?? 'its job ended before the ablation finished'
  }
  return {
    ...summaryOf(record, resolved.length),
    status,
    error,
    config,
    resolved,
    ranOn: ablationColumns.ranOn.readNullable(record.ran_on_json),
    corpusSignatureNow: corpusSignature(raw),
    cells: store.cells(id).map((c) => ({ row: c.row, seed: c.seed, status: c.status, done: c.done, total: c.total, runId: c.run_id, trainRunId: c.train_run_id, error: c.error })),
    results: ablationColumns.results.readNullable(record.results_json),
  }
}

/** A copy under the same name, resolved anew against the code and corpus of today; the original stays. */
export function rerunAblation(raw: SQLite.Database, id: number): AblationDetail {
  const record = ablationStore(raw).get(id)
  if (!record) throw new ApiError('NOT_FOUND', `No ablation #${id}`)
  return saveAblation(raw, record.name, storedAblation(raw, id).config, id)
}

export function deleteAblation(raw: SQLite.Database, id: number, finalStatus?: (jobId: string) => { status: string; error: string | null } | undefined): { deleted: boolean } {
  const record = ablationStore(raw).get(id)
  // A running ablation's job still writes its cells: cancel it first.
  if (record && ablationDetail(raw, id, finalStatus).status === 'running') throw new ApiError('CONFLICT', `Ablation #${id} is running: cancel its job first`)
  return { deleted: ablationStore(raw).remove(id) }
}

/** Before ablation.run is queued: the ablation exists and is not finished. */
export function validateAblationRun(raw: SQLite.Database, id: number): void {
  const record = ablationStore(raw).get(id)
  if (!record) validation(new Error(`No ablation #${id}`))
  if (record!.status === 'done') validation(new Error(`Ablation #${id} is finished; re-run it to run it again (the finished one stays as it is)`))
}
