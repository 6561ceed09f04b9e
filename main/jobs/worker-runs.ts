import { Worker } from 'node:worker_threads'
import type { JobKind } from '../../preload/contract'
import type { EventBus } from '../events/bus'
import { storageClause, storageFailureOf } from '../db/storage-error'
import { HeldModels } from './held-models'
import type { JobOutcome, JobRecords } from './job-records'
import type { JobManagerOptions } from './manager-options'
import type { WorkerInput, WorkerMessage } from './protocol'
import type { StatusAnnouncer } from './status-announcer'
import type { JobRow, JobStore } from './store'
import { TrailingThrottle } from './trailing-throttle'

interface Running {
  kind: JobKind
  worker: Worker
  cancelFlag: Int32Array
  cancelTimer?: NodeJS.Timeout
  settled: boolean
  /** Progress events (UI and SSE clients) and database writes, each throttled with a trailing edge. */
  events: TrailingThrottle<ProgressMessage>
  writes: TrailingThrottle<ProgressMessage>
}

type ProgressMessage = Extract<WorkerMessage, { type: 'progress' }>
/** The shortest gap between two progress events of one job. */
const PROGRESS_EVENT_MS = 50

export interface WorkerRunsDeps {
  options: Pick<JobManagerOptions, 'dataDir' | 'worker' | 'workspaceDbFile'>
  cancelGraceMs: number
  progressWriteMs: number
  store: JobStore
  records: JobRecords
  announcer: StatusAnnouncer
  events: EventBus
  isClosed: () => boolean
  /** Plans the queue again: a job that ends frees its slot. */
  pump: () => void
}

/**
 * The worker threads of the jobs this manager runs: starting one for a claimed job, its progress and
 * model reports, a cancel request, and settling the job when the thread says it is done or dies.
 * Everything a worker message can change lives here; the manager decides only what to start.
 */
export class WorkerRuns {
  private readonly running = new Map<string, Running>()
  /** Jobs being claimed right now: claimed in the database, not yet in `running`. */
  private readonly claiming = new Set<string>()
  private readonly held = new HeldModels()

  constructor(private readonly deps: WorkerRunsDeps) {}

  isRunning(id: string): boolean {
    return this.running.has(id)
  }

  /** Running or being claimed: alive, as far as orphan recovery is concerned. */
  isRunningOrClaiming(id: string): boolean {
    return this.running.has(id) || this.claiming.has(id)
  }

  /** Claimed but not yet in `running`: recoverOrphans must see it as alive. */
  markClaiming(id: string): void {
    this.claiming.add(id)
  }

  /** The running jobs whose workers hold the model file at an absolute path. */
  modelHolders(path: string): Array<{ jobId: string; kind: JobKind }> {
    return this.held.holdersOf(path)
  }

  /** Starts the worker of a job claimed by startQueued (its row is already "running", its id in `claiming`). */
  async launch(row: JobRow): Promise<void> {
    const { options, records } = this.deps
    let workspaceDbFile: string | null = null
    try {
      if (row.workspace_id) workspaceDbFile = await options.workspaceDbFile(row.workspace_id)
    } catch (err) {
      this.claiming.delete(row.id)
      await records.finish(row.id, { status: 'failed', error: err instanceof Error ? err.message : String(err) })
      // Its slot is free again.
      this.deps.pump()
      return
    }
    const cancelBuffer = new SharedArrayBuffer(4)
    const input: WorkerInput = {
      jobId: row.id,
      kind: row.kind,
      params: JSON.parse(row.params_json),
      dataDir: options.dataDir,
      workspaceDbFile,
      cancelFlag: cancelBuffer,
    }
    if (this.deps.isClosed()) {
      // Shutting down between the claim and the start: leave it queued for the next process.
      this.claiming.delete(row.id)
      await this.deps.store.update(row.id, { status: 'queued', started_at: null, stage: 'queued', message: 'Waiting for a free slot' })
      return
    }
    // Registered before any await, so a cancel arriving now finds the running job.
    const entry = options.worker
    const worker = new Worker(entry.url, { workerData: { ...input, ...entry.workerData } })
    const run: Running = { kind: row.kind as JobKind, worker, cancelFlag: new Int32Array(cancelBuffer), settled: false, events: this.progressEvents(row.id), writes: this.progressWrites(row.id) }
    this.running.set(row.id, run)
    this.claiming.delete(row.id)
    this.deps.announcer.emit(await records.get(row.id))
    this.listen(row, run)
  }

