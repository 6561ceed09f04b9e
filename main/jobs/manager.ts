import { randomUUID } from 'node:crypto'
import { availableParallelism } from 'node:os'
import { Worker } from 'node:worker_threads'
import { ApiError, jobKinds, type Job, type JobKind, type JobParams } from '../../preload/contract'
import type { EventBus } from '../events/bus'
import type { OpenedDatabase } from '../db/open'
import type { AppDatabase, JobTable } from '../db/schema'
import { HeldModels } from './held-models'
import { toJobDto } from './job-dto'
import { storageClause, storageFailureOf, type StorageFailureKind } from '../db/storage-error'
import { confineOutputPath, OutputFolders } from './output-paths'
import { dataDirKey, OwnerLock, ownerStatus, type OwnerStatus } from './owner-lock'
import type { WorkerInput, WorkerMessage } from './protocol'
import { JobStore, type JobRow, type OwnerRow } from './store'
import { defaultJobLimit, planQueue, type PlannedJob, type QueuePlace, type QueuePlan } from './queue-plan'
import { TrailingThrottle } from './trailing-throttle'

/**
 * Where the worker script is, as its caller knows it: the built `job-worker.js`, or the source loader with
 * the entry it loads in `workerData` (main/job-kinds/source-entry.ts, for the CLI and tests).
 */
export interface WorkerEntry {
  url: URL
  workerData?: Record<string, string>
}

/**
 * Checks a kind needs before it is queued (a question set exists, a model file is there), so mistakes fail at once.
 * A check that resolves the parameters (a training config's default reward) returns what it resolved: that is
 * what is stored and what the worker runs, so the semantic checks run once, here.
 */
export type JobPreflight = { [K in JobKind]?: (params: JobParams<K>, workspaceId: string | null) => Promise<JobParams<K> | void> }

/** How a job ended, for readers that reconcile their own records with it (runs of an evaluation). */
export interface JobEnd {
  status: 'done' | 'failed' | 'cancelled'
  error: string | null
}

export interface JobManagerOptions {
  dataDir: string
  worker: WorkerEntry
  /** Resolves the database file of a workspace (throws NOT_FOUND). */
  workspaceDbFile: (workspaceId: string) => Promise<string>
  preflight?: JobPreflight
  /**
   * Jobs run at once in this data folder (every process's running jobs count); the rest wait in the
   * queue. Default: the cores less one, at least one. Kinds declared exclusive wait for their workspace.
   */
  concurrency?: number
  /** After a cancel request, a job that has not stopped by itself within this time is terminated. */
  cancelGraceMs?: number
  /** Minimum interval between persisted progress updates. */
  progressWriteMs?: number
  /**
   * What to do with a queued job whose process died before it started it: adopt it and run it here,
   * saying so (the app and browser mode, default), or fail it with the reason (a command-line
   * command, which exists for its own job and must not run another's before it).
   */
  adoptOrphans?: boolean
  /** How often the database is looked at for other processes' changes to the queue (see watch()). */
  watchMs?: number
  /** Why the data folder cannot be written, or null/absent: jobs are then refused, and nothing is written (no lock, no recovery). */
  readOnly?: string | null
  /**
   * Called after a job of a process that died is recorded as failed (recovery at start-up or on a
   * read), so its workspace can settle what that job left running (its run).
   */
  onRecovered?: (job: Job) => Promise<void>
}

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

const now = (): string => new Date().toISOString()
/** An error in one line (no stack). */
const errorLine = (err: unknown): string => (err instanceof Error ? err.message : String(err))
const TERMINAL = new Set(['done', 'failed', 'cancelled'])

/** How often the queue is looked at for other processes' changes: a PRAGMA read, a few microseconds. */
const WATCH_MS = 250

/** The job managers of this process by data folder: several may share one (tests, a CLI inside the app), and each must see the others' running jobs as alive. */
const managersByDataDir = new Map<string, Set<JobManager>>()

