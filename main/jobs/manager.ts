import { randomUUID } from 'node:crypto'
import { availableParallelism } from 'node:os'
import { ApiError, jobKinds, type Job, type JobKind, type JobParams } from '../../preload/contract'
import type { EventBus } from '../events/bus'
import type { OpenedDatabase } from '../db/open'
import type { AppDatabase } from '../db/schema'
import { JobRecords, now, TERMINAL, type JobOutcome } from './job-records'
import type { JobEnd, JobManagerOptions } from './manager-options'
import { OrphanRecovery } from './orphan-recovery'
import { confineOutputPath, OutputFolders } from './output-paths'
import { dataDirKey, OwnerLock } from './owner-lock'
import { QueueWatch } from './queue-watch'
import { defaultJobLimit } from './queue-plan'
import { StatusAnnouncer } from './status-announcer'
import { JobStore, type JobRow } from './store'
import { WorkerRuns } from './worker-runs'

// The options and result types live apart so the manager's parts can use them; callers import them from here.
export type { JobEnd, JobManagerOptions, JobPreflight, WorkerEntry } from './manager-options'

/** The job managers of this process by data folder: several may share one (tests, a CLI inside the app), and each must see the others' running jobs as alive. */
const managersByDataDir = new Map<string, Set<JobManager>>()

/**
 * Queues jobs, runs each in its own worker thread, persists every status change in app.db and
 * emits contract events. What happens in this process is a reaction (a call, a worker message, a
 * worker exit); what other processes on the same data folder do is seen by the queue watch. Status
 * survives restarts: jobs left "running" by a crash become failed with an explanation, queued ones
 * are adopted (or failed, by a process that does not adopt) with the reason.
 *
 * The work is split by concern: JobRecords (reads, status writes, ends the disk would not take),
 * StatusAnnouncer (job.status once per status), OrphanRecovery (jobs of dead processes), QueueWatch
 * (other processes' changes), WorkerRuns (the threads). This class holds the public API and the pump.
 */
export class JobManager {
  private readonly store: JobStore
  private readonly announcer: StatusAnnouncer
  private readonly records: JobRecords
  private readonly recovery: OrphanRecovery
  private readonly watch: QueueWatch
  private readonly runs: WorkerRuns
  private pumping: Promise<void> = Promise.resolve()
  private closed = false
  private ownerLock: OwnerLock | undefined
  private readonly siblings: Set<JobManager>
  /** Folders the user picked with a native dialog in this process: jobs may write there. */
  readonly outputFolders = new OutputFolders()

  constructor(
    app: OpenedDatabase<AppDatabase>,
    private readonly events: EventBus,
    private readonly options: JobManagerOptions,
  ) {
    const concurrency = Math.max(1, options.concurrency ?? defaultJobLimit(availableParallelism()))
    const isClosed = (): boolean => this.closed
    const pump = (): void => this.pump()
    const get = (id: string): Promise<Job> => this.get(id)
    this.store = new JobStore(app)
    this.announcer = new StatusAnnouncer(events)
    this.records = new JobRecords(this.store, this.announcer, options.dataDir, concurrency)
    const adoptOrphans = options.adoptOrphans ?? true
    this.recovery = new OrphanRecovery(this.store, this.records, this.announcer, { ...options, adoptOrphans }, (id) => this.runsHere(id))
    this.watch = new QueueWatch({ store: this.store, announcer: this.announcer, dataDir: options.dataDir, watchMs: options.watchMs, isClosed, get, pump })
    this.runs = new WorkerRuns({
      options,
      cancelGraceMs: options.cancelGraceMs ?? 3000,
      progressWriteMs: options.progressWriteMs ?? 200,
      store: this.store,
      records: this.records,
      announcer: this.announcer,
      events,
      isClosed,
      pump,
    })
    const key = dataDirKey(options.dataDir)
    let siblings = managersByDataDir.get(key)
    if (!siblings) managersByDataDir.set(key, (siblings = new Set()))
    this.siblings = siblings
  }

  /**
   * Takes this process's owner lock on the data folder (the proof, for other processes, that the jobs
   * it claims are alive), recovers jobs whose process died (crash, kill), then starts queued jobs.
   */
  async init(): Promise<void> {
    // A data folder that cannot be written is only read here: no lock, no recovery, no queue.
    if (this.options.readOnly) return
    this.ownerLock ??= OwnerLock.acquire(this.options.dataDir)
    this.siblings.add(this)
    await this.recovery.recover()
    this.watch.start()
    this.pump()
  }

