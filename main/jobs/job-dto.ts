import type { Selectable } from 'kysely'
import { jobKinds, type Job, type JobKind } from '../../preload/contract'
import type { JobTable } from '../db/schema'
import { z } from 'zod'
import { JsonObject, jsonColumn } from '../db/json-column'

/** The jobs table's JSON: params are checked by their kind when the job starts; a result by its kind's schema below. */
const jobColumns = { params: jsonColumn('jobs.params_json', JsonObject), result: jsonColumn('jobs.result_json', z.unknown()) }

/**
 * A stored job as the contract types it. A result stored under an older shape of its kind's result
 * schema reads as null rather than breaking every list that contains it.
 */
export function toJobDto(row: Selectable<JobTable>): Job {
  const kind = row.kind as JobKind
  const stored = jobColumns.result.readNullable(row.result_json)
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
    params: jobColumns.params.read(row.params_json),
    result,
    createdAt: row.created_at,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
  } as Job
}