/**
 * Queues jobs, runs each in its own worker thread, persists every status change in app.db and
 * emits contract events. What happens in this process is a reaction (a call, a worker message, a
 * worker exit); what other processes on the same data folder do is seen by watch(). Status survives
 * restarts: jobs left "running" by a crash become failed with an explanation, queued ones are adopted
 * (or failed, by a process that does not adopt) with the reason.
 */
export class JobManager {
  private readonly running = new Map<string, Running>()
  private readonly held = new HeldModels()
  private readonly concurrency: number
  private readonly cancelGraceMs: number
  private readonly progressWriteMs: number
  /** Jobs being claimed right now: claimed in the database, not yet in `running`. */
  private readonly claiming = new Set<string>()
  /** The queue place last announced for each queued job (position|reason). */
  private readonly announced = new Map<string, string>()
  private pumping: Promise<void> = Promise.resolve()
  private closed = false
  private ownerLock: OwnerLock | undefined
  private readonly siblings: Set<JobManager>
  private readonly store: JobStore
  private readonly adoptOrphans: boolean
  /** The watch on other processes' changes (watch()); referenced only while someone waits for a job. */
  private watchTimer: NodeJS.Timeout | undefined
  private waiters = 0
  private seenVersion = -1
  /** The queue as the watch last saw it: status and owner by job id. */
  private seen = new Map<string, { status: string; owner: number | null }>()
  /** The last status this manager announced for each job, so a change is announced once, whoever saw it first. */
  private readonly announcedStatus = new Map<string, string>()
  /** This manager changed the queue since the watch last read it. */
  private changedHere = false
  /** Folders the user picked with a native dialog in this process: jobs may write there. */
  readonly outputFolders = new OutputFolders()
  /**
   * Jobs that ended here whose final status could not be written (a full or failing disk): what they
   * ended as, announced and served from memory, and written when the database takes it again (at the
   * next pump or at shutdown); a process that exits first leaves them "running" for the next start to
   * record as failed.
   */
  private readonly unwritten = new Map<string, Job>()

  constructor(
    private readonly app: OpenedDatabase<AppDatabase>,
    private readonly events: EventBus,
    private readonly options: JobManagerOptions,
  ) {
    this.concurrency = Math.max(1, options.concurrency ?? defaultJobLimit(availableParallelism()))
    this.cancelGraceMs = options.cancelGraceMs ?? 3000
    this.progressWriteMs = options.progressWriteMs ?? 200
    this.store = new JobStore(app)
    this.adoptOrphans = options.adoptOrphans ?? true
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
    await this.recoverOrphans()
    this.watch()
    this.pump()
  }

  /**
   * Sees what other processes on this data folder do to the queue: a job of theirs that ends (which
   * may free a slot or a workspace for a job queued here), a job they queue, cancel or start, and a
   * process that dies without a word (its running jobs fail, its queued jobs are adopted or failed).
   *
   * Why `PRAGMA data_version` on an interval rather than fs.watch on app.db and its WAL: the pragma
   * answers from SQLite's own shared memory whether another connection committed since it was last
   * asked (a few microseconds, no I/O, never true for this connection's own writes), it works on every
   * platform and filesystem SQLite supports, whereas fs.watch misses changes on network filesystems,
   * coalesces or drops events (macOS) and fires on every progress write and checkpoint; and a process
   * killed with -9 changes nothing in the database at all, so its death has to be asked about anyway
   * (ownerStatus, while a job here waits). Only when the version moved is the queue read (one indexed
   * query), and only when that changed does the queue get planned again, so progress writes elsewhere
   * cost one query. The timer is unreferenced, so it keeps no process alive, except while someone
   * waits for a job (waitFor): then a command-line command that waits behind another process's job
   * stays up until its own job has run.
   */
  private watch(): void {
    if (this.watchTimer) return
    this.seenVersion = this.store.dataVersion()
    this.seen = new Map(this.store.activeQueue().map((r) => [r.id, { status: r.status, owner: r.owner_pid }]))
    this.watchTimer = setInterval(() => {
      try {
        this.look()
      } catch (err) {
        console.error('job queue watch:', err)
      }
    }, this.options.watchMs ?? WATCH_MS)
    if (this.waiters === 0) this.watchTimer.unref()
  }

