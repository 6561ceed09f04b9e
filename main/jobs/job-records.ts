import { ApiError, type Job, type JobKind } from '../../preload/contract'
import type { JobTable } from '../db/schema'
import { storageClause, storageFailureOf, type StorageFailureKind } from '../db/storage-error'
import { toJobDto } from './job-dto'
import type { JobEnd } from './manager-options'
import { planQueue, type PlannedJob, type QueuePlace, type QueuePlan } from './queue-plan'
import type { StatusAnnouncer } from './status-announcer'
import type { JobRow, JobStore } from './store'

export const now = (): string => new Date().toISOString()
/** An error in one line (no stack). */
export const errorLine = (err: unknown): string => (err instanceof Error ? err.message : String(err))
export const TERMINAL = new Set(['done', 'failed', 'cancelled'])

/** How a job ends, as the manager records it (see JobRecords.finish). */
export interface JobOutcome {
  status: 'done' | 'failed' | 'cancelled'
  progress?: number
  message?: string
  error?: string
  result?: unknown
}

/**
 * The jobs as readers see them and the status writes every part of the manager makes. Readers see a
 * queued job with its place in the queue, and a job whose final status the disk would not take as it
 * ended (see `unwritten`), so that one place decides what a job "is" for everyone.
 */
export class JobRecords {
  /**
   * Jobs that ended here whose final status could not be written (a full or failing disk): what they
   * ended as, announced and served from memory, and written when the database takes it again (at the
   * next pump or at shutdown); a process that exits first leaves them "running" for the next start to
   * record as failed.
   */
  private readonly unwritten = new Map<string, Job>()

  constructor(
    private readonly store: JobStore,
    private readonly announcer: StatusAnnouncer,
    private readonly dataDir: string,
    private readonly concurrency: number,
  ) {}

  async get(id: string): Promise<Job> {
    const unwritten = this.unwritten.get(id)
    if (unwritten) return unwritten
    const row = await this.store.get(id)
    if (!row) throw new ApiError('NOT_FOUND', `No job with id ${id}`)
    return this.withPlace(row)
  }

  /** The job of a row for a list: its unwritten end, else the row with its place (`places` read once per list). */
  listed(row: JobRow, places: Map<string, QueuePlace>): Job {
    return this.unwritten.get(row.id) ?? this.withPlace(row, places)
  }

  /** Whether a job's end is held in memory here (it ended in this process, so it is not an orphan). */
  hasUnwritten(id: string): boolean {
    return this.unwritten.has(id)
  }

  /** See JobManager.finalStatus. */
  finalStatus(id: string): JobEnd | undefined {
    const unwritten = this.unwritten.get(id)
    if (unwritten) return { status: unwritten.status as JobEnd['status'], error: unwritten.error }
    const row = this.store.endOf(id)
    if (!row) return { status: 'failed', error: 'its job record is gone' }
    return row.status === 'queued' || row.status === 'running' ? undefined : { status: row.status, error: row.error }
  }

  /** The queue plan from the database as it is now (synchronous: used inside the claiming transaction and by readers). */
  planNow(): QueuePlan {
    const rows = this.store.activeQueue()
    const running: PlannedJob[] = []
    const queued: PlannedJob[] = []
    for (const r of rows) {
      const ours = r.owner_pid === process.pid
      const job: PlannedJob = { id: r.id, kind: r.kind as JobKind, workspaceId: r.workspace_id, ours, elsewhere: ours ? null : r.owner_pid }
      if (r.status === 'running') running.push(job)
      // Our own jobs (adopted ones included: recoverOrphans made them ours); another live process starts its own.
      else queued.push(job)
    }
    return planQueue(running, queued, this.concurrency)
  }

  /** A job as the contract types it, with its place in the queue while it waits. */
  withPlace(row: JobRow, places?: Map<string, QueuePlace>): Job {
    const job = toJobDto(row)
    if (job.status !== 'queued') return job
    const place = (places ?? this.planNow().places).get(job.id)
    if (!place) return job
    return { ...job, queue: place, message: `Waiting for ${place.waitingFor}${row.message.startsWith('Adopted by process') ? ` (${row.message})` : ''}` }
  }

  /** Moves a job to a final status, only from one of `from` (a job never leaves a final status). */
  async finish(id: string, o: JobOutcome, from: JobTable['status'][] = ['queued', 'running']): Promise<Job> {
    const patch: Partial<JobTable> = { status: o.status, finished_at: now(), stage: o.status }
    if (o.progress !== undefined) patch.progress = o.progress
    if (o.message !== undefined) patch.message = o.message
    if (o.error !== undefined) {
      patch.error = o.error
      patch.message = 'Failed'
    }
    if (o.result !== undefined) patch.result_json = JSON.stringify(o.result)
    await this.update(id, patch, true, from)
    return this.get(id)
  }

  /** Writes a patch while the job is in one of `from`; emits the status when asked and something changed. */
  async update(id: string, patch: Partial<JobTable>, emitStatus = false, from?: JobTable['status'][]): Promise<void> {
    const changed = await this.store.update(id, patch, from)
    if (emitStatus && changed > 0) this.announcer.emit(await this.get(id))
  }

  /** Ends a job in memory whose final status the database would not take (see `unwritten`), and announces it. */
  async endUnwritten(row: JobRow, o: JobOutcome, storage: StorageFailureKind, err: unknown): Promise<void> {
    // Its latest record (reading needs no room), else the one it was claimed with.
    const base = toJobDto((await this.store.get(row.id).catch(() => undefined)) ?? row)
    // A job that did finish its work but could not say so is not done as far as anyone can read: failed, with why.
    const clause = storageClause(storage, this.dataDir)
    const before = o.error ?? o.message ?? o.status
    const error =
      o.status === 'done'
        ? `${clause}: the job finished, but its final status could not be written (${errorLine(err)})`
        : `${before.includes(this.dataDir) ? before : `${before}; ${clause}`}; its final status could not be written either`
    const job = { ...base, status: o.status === 'done' ? 'failed' : o.status, stage: o.status === 'done' ? 'failed' : o.status, message: 'Failed', error, finishedAt: now(), result: null } as Job
    this.unwritten.set(row.id, job)
    this.announcer.emit(job)
  }

  /** Writes the final statuses the disk would not take before; each one that still fails waits for the next try. */
  async writeUnwritten(): Promise<void> {
    for (const [id, job] of this.unwritten) {
      try {
        await this.store.update(id, { status: job.status, finished_at: job.finishedAt, stage: job.stage, message: job.message, error: job.error }, ['running'])
        this.unwritten.delete(id)
      } catch (err) {
        if (!storageFailureOf(err)) throw err
        return
      }
    }
  }
}
