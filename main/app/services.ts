import { accessSync, constants, existsSync } from 'node:fs'
import { appDbFile } from '../config/paths'
import { appMigrations } from '../db/migrations'
import { openDatabase, type OpenedDatabase } from '../db/open'
import { notWritable } from '../db/storage-error'
import type { AppDatabase } from '../db/schema'
import { runStore } from '../experiments/runs/store'
import { JobManager, type WorkerEntry } from '../jobs/manager'
import { jobLimitFromEnv } from '../jobs/queue-plan'
import { ModelRegistry } from '../models/registry'
import { getSharedRuntime } from '../llm/llama-runtime'
import { WorkspaceRetrievers } from '../models/workspace-retrievers'
import { WorkspaceService } from '../workspaces/service'
import { EventBus } from '../events/bus'
import { APP_VERSION } from '../config/version'
import { jobPreflight } from './job-preflight'
import { sweepStaleExports } from './stale-exports'
import { registerUnclaimedTrainedModels } from './trained-model-recovery'

export interface Services {
  version: string
  dataDir: string
  /**
   * Why the data folder cannot be written ('read-only file system', 'permission denied'), or null. When
   * set, the databases are open read-only: commands that only read work, and anything that writes (a
   * job, a new workspace) is refused naming the folder.
   */
  readOnly: string | null
  app: OpenedDatabase<AppDatabase>
  events: EventBus
  workspaces: WorkspaceService
  jobs: JobManager
  models: ModelRegistry
  /** Each open workspace's retriever, with its embedding model for dense search. */
  retrievers: WorkspaceRetrievers
  /** Runs `fn` first when the services close (servers started through the API hold workspace handles). */
  onClose(fn: () => Promise<void>): void
  close(): Promise<void>
}

export interface ServiceOptions {
  dataDir: string
  worker: WorkerEntry
  /** Jobs run at once; default HARNESS_LAB_JOBS, else the cores less one (at least one). */
  jobConcurrency?: number
  cancelGraceMs?: number
  /** Whether a queued job whose process died is adopted here (default) or failed with the reason (the CLI: see JobManagerOptions). */
  adoptOrphans?: boolean
}

/**
 * Why an existing data folder (with its app.db) cannot be written, or null: a folder that does not exist
 * yet, or has no app.db, is made and written as usual (and fails, naming the folder, if it cannot be).
 */
function readOnlyReason(dataDir: string): string | null {
  if (!existsSync(appDbFile(dataDir))) return null
  const folder = notWritable(dataDir)
  if (folder !== null) return folder
  try {
    accessSync(appDbFile(dataDir), constants.W_OK)
    return null
  } catch {
    return `${appDbFile(dataDir)} cannot be written`
  }
}

/** Composition root shared by Electron, browser mode and the CLI. */
export async function createServices(options: ServiceOptions): Promise<Services> {
  const readOnly = readOnlyReason(options.dataDir)
  const app = await openDatabase<AppDatabase>(appDbFile(options.dataDir), appMigrations, { readonly: readOnly !== null })
  const events = new EventBus()
  let workspaces: WorkspaceService | undefined
  let manager: JobManager | undefined
  try {
    const jobs: JobManager = (manager = new JobManager(app, events, {
      dataDir: options.dataDir,
      readOnly,
      worker: options.worker,
      workspaceDbFile: (id) => workspaces!.databaseFile(id),
      preflight: jobPreflight((id) => workspaces!.handle(id), (workspaceId, kind) => jobs.active(workspaceId, kind)),
      concurrency: options.jobConcurrency ?? jobLimitFromEnv(process.env.HARNESS_LAB_JOBS),
      // A job of a process that died (or whose disk filled) may have left its run "running": it fails with the job's reason.
      onRecovered: async (job) => {
        if (job.workspaceId) runStore((await workspaces!.handle(job.workspaceId)).raw).failRunsOfJob(job.id, job.error ?? 'Interrupted')
      },
      cancelGraceMs: options.cancelGraceMs,
      adoptOrphans: options.adoptOrphans,
    }))
    workspaces = new WorkspaceService(app.db, options.dataDir, (id) => jobs.hasActive(id), readOnly)
    // The registry reports where each model is loaded, jobs' worker threads included.
    const models = new ModelRegistry(app.db, { jobHolders: (path) => jobs.modelHolders(path), llm: getSharedRuntime })
    const retrievers = new WorkspaceRetrievers(models)
    if (readOnly === null) {
      // Before any job can start an export here.
      await sweepStaleExports(options.dataDir, workspaces)
      // Weights a training job saved but did not live to register.
      await registerUnclaimedTrainedModels(options.dataDir, models)
    }
    await jobs.init()
    const closing: Array<() => Promise<void>> = []
    return {
      version: APP_VERSION,
      dataDir: options.dataDir,
      readOnly,
      app,
      events,
      workspaces,
      jobs,
      models,
      retrievers,
      onClose(fn) {
        closing.push(fn)
      },
      async close() {
        for (const fn of closing.splice(0)) await fn().catch(() => undefined)
        await jobs.shutdown()
        await models.closeAll()
        await workspaces!.closeAll()
        await app.close()
      },
    }
  } catch (err) {
    // What opened before the failure closes here: in a long-lived process (or a command run inside one) its
    // descriptors would otherwise hold the data folder until the garbage collector finds them.
    await manager?.shutdown().catch(() => undefined)
    await workspaces?.closeAll().catch(() => undefined)
    await app.close()
    throw err
  }
}
