import type { Job } from '../../preload/contract'
import { ownerStatus } from './owner-lock'
import type { StatusAnnouncer } from './status-announcer'
import type { JobStore } from './store'

/** How often the queue is looked at for other processes' changes: a PRAGMA read, a few microseconds. */
const WATCH_MS = 250

export interface QueueWatchDeps {
  store: JobStore
  announcer: StatusAnnouncer
  dataDir: string
  watchMs?: number
  isClosed: () => boolean
  get: (id: string) => Promise<Job>
  /** Plans the queue again (a slot or a workspace may be free). */
  pump: () => void
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
 * waits for a job (hold): then a command-line command that waits behind another process's job
 * stays up until its own job has run.
 */
export class QueueWatch {
  private timer: NodeJS.Timeout | undefined
  private waiters = 0
  private seenVersion = -1
  /** The queue as the watch last saw it: status and owner by job id. */
  private seen = new Map<string, { status: string; owner: number | null }>()

  constructor(private readonly deps: QueueWatchDeps) {}

  start(): void {
    if (this.timer) return
    const { store } = this.deps
    this.seenVersion = store.dataVersion()
    this.seen = new Map(store.activeQueue().map((r) => [r.id, { status: r.status, owner: r.owner_pid }]))
    this.timer = setInterval(() => {
      try {
        this.look()
      } catch (err) {
        console.error('job queue watch:', err)
      }
    }, this.deps.watchMs ?? WATCH_MS)
    if (this.waiters === 0) this.timer.unref()
  }

  stop(): void {
    clearInterval(this.timer)
    this.timer = undefined
  }

  /** Someone waits for a job: the watch keeps the process up (a job queued behind another process's job has no other handle that would). */
  hold(): void {
    if (this.waiters++ === 0) this.timer?.ref()
  }

  release(): void {
    if (--this.waiters === 0) this.timer?.unref()
  }

  /** One look at the database (see the class comment). */
  private look(): void {
    const { store, announcer } = this.deps
    if (this.deps.isClosed()) return
    const version = store.dataVersion()
    const moved = version !== this.seenVersion
    this.seenVersion = version
    const waiting = [...this.seen.values()].some((j) => j.status === 'queued')
    if (!moved && !waiting && !announcer.changedHere) return
    announcer.changedHere = false
    const rows = store.activeQueue()
    const now = new Map(rows.map((r) => [r.id, { status: r.status, owner: r.owner_pid }]))
    const changed = [...this.seen.keys()].filter((id) => now.get(id)?.status !== this.seen.get(id)!.status || now.get(id)?.owner !== this.seen.get(id)!.owner)
    const added = rows.filter((r) => !this.seen.has(r.id)).map((r) => r.id)
    this.seen = now
    const touched = new Set([...changed, ...added])
    announcer.forgetEnded(now, touched)
    let wake = touched.size > 0
    if (wake) void this.announceChanges([...touched]).catch((err: unknown) => console.error('job queue watch:', err))
    // Nothing changed in the database: a job waits here on another process that may have died without a word.
    if (!wake && rows.some((r) => r.status === 'queued')) {
      const others = new Set<number | null>(rows.filter((r) => r.owner_pid !== process.pid).map((r) => r.owner_pid))
      wake = [...others].some((pid) => pid === null || !ownerStatus(this.deps.dataDir, pid).alive)
    }
    if (wake) this.deps.pump()
  }

  /** Status events for jobs whose status changed elsewhere (another process, or this one before it said so: the announcer says it once). */
  private async announceChanges(ids: string[]): Promise<void> {
    for (const id of ids) {
      const job = await this.deps.get(id).catch(() => undefined)
      if (job) this.deps.announcer.emit(job)
    }
  }
}
