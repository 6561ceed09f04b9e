import type { Job } from '../../preload/contract'
import { storageFailureOf } from '../db/storage-error'
import { errorLine, now, type JobRecords } from './job-records'
import type { JobManagerOptions } from './manager-options'
import { ownerStatus, type OwnerStatus } from './owner-lock'
import type { StatusAnnouncer } from './status-announcer'
import type { JobStore } from './store'

/**
 * Jobs whose process died (crash, kill, a reused pid): a running one becomes failed with the reason, a
 * queued one is adopted or failed. Apart from the manager because it is the only part that judges
 * other processes, and the manager only asks it "is this owner alive" and "recover now".
 */
export class OrphanRecovery {
  constructor(
    private readonly store: JobStore,
    private readonly records: JobRecords,
    private readonly announcer: StatusAnnouncer,
    private readonly options: Pick<JobManagerOptions, 'dataDir' | 'readOnly' | 'onRecovered'> & { adoptOrphans: boolean },
    /** Whether a job manager of this process runs (or is claiming) the job: the siblings' view, see JobManager. */
    private readonly runsHere: (id: string) => boolean,
  ) {}

  /**
   * Whether the owner of a job is alive. Another process is asked through its owner lock and /proc
   * (ownerStatus: a zombie or a reused pid is dead); in this process, a running job is alive only
   * while one of its job managers runs it, and a queued one is always ours to run.
   */
  ownerOf(row: { id: string; status: string; owner_pid: number | null }): OwnerStatus {
    if (row.owner_pid === null) return { alive: false, reason: 'no owner process recorded' }
    if (row.owner_pid !== process.pid) return ownerStatus(this.options.dataDir, row.owner_pid)
    if (row.status !== 'running' || this.records.hasUnwritten(row.id)) return { alive: true, reason: 'this process' }
    if (this.runsHere(row.id)) return { alive: true, reason: 'this process' }
    return { alive: false, reason: `this process (pid ${process.pid}) does not run it: it was started before a restart` }
  }

  /**
   * Running jobs whose owning process is gone become failed, with the reason: at start-up, and
   * whenever a caller is about to act on a job's "running" (list, cancel, wait, delete a workspace).
   */
  async recover(filter: { id?: string; workspaceId?: string } = {}): Promise<void> {
    if (this.options.readOnly) return
    await this.failRunning(filter)
    await this.settleQueued(filter)
  }

  private async failRunning(filter: { id?: string; workspaceId?: string }): Promise<void> {
    for (const job of await this.store.running(filter)) {
      const owner = this.ownerOf(job)
      if (owner.alive) continue
      const who = job.owner_pid === null ? 'the process running this job' : `the process running this job (pid ${job.owner_pid})`
      let ended: Job
      try {
        ended = await this.records.finish(job.id, { status: 'failed', error: `Interrupted: ${who} stopped before it finished: ${owner.reason}` }, ['running'])
      } catch (err) {
        // Still no room to write it: it stays for the next look; readers see it as it is.
        if (storageFailureOf(err)) continue
        throw err
      }
      if (ended.status === 'failed') await this.options.onRecovered?.(ended).catch((err: unknown) => console.error(`job ${job.id}: settling what it left running: ${errorLine(err)}`))
    }
  }

  /** Queued jobs of a dead process: adopted (run here) or failed, as the options say. */
  private async settleQueued(filter: { id?: string; workspaceId?: string }): Promise<void> {
    for (const job of await this.store.queuedElsewhere(process.pid, filter)) {
      const owner = this.ownerOf(job)
      if (owner.alive) continue
      const who = job.owner_pid === null ? 'the process that queued it' : `the process that queued it (pid ${job.owner_pid})`
      if (this.options.adoptOrphans) {
        // Guarded by the old owner: of two processes adopting at once, one does.
        const message = `Adopted by process ${process.pid}: ${who} stopped before starting it (${owner.reason})`
        if ((await this.store.patchQueuedOf(job.id, job.owner_pid, { owner_pid: process.pid, message })) === 0) continue
        // Said on this process's console, and in the job's message while it waits (announcePlaces sends it).
        console.warn(`Job ${job.id} (${job.kind}): ${message}`)
        this.announcer.changedHere = true
      } else {
        const error = `Not run: ${who} stopped before starting it (${owner.reason}); process ${process.pid} does not take over another process's jobs: start it again`
        const patch = { status: 'failed' as const, finished_at: now(), stage: 'failed', message: 'Failed', error }
        if ((await this.store.patchQueuedOf(job.id, job.owner_pid, patch)) === 0) continue
        this.announcer.emit(await this.records.get(job.id))
      }
    }
  }
}
