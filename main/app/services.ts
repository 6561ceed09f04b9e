import { appDbFile } from '../config/paths'
import { appMigrations } from '../db/migrations'
import { openDatabase, type OpenedDatabase } from '../db/open'
import type { AppDatabase } from '../db/schema'
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

/** Composition root shared by Electron, browser mode and the CLI. */
export async function createServices(options: ServiceOptions): Promise<Services> {
  const app = await openDatabase<AppDatabase>(appDbFile(options.dataDir), appMigrations)
  const events = new EventBus()
  let workspaces: WorkspaceService | undefined
  const jobs: JobManager = new JobManager(app, events, {
    dataDir: options.dataDir,
    worker: options.worker,
    workspaceDbFile: (id) => workspaces!.databaseFile(id),
    preflight: jobPreflight((id) => workspaces!.handle(id), (workspaceId, kind) => jobs.active(workspaceId, kind)),
    concurrency: options.jobConcurrency ?? jobLimitFromEnv(process.env.HARNESS_LAB_JOBS),
    cancelGraceMs: options.cancelGraceMs,
    adoptOrphans: options.adoptOrphans,
  })
  workspaces = new WorkspaceService(app.db, options.dataDir, (id) => jobs.hasActive(id))
  // The registry reports where each model is loaded, jobs' worker threads included.
  const models = new ModelRegistry(app.db, { jobHolders: (path) => jobs.modelHolders(path), llm: getSharedRuntime })
  const retrievers = new WorkspaceRetrievers(models)
  // Before any job can start an export here.
  await sweepStaleExports(options.dataDir, workspaces)
  // Weights a training job saved but did not live to register.
  await registerUnclaimedTrainedModels(options.dataDir, models)
  await jobs.init()
  const closing: Array<() => Promise<void>> = []
  return {
    version: APP_VERSION,
    dataDir: options.dataDir,
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
}