  /** One look at the database (see watch()). */
  private look(): void {
    if (this.closed) return
    const version = this.store.dataVersion()
    const moved = version !== this.seenVersion
    this.seenVersion = version
    const waiting = [...this.seen.values()].some((j) => j.status === 'queued')
    if (!moved && !waiting && !this.changedHere) return
    this.changedHere = false
    const rows = this.store.activeQueue()
    const now = new Map(rows.map((r) => [r.id, { status: r.status, owner: r.owner_pid }]))
    const changed = [...this.seen.keys()].filter((id) => now.get(id)?.status !== this.seen.get(id)!.status || now.get(id)?.owner !== this.seen.get(id)!.owner)
    const added = rows.filter((r) => !this.seen.has(r.id)).map((r) => r.id)
    this.seen = now
    // Ended jobs already announced and gone from the queue are forgotten.
    const touched = new Set([...changed, ...added])
    for (const [id, status] of this.announcedStatus) if (TERMINAL.has(status) && !now.has(id) && !touched.has(id)) this.announcedStatus.delete(id)
    let wake = touched.size > 0
    if (wake) void this.announceChanges([...touched]).catch((err: unknown) => console.error('job queue watch:', err))
    // Nothing changed in the database: a job waits here on another process that may have died without a word.
    if (!wake && rows.some((r) => r.status === 'queued')) {
      const others = new Set<number | null>(rows.filter((r) => r.owner_pid !== process.pid).map((r) => r.owner_pid))
      wake = [...others].some((pid) => pid === null || !ownerStatus(this.options.dataDir, pid).alive)
    }
    if (wake) this.pump()
  }

  /** Status events for jobs whose status changed elsewhere (another process, or this one before it said so: emitStatus says it once). */
  private async announceChanges(ids: string[]): Promise<void> {
    for (const id of ids) {
      const job = await this.get(id).catch(() => undefined)
      if (job) this.emitStatus(job)
    }
  }

  /** A job.status event, once per status of a job (`again`: a queued job's new place or message). */
  private emitStatus(job: Job, again = false): void {
    this.changedHere = true
    if (!again && this.announcedStatus.get(job.id) === job.status) return
    this.announcedStatus.set(job.id, job.status)
    this.events.emit('job.status', job)
  }

  /**
   * Whether the owner of a job is alive. Another process is asked through its owner lock and /proc
   * (ownerStatus: a zombie or a reused pid is dead); in this process, a running job is alive only
   * while one of its job managers runs it, and a queued one is always ours to run.
   */
  private ownerOf(row: { id: string; status: string; owner_pid: number | null }): OwnerStatus {
    if (row.owner_pid === null) return { alive: false, reason: 'no owner process recorded' }
    if (row.owner_pid !== process.pid) return ownerStatus(this.options.dataDir, row.owner_pid)
    if (row.status !== 'running' || this.unwritten.has(row.id)) return { alive: true, reason: 'this process' }
    for (const m of this.siblings) if (m.running.has(row.id) || m.claiming.has(row.id)) return { alive: true, reason: 'this process' }
    if (this.running.has(row.id) || this.claiming.has(row.id)) return { alive: true, reason: 'this process' }
    return { alive: false, reason: `this process (pid ${process.pid}) does not run it: it was started before a restart` }
  }

