/**
 * The job table in app.db. The readers and writers the job manager awaits go through Kysely's async
 * handle; the queue plan, the claim and the final-status lookup are synchronous compiled queries, as
 * they run inside the claiming IMMEDIATE transaction or are handed out as plain lookups.
 */
import type { Insertable, Selectable } from 'kysely'
import type { JobKind } from '../../preload/contract'
import { appQuery } from '../db/query'
import type { OpenedDatabase } from '../db/open'
import type { AppDatabase, JobTable } from '../db/schema'

export type JobRow = Selectable<JobTable>
export type JobStatus = JobTable['status']
export interface OwnerRow {
  id: string
  status: JobStatus
  owner_pid: number | null
}

const endOf = appQuery((db, p: { id: string }) => db.selectFrom('jobs').select(['status', 'error']).where('id', '=', p.id))
const byId = appQuery((db, p: { id: string }) => db.selectFrom('jobs').selectAll().where('id', '=', p.id))
const claim = appQuery((db, p: { id: string; at: string; pid: number }) =>
  db
    .updateTable('jobs')
    .set({ status: 'running', started_at: p.at, stage: 'starting', message: 'Starting', owner_pid: p.pid })
    .where('id', '=', p.id)
    .where('status', '=', 'queued'),
)
const activeQueue = appQuery((db) =>
  db.selectFrom('jobs').select(['id', 'kind', 'workspace_id', 'status', 'owner_pid']).where('status', 'in', ['queued', 'running']).orderBy('created_at').orderBy('id'),
)

const dataVersion = (raw: OpenedDatabase<AppDatabase>['raw']) => raw.prepare<[], number>('PRAGMA data_version').pluck()

export class JobStore {
  private version: ReturnType<typeof dataVersion> | undefined

  constructor(private readonly app: OpenedDatabase<AppDatabase>) {}

  private get db() {
    return this.app.db
  }

  /** Running jobs, optionally of one id or one workspace (for orphan recovery). */
  running(filter: { id?: string; workspaceId?: string }): Promise<OwnerRow[]> {
    let q = this.db.selectFrom('jobs').select(['id', 'status', 'owner_pid']).where('status', '=', 'running')
    if (filter.id !== undefined) q = q.where('id', '=', filter.id)
    if (filter.workspaceId !== undefined) q = q.where('workspace_id', '=', filter.workspaceId)
    return q.execute()
  }

  get(id: string): Promise<JobRow | undefined> {
    return this.db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirst()
  }

  /** Synchronous: the status and error of a job, undefined when its record is gone. */
  endOf(id: string): { status: JobStatus; error: string | null } | undefined {
    return endOf(this.app.raw).get({ id })
  }

  /** Newest first. */
  list(filter: { workspaceId?: string; limit: number }): Promise<JobRow[]> {
    let q = this.db.selectFrom('jobs').selectAll().orderBy('created_at', 'desc').orderBy('id').limit(filter.limit)
    if (filter.workspaceId) q = q.where('workspace_id', '=', filter.workspaceId)
    return q.execute()
  }

  async hasActive(workspaceId: string): Promise<boolean> {
    const row = await this.db.selectFrom('jobs').select('id').where('workspace_id', '=', workspaceId).where('status', 'in', ['queued', 'running']).executeTakeFirst()
    return row !== undefined
  }

  /** Queued or running jobs of one kind in a workspace. */
  active(workspaceId: string, kind: JobKind): Promise<JobRow[]> {
    return this.db.selectFrom('jobs').selectAll().where('workspace_id', '=', workspaceId).where('kind', '=', kind).where('status', 'in', ['queued', 'running']).execute()
  }

  async insert(row: Insertable<JobTable>): Promise<void> {
    await this.db.insertInto('jobs').values(row).execute()
  }

  ownerRow(id: string): Promise<OwnerRow | undefined> {
    return this.db.selectFrom('jobs').select(['id', 'status', 'owner_pid']).where('id', '=', id).executeTakeFirst()
  }

  /** Writes a patch while the job is in one of `from`; the number of rows changed (0 or 1). */
  async update(id: string, patch: Partial<JobTable>, from?: JobStatus[]): Promise<number> {
    let q = this.db.updateTable('jobs').set(patch).where('id', '=', id)
    if (from) q = q.where('status', 'in', from)
    const r = await q.executeTakeFirst()
    return Number(r.numUpdatedRows)
  }

  /** Runs `fn` in one IMMEDIATE transaction (the claim: another process pumping the same queue waits). */
  claiming<T>(fn: () => T): T {
    return this.app.raw.transaction(fn).immediate()
  }

  /** Synchronous: marks a queued job running for this process; its row, or undefined when another claimed it first. */
  claim(id: string, at: string, pid: number): JobRow | undefined {
    if (claim(this.app.raw).run({ id, at, pid }).changes !== 1) return undefined
    return byId(this.app.raw).get({ id })
  }

  /**
   * Synchronous: SQLite's data version of this connection's database, which changes whenever another
   * connection (another process, a worker thread, another job manager here) commits a change to it,
   * and never for this connection's own writes.
   */
  dataVersion(): number {
    this.version ??= dataVersion(this.app.raw)
    return this.version.get()!
  }

  /** Queued jobs queued by another process or by none (candidates for orphan recovery), optionally of one id or workspace. */
  queuedElsewhere(pid: number, filter: { id?: string; workspaceId?: string }): Promise<(OwnerRow & { kind: string })[]> {
    let q = this.db
      .selectFrom('jobs')
      .select(['id', 'kind', 'status', 'owner_pid'])
      .where('status', '=', 'queued')
      .where((eb) => eb.or([eb('owner_pid', 'is', null), eb('owner_pid', '!=', pid)]))
    if (filter.id !== undefined) q = q.where('id', '=', filter.id)
    if (filter.workspaceId !== undefined) q = q.where('workspace_id', '=', filter.workspaceId)
    return q.execute()
  }

  /** Writes a patch to a queued job while its recorded owner is still `ownerPid` (null: none); the rows changed (0 when another process got there first). */
  async patchQueuedOf(id: string, ownerPid: number | null, patch: Partial<JobTable>): Promise<number> {
    const r = await this.db
      .updateTable('jobs')
      .set(patch)
      .where('id', '=', id)
      .where('status', '=', 'queued')
      .where((eb) => (ownerPid === null ? eb('owner_pid', 'is', null) : eb('owner_pid', '=', ownerPid)))
      .executeTakeFirst()
    return Number(r.numUpdatedRows)
  }

  /** Synchronous: queued and running jobs, oldest first (the queue plan's input). */
  activeQueue(): { id: string; kind: string; workspace_id: string | null; status: JobStatus; owner_pid: number | null }[] {
    return activeQueue(this.app.raw).all()
  }
}
