import { jobKinds, type JobKind, type JobNeedsWorkspace, type JobParams, type JobResult } from '../../preload/contract'
import { workspaceMigrations } from '../db/migrations'
import { openDatabase, type OpenedDatabase } from '../db/open'
import type { WorkspaceDatabase } from '../db/schema'
import { parseJobParams } from './job-params'
import type { JobContext, JobOutcome } from './protocol'

/** Jobs of one workspace may run at once (their write transactions are IMMEDIATE): a write waits this long for another's. */
export const JOB_BUSY_TIMEOUT_MS = 120_000

/** Anything a run opens: models, policies, databases. */
export type Resource = { dispose(): Promise<void> | void } | { close(): Promise<void> | void }

export interface JobScope<K extends JobKind> {
  params: JobParams<K>
  /**
   * Closes `resource` when the run ends, however it ends; the last owned is closed first. With
   * `modelPath`, the job reports holding that model file until the resource is closed.
   */
  own<T extends Resource>(resource: T, modelPath?: string): T
}

export interface WorkspaceScope {
  /** The job's own connection to its workspace database, open for the run. */
  db: OpenedDatabase<WorkspaceDatabase>
  workspaceDbFile: string
}

export type JobKindScope<K extends JobKind> = JobScope<K> & (JobNeedsWorkspace<K> extends true ? WorkspaceScope : unknown)

export interface JobKindRunner<K extends JobKind> {
  readonly kind: K
  (ctx: JobContext): Promise<JobOutcome<JobResult<K>>>
}

const closeOf = (r: Resource): (() => Promise<void> | void) => ('dispose' in r ? () => r.dispose() : () => r.close())

/**
 * A job kind without the boilerplate: its parameters are checked against the contract, the workspace
 * database is opened when the kind has one, and everything the run opened is closed when it ends,
 * on success, failure or cancellation alike.
 */
export function defineJobKind<K extends JobKind>(def: {
  kind: K
  run: (ctx: JobContext, scope: JobKindScope<K>) => Promise<JobOutcome<JobResult<K>>>
}): JobKindRunner<K> {
  const runner = async (ctx: JobContext): Promise<JobOutcome<JobResult<K>>> => {
    const params = parseJobParams(def.kind, ctx.params)
    const closers: Array<() => Promise<void> | void> = []
    const own = <T extends Resource>(resource: T, modelPath?: string): T => {
      const release = modelPath ? ctx.reportModelHold(modelPath) : undefined
      const close = closeOf(resource)
      closers.push(async () => {
        try {
          await close()
        } finally {
          release?.()
        }
      })
      return resource
    }
    let outcome: JobOutcome<JobResult<K>> | undefined
    let failure: unknown
    try {
      const scope: JobScope<K> & Partial<WorkspaceScope> = { params, own }
      if (jobKinds[def.kind].workspace) {
        if (!ctx.workspaceDbFile) throw new Error(`${def.kind} needs a workspace`)
        scope.db = own(await openDatabase<WorkspaceDatabase>(ctx.workspaceDbFile, workspaceMigrations, { busyTimeoutMs: JOB_BUSY_TIMEOUT_MS }))
        scope.workspaceDbFile = ctx.workspaceDbFile
      }
      outcome = await def.run(ctx, scope as JobKindScope<K>)
    } catch (err) {
      failure = err
    }
    // Every closer runs even when one throws; the run's own error wins over a closing error.
    for (const close of closers.reverse()) {
      try {
        await close()
      } catch (err) {
        if (failure === undefined) failure = err
        else console.error(`${def.kind}: closing after a failed run also failed:`, err)
      }
    }
    if (failure !== undefined) throw failure
    return outcome!
  }
  return Object.assign(runner, { kind: def.kind })
}