  /**
   * Running jobs whose owning process is gone become failed, with the reason: at start-up, and
   * whenever a caller is about to act on a job's "running" (list, cancel, wait, delete a workspace).
   */
  private async recoverOrphans(filter: { id?: string; workspaceId?: string } = {}): Promise<void> {
    if (this.options.readOnly) return
    for (const job of await this.store.running(filter)) {
      const owner = this.ownerOf(job)
      if (owner.alive) continue
      const who = job.owner_pid === null ? 'the process running this job' : `the process running this job (pid ${job.owner_pid})`
      let ended: Job
      try {
        ended = await this.finish(job.id, { status: 'failed', error: `Interrupted: ${who} stopped before it finished: ${owner.reason}` }, ['running'])
      } catch (err) {
        // Still no room to write it: it stays for the next look; readers see it as it is.
        if (storageFailureOf(err)) continue
        throw err
      }
      if (ended.status === 'failed') await this.options.onRecovered?.(ended).catch((err: unknown) => console.error(`job ${job.id}: settling what it left running: ${errorLine(err)}`))
    }
    for (const job of await this.store.queuedElsewhere(process.pid, filter)) {
      const owner = this.ownerOf(job)
      if (owner.alive) continue
      const who = job.owner_pid === null ? 'the process that queued it' : `the process that queued it (pid ${job.owner_pid})`
      if (this.adoptOrphans) {
        // Guarded by the old owner: of two processes adopting at once, one does.
        const message = `Adopted by process ${process.pid}: ${who} stopped before starting it (${owner.reason})`
        if ((await this.store.patchQueuedOf(job.id, job.owner_pid, { owner_pid: process.pid, message })) === 0) continue
        // Said on this process's console, and in the job's message while it waits (announcePlaces sends it).
        console.warn(`Job ${job.id} (${job.kind}): ${message}`)
        this.changedHere = true
      } else {
        const error = `Not run: ${who} stopped before starting it (${owner.reason}); process ${process.pid} does not take over another process's jobs: start it again`
        const patch = { status: 'failed' as const, finished_at: now(), stage: 'failed', message: 'Failed', error }
        if ((await this.store.patchQueuedOf(job.id, job.owner_pid, patch)) === 0) continue
        this.emitStatus(await this.get(job.id))
      }
    }
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
    if (this.waiters++ === 0) this.watchTimer?.ref()
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
      await this.recoverOrphans({ id })
      const job = await this.get(id)
      if (TERMINAL.has(job.status)) return job
      const row = await this.ownerRow(id)
      if (row && row.owner_pid !== null && row.owner_pid !== process.pid && this.ownerOf(row).alive) {
        throw new ApiError('CONFLICT', `Job ${id} belongs to another process (pid ${row.owner_pid}): wait for it there`)
      }
      return await ended
    } finally {
      off()
      if (--this.waiters === 0) this.watchTimer?.unref()
    }
  }

  async get(id: string): Promise<Job> {
    const unwritten = this.unwritten.get(id)
    if (unwritten) return unwritten
    const row = await this.store.get(id)
    if (!row) throw new ApiError('NOT_FOUND', `No job with id ${id}`)
    return this.withPlace(row)
  }

  /**
   * How a job ended, or undefined while it is queued or running; a job whose record is gone reads as
   * failed. Synchronous, so it can be handed to readers as a lookup (listRuns).
   */
  readonly finalStatus = (id: string): JobEnd | undefined => {
    const unwritten = this.unwritten.get(id)
    if (unwritten) return { status: unwritten.status as JobEnd['status'], error: unwritten.error }
    const row = this.store.endOf(id)
    if (!row) return { status: 'failed', error: 'its job record is gone' }
    return row.status === 'queued' || row.status === 'running' ? undefined : { status: row.status, error: row.error }
  }

  async list(filter: { workspaceId?: string; limit: number }): Promise<Job[]> {
    await this.recoverOrphans(filter.workspaceId !== undefined ? { workspaceId: filter.workspaceId } : {})
    const rows = await this.store.list(filter)
    const places = this.planNow().places
    return rows.map((row) => this.unwritten.get(row.id) ?? this.withPlace(row, places))
  }

  async hasActive(workspaceId: string): Promise<boolean> {
    // A job left "running" by a dead process must not keep its workspace from being deleted.
    await this.recoverOrphans({ workspaceId })
    return this.store.hasActive(workspaceId)
  }

  /** Queued or running jobs of one kind in a workspace (jobs left by dead processes recovered first). */
  async active(workspaceId: string, kind: JobKind): Promise<Job[]> {
    await this.recoverOrphans({ workspaceId })
    const rows = await this.store.active(workspaceId, kind)
    const places = this.planNow().places
    return rows.map((row) => this.withPlace(row, places))
  }

  /** The running jobs whose workers hold the model file at an absolute path. */
  modelHolders(path: string): Array<{ jobId: string; kind: JobKind }> {
    return this.held.holdersOf(path)
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
    this.emitStatus(job, true)
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
    const run = this.running.get(id)
    if (!run) {
      // Still queued: cancelling is a status change, guarded so that a launch claiming the job at the same moment wins or loses cleanly.
      const after = await this.finish(id, { status: 'cancelled', message: 'Cancelled before it started' }, ['queued'])
      // The jobs behind it move up (or start, when it was holding back its workspace).
      if (after.status === 'cancelled') this.pump()
      if (after.status !== 'running') return after
      if (this.running.has(id)) return this.cancel(id)
      // Running elsewhere: a dead owner (crashed, killed, a zombie, a pid now used by another program) cannot stop it, so it is recovered here.
      await this.recoverOrphans({ id })
      const current = await this.get(id)
      if (TERMINAL.has(current.status)) return current
      if (this.running.has(id)) return this.cancel(id)
      const row = await this.ownerRow(id)
      throw new ApiError('CONFLICT', `Job ${id} is running in another process (pid ${row?.owner_pid ?? '?'}): cancel it there`)
    }
    Atomics.store(run.cancelFlag, 0, 1)
    await this.update(id, { message: 'Cancelling…' }, false, ['running'])
    // One deadline, not a poll: the exit event settles the job whichever comes first.
    run.cancelTimer ??= setTimeout(() => {
      // The job did not reach a cancellation point in time: stop the thread. SQLite's journal keeps the file consistent.
      void run.worker.terminate()
    }, this.cancelGraceMs)
    return this.get(id)
  }

  /** Stops every running job; they are recorded as cancelled so nothing is left "running". Queued jobs stay queued. */
  async shutdown(): Promise<void> {
    if (this.closed && !this.siblings.has(this)) return
    this.closed = true
    clearInterval(this.watchTimer)
    this.watchTimer = undefined
    await this.pumping
    // A last try at final statuses the disk would not take; what still fails is recorded at the next start.
    await this.writeUnwritten()
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
      await this.finish(id, { status: 'cancelled', message: 'Stopped because the app closed' }).catch((err: unknown) => {
        if (!storageFailureOf(err)) throw err
      })
    }
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
    await this.writeUnwritten()
    // A running job of a dead process must not hold a slot or a workspace.
    await this.recoverOrphans()
    if (this.closed) return
    const claimed = this.store.claiming(() => {
      const plan = this.planNow()
      const rows: JobRow[] = []
      for (const job of plan.start) {
        const row = this.store.claim(job.id, now(), process.pid)
        if (!row) continue
        // Claimed but not yet in `running`: recoverOrphans must see it as alive.
        this.claiming.add(job.id)
        rows.push(row)
      }
      return rows
    })
    for (const row of claimed) await this.launch(row)
    await this.announcePlaces()
  }

  /** The queue plan from the database as it is now (synchronous: used inside the claiming transaction and by readers). */
  private planNow(): QueuePlan {
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

  /** Queued jobs whose place or reason changed since the last announcement get a status event. */
  private async announcePlaces(): Promise<void> {
    const places = this.planNow().places
    for (const id of this.announced.keys()) if (!places.has(id)) this.announced.delete(id)
    for (const [id, place] of places) {
      const key = `${place.position}|${place.waitingFor}`
      if (this.announced.get(id) === key) continue
      this.announced.set(id, key)
      const job = await this.get(id).catch(() => undefined)
      if (job?.status === 'queued') this.emitStatus(job, true)
    }
  }

  /** A job as the contract types it, with its place in the queue while it waits. */
  private withPlace(row: JobRow, places?: Map<string, QueuePlace>): Job {
    const job = toJobDto(row)
    if (job.status !== 'queued') return job
    const place = (places ?? this.planNow().places).get(job.id)
    if (!place) return job
    return { ...job, queue: place, message: `Waiting for ${place.waitingFor}${row.message.startsWith('Adopted by process') ? ` (${row.message})` : ''}` }
  }

  private async ownerRow(id: string): Promise<OwnerRow | undefined> {
    return this.store.ownerRow(id)
  }

  /** Starts the worker of a job claimed by startQueued (its row is already "running", its id in `claiming`). */
  private async launch(row: JobRow): Promise<void> {
    let workspaceDbFile: string | null = null
    try {
      if (row.workspace_id) workspaceDbFile = await this.options.workspaceDbFile(row.workspace_id)
    } catch (err) {
      this.claiming.delete(row.id)
      await this.finish(row.id, { status: 'failed', error: err instanceof Error ? err.message : String(err) })
      // Its slot is free again.
      this.pump()
      return
    }
    const kind = row.kind as JobKind
    const cancelBuffer = new SharedArrayBuffer(4)
    const input: WorkerInput = {
      jobId: row.id,
      kind: row.kind,
      params: JSON.parse(row.params_json),
      dataDir: this.options.dataDir,
      workspaceDbFile,
      cancelFlag: cancelBuffer,
    }
    if (this.closed) {
      // Shutting down between the claim and the start: leave it queued for the next process.
      this.claiming.delete(row.id)
      await this.store.update(row.id, { status: 'queued', started_at: null, stage: 'queued', message: 'Waiting for a free slot' })
      return
    }
    // Registered before any await, so a cancel arriving now finds the running job.
    const entry = this.options.worker
    const worker = new Worker(entry.url, { workerData: { ...input, ...entry.workerData } })
    const run: Running = { kind, worker, cancelFlag: new Int32Array(cancelBuffer), settled: false, events: this.progressEvents(row.id), writes: this.progressWrites(row.id) }
    this.running.set(row.id, run)
    this.claiming.delete(row.id)
    this.emitStatus(await this.get(row.id))

    const settle = async (outcome: Parameters<JobManager['finish']>[1]): Promise<void> => {
      if (run.settled) return
      run.settled = true
      clearTimeout(run.cancelTimer)
      run.events.cancel()
      run.writes.cancel()
      this.running.delete(row.id)
      // Whatever the thread held went with it; said before the final status so readers never see a stale holder.
      this.releaseModels(row.id, kind)
      try {
        await this.finish(row.id, outcome)
      } catch (err) {
        const storage = storageFailureOf(err)
        if (!storage) throw err
        // The disk would not take the final status: it is announced from memory (a waiting command ends now) and written when it can be.
        await this.endUnwritten(row, outcome, storage, err)
      }
      this.pump()
    }

    // Database writes from worker events must never become unhandled rejections (they would end the process).
    const logged = (p: Promise<unknown>): void => void p.catch((err: unknown) => console.error(`job ${row.id}:`, err))
    worker.on('message', (m: WorkerMessage) => {
      if (m.type === 'progress') this.onProgress(run, m)
      else if (m.type === 'model') this.onModel(row.id, run, m)
      else if (m.type === 'done') logged(settle({ status: 'done', progress: 1, message: m.message, result: m.result }))
      else if (m.type === 'cancelled') logged(settle({ status: 'cancelled', message: 'Cancelled' }))
      else logged(settle({ status: 'failed', error: this.failureText(m) }))
    })
    worker.on('error', (err) => logged(settle({ status: 'failed', error: `Worker crashed: ${err.message}` })))
    worker.on('exit', (code) => {
      const cancelled = Atomics.load(run.cancelFlag, 0) === 1
      logged(
        settle(
          cancelled
            ? { status: 'cancelled', message: 'Cancelled (stopped)' }
            : { status: 'failed', error: `Worker exited unexpectedly with code ${code}` },
        ),
      )
    })
  }

  private onModel(id: string, run: Running, m: Extract<WorkerMessage, { type: 'model' }>): void {
    if (run.settled) return
    if (this.held.report(id, run.kind, m.path, m.held)) this.events.emit('job.models', { jobId: id, kind: run.kind, models: this.held.pathsOf(id) })
  }

  private releaseModels(id: string, kind: JobKind): void {
    if (this.held.clear(id)) this.events.emit('job.models', { jobId: id, kind, models: [] })
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
    return new TrailingThrottle(PROGRESS_EVENT_MS, (m) => this.events.emit('job.progress', { jobId: id, progress: m.progress, stage: m.stage, message: m.message }))
  }

  private progressWrites(id: string): TrailingThrottle<ProgressMessage> {
    return new TrailingThrottle(this.progressWriteMs, (m) => {
      void this.update(id, { progress: m.progress, stage: m.stage, message: m.message }, false, ['running']).catch((err: unknown) => {
        // A progress figure the disk would not take is skipped (the job's own writes fail and say why); anything else is a bug.
        if (!storageFailureOf(err)) console.error(`job ${id}:`, err)
      })
    })
  }

  /** A worker's failure as the job records it: a storage failure says what happened to the data folder's disk. */
  private failureText(m: Extract<WorkerMessage, { type: 'failed' }>): string {
    const storage = storageFailureOf({ code: m.code, message: m.error })
    return storage ? `${storageClause(storage, this.options.dataDir)}: ${m.error}` : m.error
  }

  /** Ends a job in memory whose final status the database would not take (see `unwritten`), and announces it. */
  private async endUnwritten(row: JobRow, o: Parameters<JobManager['finish']>[1], storage: StorageFailureKind, err: unknown): Promise<void> {
    // Its latest record (reading needs no room), else the one it was claimed with.
    const base = toJobDto((await this.store.get(row.id).catch(() => undefined)) ?? row)
    // A job that did finish its work but could not say so is not done as far as anyone can read: failed, with why.
    const clause = storageClause(storage, this.options.dataDir)
    const before = o.error ?? o.message ?? o.status
    const error =
      o.status === 'done'
        ? `${clause}: the job finished, but its final status could not be written (${errorLine(err)})`
        : `${before.includes(this.options.dataDir) ? before : `${before}; ${clause}`}; its final status could not be written either`
    const job = { ...base, status: o.status === 'done' ? 'failed' : o.status, stage: o.status === 'done' ? 'failed' : o.status, message: 'Failed', error, finishedAt: now(), result: null } as Job
    this.unwritten.set(row.id, job)
    this.emitStatus(job)
  }

  /** Writes the final statuses the disk would not take before; each one that still fails waits for the next try. */
  private async writeUnwritten(): Promise<void> {
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

  /** Moves a job to a final status, only from one of `from` (a job never leaves a final status). */
  private async finish(
    id: string,
    o: { status: 'done' | 'failed' | 'cancelled'; progress?: number; message?: string; error?: string; result?: unknown },
    from: JobTable['status'][] = ['queued', 'running'],
  ): Promise<Job> {
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
  private async update(id: string, patch: Partial<JobTable>, emitStatus = false, from?: JobTable['status'][]): Promise<void> {
    const changed = await this.store.update(id, patch, from)
    if (emitStatus && changed > 0) this.emitStatus(await this.get(id))
  }
}