  /** Whether one of this process's job managers on this data folder runs (or is claiming) the job. */
  private runsHere(id: string): boolean {
    for (const m of this.siblings) if (m.runs.isRunningOrClaiming(id)) return true
    return this.runs.isRunningOrClaiming(id)
  }

  /**
   * Lets jobs write into a folder the user picked with a native dialog (Electron); the data folder is
   * always allowed. Held for this process's life only.
   */
  allowOutputFolder(folder: string): void {
    this.outputFolders.allow(folder)
  }

  /**
   * Resolves when the job reaches done, failed or cancelled, on its final status event. Only this
   * process's events are heard, so a job that another live process runs is refused (wait there).
   */
  async waitFor(id: string): Promise<Job> {
    // While someone waits, the watch keeps the process up: a job queued behind another process's job has no other handle that would.
    this.watch.hold()
    let off = (): void => undefined
    // Subscribed before reading, so an end between the read and the subscription is not missed.
    const ended = new Promise<Job>((resolve) => {
      off = this.events.subscribe((name, payload) => {
        if (name !== 'job.status') return
        const job = payload as Job
        if (job.id === id && TERMINAL.has(job.status)) resolve(job)
      })
    })
    try {
      await this.recovery.recover({ id })
      const job = await this.get(id)
      if (TERMINAL.has(job.status)) return job
      const row = await this.store.ownerRow(id)
      if (row && row.owner_pid !== null && row.owner_pid !== process.pid && this.recovery.ownerOf(row).alive) {
        throw new ApiError('CONFLICT', `Job ${id} belongs to another process (pid ${row.owner_pid}): wait for it there`)
      }
      return await ended
    } finally {
      off()
      this.watch.release()
    }
  }

  async get(id: string): Promise<Job> {
    return this.records.get(id)
  }

  /**
   * How a job ended, or undefined while it is queued or running; a job whose record is gone reads as
   * failed. Synchronous, so it can be handed to readers as a lookup (listRuns).
   */
  readonly finalStatus = (id: string): JobEnd | undefined => this.records.finalStatus(id)

  async list(filter: { workspaceId?: string; limit: number }): Promise<Job[]> {
    await this.recovery.recover(filter.workspaceId !== undefined ? { workspaceId: filter.workspaceId } : {})
    const rows = await this.store.list(filter)
    const places = this.records.planNow().places
    return rows.map((row) => this.records.listed(row, places))
  }

  async hasActive(workspaceId: string): Promise<boolean> {
    // A job left "running" by a dead process must not keep its workspace from being deleted.
    await this.recovery.recover({ workspaceId })
    return this.store.hasActive(workspaceId)
  }

  /** Queued or running jobs of one kind in a workspace (jobs left by dead processes recovered first). */
  async active(workspaceId: string, kind: JobKind): Promise<Job[]> {
    await this.recovery.recover({ workspaceId })
    const rows = await this.store.active(workspaceId, kind)
    const places = this.records.planNow().places
    return rows.map((row) => this.records.withPlace(row, places))
  }

  /** The running jobs whose workers hold the model file at an absolute path. */
  modelHolders(path: string): Array<{ jobId: string; kind: JobKind }> {
    return this.runs.modelHolders(path)
  }

  /**
   * Queues a job. Its parameters were parsed against the kind's contract at the transport (the API
   * dispatcher, which the CLI also calls); here they get the kind's preflight, and the worker parses what
   * is stored once more at the thread boundary.
   */
  async start<K extends JobKind>(kind: K, workspaceId: string | null, params: JobParams<K>): Promise<Job> {
    if (this.closed) throw new ApiError('CONFLICT', 'The job system is shutting down')
    if (this.options.readOnly) throw new ApiError('CONFLICT', `The data folder ${this.options.dataDir} is not writable (${this.options.readOnly}): the ${kind} job writes to it; commands that only read work`)
    const confined = this.confineOutputs(kind, params)
    const needsWorkspace = jobKinds[kind].workspace
    if (needsWorkspace && !workspaceId) throw new ApiError('VALIDATION', `${kind} runs against a workspace: give its workspaceId`)
    if (!needsWorkspace && workspaceId) throw new ApiError('VALIDATION', `${kind} does not run against a workspace`)
    if (workspaceId) await this.options.workspaceDbFile(workspaceId)
    const queued = (await this.options.preflight?.[kind]?.(confined, workspaceId)) ?? confined
    const id = randomUUID()
    await this.store.insert({
      id,
      kind,
      workspace_id: workspaceId,
      status: 'queued',
      progress: 0,
      stage: 'queued',
      message: 'Waiting for a free slot',
      error: null,
      params_json: JSON.stringify(queued),
      result_json: null,
      created_at: now(),
      started_at: null,
      finished_at: null,
      // The creating process runs its own jobs; another process takes them over only if this one dies.
      owner_pid: process.pid,
    })
    const job = await this.get(id)
    this.announcer.emit(job, true)
    this.pump()
    return job
  }

