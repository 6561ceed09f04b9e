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
  | { type: 'failed'; error: string }
  | { type: 'cancelled' }

export class JobCancelledError extends Error {
  constructor() {
    super('cancelled')
    this.name = 'JobCancelledError'
  }
}

/** What a job implementation sees: no Electron, no worker plumbing. */
export interface JobContext<P> {
  jobId: string
  params: P
  dataDir: string
  workspaceDbFile: string | null
  /** Report progress in [0, 1] with the current stage and a human-readable line. */
  progress(progress: number, stage: string, message?: string): void
  /** Throws JobCancelledError when cancellation was requested; call it between units of work. */
  throwIfCancelled(): void
  readonly cancelled: boolean
}

export interface JobOutcome {
  result: unknown
  message: string
}

export type JobRunner<P = unknown> = (ctx: JobContext<P>) => Promise<JobOutcome>
