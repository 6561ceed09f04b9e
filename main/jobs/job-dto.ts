import type { Selectable } from 'kysely'
import { jobKinds, type Job, type JobKind } from '../../preload/contract'
import type { JobTable } from '../db/schema'

/**
 * A stored job as the contract types it. A result stored under an older shape of its kind's result
 * schema reads as null rather than breaking every list that contains it.
 */
export function toJobDto(row: Selectable<JobTable>): Job {
  const kind = row.kind as JobKind
  const stored = row.result_json === null ? null : (JSON.parse(row.result_json) as unknown)
  const result = stored === null ? null : (jobKinds[kind]?.result.safeParse(stored).data ?? null)
  return {
    id: row.id,
    kind,
    workspaceId: row.workspace_id,
    status: row.status,
    progress: row.progress,
    stage: row.stage,
    message: row.message,
    error: row.error,
    params: JSON.parse(row.params_json) as Record<string, unknown>,
    result,
    createdAt: row.created_at,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
  } as Job
}