  /**
   * A file a job writes (the `path` of a kind declared `writesPath`) must lie in the data folder or in a folder the user picked
   * natively in this process; it is stored resolved (symlinks followed), so the worker writes exactly
   * where this check looked. VALIDATION otherwise, before anything is queued.
   */
  private confineOutputs<K extends JobKind>(kind: K, params: JobParams<K>): JobParams<K> {
    if (!jobKinds[kind].writesPath) return params
    const p = params as JobParams<K> & { path?: string }
    if (p.path === undefined) return params
    return { ...p, path: confineOutputPath(p.path, [this.options.dataDir, ...this.outputFolders.list()]) } as JobParams<K>
  }

  async cancel(id: string): Promise<Job> {
    const job = await this.get(id)
    if (TERMINAL.has(job.status)) return job
    if (!this.runs.isRunning(id)) return this.cancelNotRunningHere(id)
    await this.runs.requestCancel(id)
    return this.get(id)
  }

  /** Cancels a job this manager does not run: still queued, or running in a process that may be dead. */
  private async cancelNotRunningHere(id: string): Promise<Job> {
    // Still queued: cancelling is a status change, guarded so that a launch claiming the job at the same moment wins or loses cleanly.
    const after = await this.finish(id, { status: 'cancelled', message: 'Cancelled before it started' }, ['queued'])
    // The jobs behind it move up (or start, when it was holding back its workspace).
    if (after.status === 'cancelled') this.pump()
    if (after.status !== 'running') return after
    if (this.runs.isRunning(id)) return this.cancel(id)
    // Running elsewhere: a dead owner (crashed, killed, a zombie, a pid now used by another program) cannot stop it, so it is recovered here.
    await this.recovery.recover({ id })
    const current = await this.get(id)
    if (TERMINAL.has(current.status)) return current
    if (this.runs.isRunning(id)) return this.cancel(id)
    const row = await this.store.ownerRow(id)
    throw new ApiError('CONFLICT', `Job ${id} is running in another process (pid ${row?.owner_pid ?? '?'}): cancel it there`)
  }

  /** Stops every running job; they are recorded as cancelled so nothing is left "running". Queued jobs stay queued. */
  async shutdown(): Promise<void> {
    if (this.closed && !this.siblings.has(this)) return
    this.closed = true
    this.watch.stop()
    await this.pumping
    // A last try at final statuses the disk would not take; what still fails is recorded at the next start.
    await this.records.writeUnwritten()
    await this.runs.stopAll()
    // Every job of ours is settled: the lock can go, and with it the claim that this process runs them.
    this.siblings.delete(this)
    if (this.siblings.size === 0 && managersByDataDir.get(dataDirKey(this.options.dataDir)) === this.siblings) managersByDataDir.delete(dataDirKey(this.options.dataDir))
    this.ownerLock?.release()
    this.ownerLock = undefined
  }

  private pump(): void {
    this.pumping = this.pumping.then(() => this.startQueued()).catch((err) => console.error('job queue error:', err))
  }

  /**
   * Starts every queued job the plan allows (planQueue: the job limit, each kind's exclusivity),
   * claiming them in one IMMEDIATE transaction so that another process pumping the same queue sees
   * them running; then tells listeners about queued jobs whose place changed.
   */
  private async startQueued(): Promise<void> {
    if (this.closed) return
    await this.records.writeUnwritten()
    // A running job of a dead process must not hold a slot or a workspace.
    await this.recovery.recover()
    if (this.closed) return
    const claimed = this.store.claiming(() => {
      const plan = this.records.planNow()
      const rows: JobRow[] = []
      for (const job of plan.start) {
        const row = this.store.claim(job.id, now(), process.pid)
        if (!row) continue
        // Claimed but not yet in `running`: recovery must see it as alive.
        this.runs.markClaiming(job.id)
        rows.push(row)
      }
      return rows
    })
    for (const row of claimed) await this.runs.launch(row)
    await this.announcer.announcePlaces(this.records.planNow().places, (id) => this.get(id))
  }

  private finish(id: string, o: JobOutcome, from?: Parameters<JobRecords['finish']>[2]): Promise<Job> {
    return this.records.finish(id, o, from)
  }
}