  /** Worker messages, errors and exit settle the job once, whichever comes first. */
  private listen(row: JobRow, run: Running): void {
    // Database writes from worker events must never become unhandled rejections (they would end the process).
    const logged = (p: Promise<unknown>): void => void p.catch((err: unknown) => console.error(`job ${row.id}:`, err))
    const settle = (outcome: JobOutcome): void => logged(this.settle(row, run, outcome))
    run.worker.on('message', (m: WorkerMessage) => {
      if (m.type === 'progress') this.onProgress(run, m)
      else if (m.type === 'model') this.onModel(row.id, run, m)
      else if (m.type === 'done') settle({ status: 'done', progress: 1, message: m.message, result: m.result })
      else if (m.type === 'cancelled') settle({ status: 'cancelled', message: 'Cancelled' })
      else settle({ status: 'failed', error: this.failureText(m) })
    })
    run.worker.on('error', (err) => settle({ status: 'failed', error: `Worker crashed: ${err.message}` }))
    run.worker.on('exit', (code) => {
      const cancelled = Atomics.load(run.cancelFlag, 0) === 1
      settle(cancelled ? { status: 'cancelled', message: 'Cancelled (stopped)' } : { status: 'failed', error: `Worker exited unexpectedly with code ${code}` })
    })
  }

  private async settle(row: JobRow, run: Running, outcome: JobOutcome): Promise<void> {
    if (run.settled) return
    run.settled = true
    clearTimeout(run.cancelTimer)
    run.events.cancel()
    run.writes.cancel()
    this.running.delete(row.id)
    // Whatever the thread held went with it; said before the final status so readers never see a stale holder.
    this.releaseModels(row.id, run.kind)
    try {
      await this.deps.records.finish(row.id, outcome)
    } catch (err) {
      const storage = storageFailureOf(err)
      if (!storage) throw err
      // The disk would not take the final status: it is announced from memory (a waiting command ends now) and written when it can be.
      await this.deps.records.endUnwritten(row, outcome, storage, err)
    }
    this.deps.pump()
  }

  /** Asks a running job to stop at its next cancellation point, and terminates its thread if it has not within the grace time. */
  async requestCancel(id: string): Promise<void> {
    const run = this.running.get(id)
    if (!run) return
    Atomics.store(run.cancelFlag, 0, 1)
    await this.deps.records.update(id, { message: 'Cancelling…' }, false, ['running'])
    // One deadline, not a poll: the exit event settles the job whichever comes first.
    run.cancelTimer ??= setTimeout(() => {
      // The job did not reach a cancellation point in time: stop the thread. SQLite's journal keeps the file consistent.
      void run.worker.terminate()
    }, this.deps.cancelGraceMs)
  }

  /** Stops every running job (the app closes); each is recorded as cancelled so nothing is left "running". */
  async stopAll(): Promise<void> {
    const ids = [...this.running.keys()]
    for (const id of ids) {
      const run = this.running.get(id)
      if (!run) continue
      run.settled = true
      clearTimeout(run.cancelTimer)
      run.events.cancel()
      run.writes.cancel()
      await run.worker.terminate()
      this.running.delete(id)
      this.releaseModels(id, run.kind)
      await this.deps.records.finish(id, { status: 'cancelled', message: 'Stopped because the app closed' }).catch((err: unknown) => {
        if (!storageFailureOf(err)) throw err
      })
    }
  }

  private onModel(id: string, run: Running, m: Extract<WorkerMessage, { type: 'model' }>): void {
    if (run.settled) return
    if (this.held.report(id, run.kind, m.path, m.held)) this.deps.events.emit('job.models', { jobId: id, kind: run.kind, models: this.held.pathsOf(id) })
  }

  private releaseModels(id: string, kind: JobKind): void {
    if (this.held.clear(id)) this.deps.events.emit('job.models', { jobId: id, kind, models: [] })
  }

  /**
   * Progress is throttled for events (every 50 ms) and writes (every progressWriteMs), each with a trailing
   * edge: the newest figure a window held back is emitted and written when the window ends, so a reader
   * never keeps a stale figure. Figures in between may be skipped; the final state always arrives as a status event.
   */
  private onProgress(run: Running, m: ProgressMessage): void {
    if (run.settled) return
    run.events.push(m)
    run.writes.push(m)
  }

  private progressEvents(id: string): TrailingThrottle<ProgressMessage> {
    return new TrailingThrottle(PROGRESS_EVENT_MS, (m) => this.deps.events.emit('job.progress', { jobId: id, progress: m.progress, stage: m.stage, message: m.message }))
  }

  private progressWrites(id: string): TrailingThrottle<ProgressMessage> {
    return new TrailingThrottle(this.deps.progressWriteMs, (m) => {
      void this.deps.records.update(id, { progress: m.progress, stage: m.stage, message: m.message }, false, ['running']).catch((err: unknown) => {
        // A progress figure the disk would not take is skipped (the job's own writes fail and say why); anything else is a bug.
        if (!storageFailureOf(err)) console.error(`job ${id}:`, err)
      })
    })
  }

  /** A worker's failure as the job records it: a storage failure says what happened to the data folder's disk. */
  private failureText(m: Extract<WorkerMessage, { type: 'failed' }>): string {
    const storage = storageFailureOf({ code: m.code, message: m.error })
    return storage ? `${storageClause(storage, this.deps.options.dataDir)}: ${m.error}` : m.error
  }
}
