/**
 * What a job manager is given and what it hands out, apart from the class itself: the options,
 * the worker entry, per-kind preflight checks and how a job ended. A file of its own so the parts
 * of the manager (records, recovery, worker runs) can read the options without importing the manager.
 */
import type { JobKind, JobParams, Job } from '../../preload/contract'

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
