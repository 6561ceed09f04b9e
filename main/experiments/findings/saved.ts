/**
 * Saved findings runs: saving one saves each distinct experiment of the claims as an ablation (claims
 * with the same experiment share it); listed and re-opened with their experiments' status.
 */
import type SQLite from 'better-sqlite3'
import { AblationConfigSchema, ApiError, FindingsConfigSchema, FindingsResultsSchema, type FindingsConfig, type FindingsDetail } from '../../../preload/contract'
import { ablationDetail, saveAblation } from '../ablation'
import { allClaims, type PlanContext } from './claims'
import { planFor } from './plan'
import { findingsStore, type FindingsRecord, type FindingsStatus } from './store'
import { findingsColumns } from './columns'

export type { StoredExperiment } from './columns'
import type { StoredExperiment } from './columns'

const validation = (err: unknown): never => {
  throw new ApiError('VALIDATION', err instanceof Error ? err.message : String(err))
}

export function saveFindings(raw: SQLite.Database, config: FindingsConfig): FindingsDetail {
  let plan: PlanContext
  try {
    plan = planFor(raw, config)
  } catch (err) {
    return validation(err)
  }
  const chosen = allClaims().filter((c) => config.claims === undefined || config.claims.includes(c.number))
  const unknown = (config.claims ?? []).filter((n) => !allClaims().some((c) => c.number === n))
  if (unknown.length > 0) validation(new Error(`No claim ${unknown.join(', ')}: the claims are ${allClaims().map((c) => c.number).join(', ')}`))
  const only = config.claims === undefined ? '' : `, claim${chosen.length === 1 ? '' : 's'} ${chosen.map((c) => c.number).join(', ')}`
  const name = `Findings (${config.budget}, ${plan.seeds.length} seed${plan.seeds.length === 1 ? '' : 's'}${only})`
  return raw.transaction(() => {
    const experiments: StoredExperiment[] = []
    for (const c of chosen) {
      const { key, config: ablation } = c.experiment(plan)
      const known = experiments.find((e) => e.key === key)
      if (known) {
        known.claims.push(c.name)
        continue
      }
      const saved = saveAblation(raw, `${name} · ${key}`, AblationConfigSchema.parse({ ...ablation, parallel: 1 }))
      experiments.push({ key, ablationId: saved.id, claims: [c.name], seconds: 0 })
    }
    const id = findingsStore(raw).create(name, config, plan, experiments)
    return findingsDetail(raw, id)
  })()
}

export function listFindings(raw: SQLite.Database, finalStatus?: FinalStatus): Omit<FindingsDetail, 'results'>[] {
  return findingsStore(raw)
    .list()
    .map((r) => {
      const { results: _results, ...rest } = detailOf(raw, r, finalStatus)
      return rest
    })
}

type FinalStatus = (jobId: string) => { status: string; error: string | null } | undefined

export function findingsDetail(raw: SQLite.Database, id: number, finalStatus?: FinalStatus): FindingsDetail {
  const record = findingsStore(raw).get(id)
  if (!record) throw new ApiError('NOT_FOUND', `No findings run #${id}`)
  return detailOf(raw, record, finalStatus)
}

function detailOf(raw: SQLite.Database, r: FindingsRecord, finalStatus?: FinalStatus): FindingsDetail {
  let status = r.status as FindingsStatus
  let error = r.error
  // A job that ended without finishing the run (killed, crashed): it can be run again from its finished cells.
  const ended = r.job_id && status === 'running' ? finalStatus?.(r.job_id) : undefined
  if (ended) {
    status = ended.status === 'cancelled' ? 'cancelled' : 'failed'
    error = ended.error ?? 'its job ended before the findings run finished'
  }
  const experiments = findingsColumns.experiments.read(r.experiments_json)
  return {
    id: r.id,
    name: r.name,
    status,
    jobId: r.job_id,
    createdAt: r.created_at,
    finishedAt: r.finished_at,
    error,
    config: FindingsConfigSchema.parse(JSON.parse(r.config_json)),
    experiments: experiments.map((e) => ({ ...e, status: experimentStatus(raw, e.ablationId, finalStatus) })),
    ranOn: findingsColumns.ranOn.readNullable(r.ran_on_json),
    results: r.results_json ? FindingsResultsSchema.parse(JSON.parse(r.results_json)) : null,
  }
}

/** An experiment's ablation status; "deleted" when its ablation was deleted on the Ablations page. */
function experimentStatus(raw: SQLite.Database, ablationId: number, finalStatus?: FinalStatus): string {
  try {
    return ablationDetail(raw, ablationId, finalStatus).status
  } catch (err) {
    if (err instanceof ApiError && err.code === 'NOT_FOUND') return 'deleted'
    throw err
  }
}

export function storedPlan(raw: SQLite.Database, id: number): PlanContext {
  const record = findingsStore(raw).get(id)
  if (!record) throw new Error(`No findings run #${id}`)
  return findingsColumns.plan.read(record.plan_json)
}

/** Before findings.run is queued: the run exists and is not finished. */
export function validateFindingsRun(raw: SQLite.Database, id: number): void {
  const record = findingsStore(raw).get(id)
  if (!record) validation(new Error(`No findings run #${id}`))
  if (record!.status === 'done') validation(new Error(`Findings run #${id} is finished; save a new one to run again`))
}
