/** Messages between the JobManager (main thread) and a job worker thread. */

export interface WorkerInput {
  jobId: string
  kind: string
  params: unknown
  dataDir: string
  /** Database file of the job's workspace, when it has one. */
  workspaceDbFile: string | null
  /** Int32 flag set to 1 by the main thread to request cancellation; read synchronously by the job. */
  cancelFlag: SharedArrayBuffer
}

export type WorkerMessage =
  | { type: 'progress'; progress: number; stage: string; message: string }
  | { type: 'done'; result: unknown; message: string }
  /** `code`: the error's code when it had one (SQLITE_FULL, ENOSPC, ...), so the manager can tell a storage failure. */
  | { type: 'failed'; error: string; code?: string }
  | { type: 'cancelled' }
  /** The thread loaded (held: true) or released (held: false) a model file; absolute path. */
  | { type: 'model'; path: string; held: boolean }

export class JobCancelledError extends Error {
  constructor() {
    super('cancelled')
    this.name = 'JobCancelledError'
  }
}

/** What a job implementation sees: no Electron, no worker plumbing. */
export interface JobContext<P = unknown> {
  jobId: string
  params: P
  dataDir: string
  workspaceDbFile: string | null
  /** Report progress in [0, 1] with the current stage and a human-readable line. */
  progress(progress: number, stage: string, message?: string): void
  /** Throws JobCancelledError when cancellation was requested; call it between units of work. */
  throwIfCancelled(): void
  readonly cancelled: boolean
  /**
   * Tells the job manager this job now holds the model file at `path` (so the Models page can say
   * so); call the returned function once it is released. Releasing twice is harmless.
   */
  reportModelHold(path: string): () => void
}

export interface JobOutcome<R = unknown> {
  result: R
  message: string
}

export type JobRunner<P = unknown> = (ctx: JobContext<P>) => Promise<JobOutcome>
