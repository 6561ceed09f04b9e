import { basename, dirname, join, resolve } from 'node:path'
import { appDbFile, trainedModelsDir } from '../config/paths'
import { appMigrations } from '../db/migrations'
import { openDatabase } from '../db/open'
import type { AppDatabase } from '../db/schema'
import type { TrainedGguf } from '../experiments/training'
import type { JobContext } from '../jobs/protocol'
import type { Resource } from '../jobs/define-job-kind'
import { ModelRegistry } from '../models/registry'
import { markRegistered } from '../models/provenance'

export interface TrainedModels {
  /** Where the job's GGUF training runs save their weights. */
  readonly dir: string
  /** Registers a run's final weights as a policy model (provenance from `<file>.provenance.json`); `added` is false when the path was registered before. */
  register(model: TrainedGguf): Promise<{ name: string; added: boolean }>
  /** What an ablation or findings runner is handed: the folder, and registration of each training run's final weights. */
  readonly deps: { ggufDir: string; onTrainedModel(model: TrainedGguf): Promise<void> }
  /** For the job's final message: how many trained models this job registered (empty when it trained none). */
  summary(): string
}

/**
 * The GGUF weights an experiment job trains (train.run, ablation and findings cells): saved under the
 * app's models folder, one subfolder per workspace (run ids are per workspace, so two workspaces' run #1
 * never share a file), and each run's final file registered in app.db like a model added by hand.
 */
export function trainedModels(ctx: JobContext, own: <T extends Resource>(resource: T) => T): TrainedModels {
  const workspace = ctx.workspaceDbFile ? basename(dirname(ctx.workspaceDbFile)) : 'no-workspace'
  const dir = join(trainedModelsDir(ctx.dataDir), workspace)
  let registry: Promise<ModelRegistry> | null = null
  let added = 0
  let again = 0
  const register = async (model: TrainedGguf) => {
    registry ??= openDatabase<AppDatabase>(appDbFile(ctx.dataDir), appMigrations).then((app) => new ModelRegistry(own(app).db))
    const models = await registry
    // Adding a registered path again refreshes its row (same id, same date added): idempotent.
    const known = (await models.list()).some((m) => m.path === resolve(model.path))
    const info = await models.add(model.path, 'policy')
    // Registered once: if the user removes it later, start-up does not bring it back (models/provenance.ts).
    markRegistered(model.path)
    if (known) again++
    else added++
    return { name: info.name, added: !known }
  }
  return {
    dir,
    register,
    deps: { ggufDir: dir, onTrainedModel: async (model) => void (await register(model)) },
    summary: () => (added + again === 0 ? '' : ` · ${added} trained model${added === 1 ? '' : 's'} registered${again ? ` (${again} already registered)` : ''}`),
  }
}
