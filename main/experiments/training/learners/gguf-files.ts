/**
 * The GGUF learner's files: each step's weights (`run-<id>/step-<n>.gguf`) with the optimizer state beside
 * them, written before the step's transaction and pruned after the next one committed, and the final
 * model's provenance. The base model is never removed.
 */
import { createHash } from 'node:crypto'
import { createReadStream, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import type { TrainingCheckpoint } from '../store'
import type { TrainedGguf } from './learner'

export async function sha256File(path: string): Promise<string> {
  const h = createHash('sha256')
  for await (const chunk of createReadStream(path)) h.update(chunk as Buffer)
  return h.digest('hex')
}

/** A step's weights as the run's checkpoint holds them. */
type GgufCheckpoint = NonNullable<TrainingCheckpoint['gguf']>

interface SavedStep {
  path: string
  sha256: string
  step: number
  optimizerState: string
}

export class GgufRunFiles {
  /** The run's folder: under `ggufDir`, by default trained-models/ beside the workspace database. */
  readonly dir: string
  /** The last committed step's files (a resumed run's checkpoint), null before the first. */
  private lastSaved: SavedStep | null

  constructor(databaseFile: string, runId: number, ggufDir: string | undefined, private readonly baseModel: string, checkpoint: TrainingCheckpoint | null) {
    this.dir = join(ggufDir ?? join(dirname(databaseFile), 'trained-models'), `run-${runId}`)
    this.lastSaved = checkpoint?.gguf ? { path: checkpoint.gguf.modelPath, sha256: checkpoint.gguf.sha256, step: checkpoint.step, optimizerState: checkpoint.gguf.optimizerState ?? '' } : null
  }

  /** Writes a step's weights and optimizer state (`write(path, state)`, the trainer's save) and hashes the weights. */
  async saveStep(step: number, write: (path: string, state: string) => Promise<void>): Promise<{ path: string; state: string; sha256: string }> {
    mkdirSync(this.dir, { recursive: true })
    const path = join(this.dir, `step-${step}.gguf`)
    const state = `${path}.optimizer`
    await write(path, state)
    return { path, state, sha256: await sha256File(path) }
  }

  /** After the step's transaction committed: the previous step's files are no checkpoint any more (never the base model). */
  committed(step: number, saved: GgufCheckpoint): void {
    const last = this.lastSaved
    if (last && last.path !== this.baseModel && last.path !== saved.modelPath) {
      rmSync(last.path, { force: true })
      if (last.optimizerState) rmSync(last.optimizerState, { force: true })
    }
    this.lastSaved = { path: saved.modelPath, sha256: saved.sha256, step, optimizerState: saved.optimizerState ?? '' }
  }

  /** The last committed step's file and its provenance, null before the first. */
  model(baseSha256: string, runId: number): TrainedGguf | null {
    const last = this.lastSaved
    return last ? { path: last.path, sha256: last.sha256, baseModel: this.baseModel, baseSha256, runId, step: last.step } : null
  }

  /** The final model's provenance, beside it. */
  static writeProvenance(model: TrainedGguf): void {
    writeFileSync(`${model.path}.provenance.json`, JSON.stringify(model, null, 2))
  }
}
