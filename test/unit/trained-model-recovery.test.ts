/**
 * Trained weights a job saved but did not live to register (main/app/trained-model-recovery.ts): start-up
 * registers them with their provenance, once; weights the user removed from the registry stay removed;
 * a file whose bytes no longer match its sidecar is never registered.
 */
import { appendFileSync, copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { registerUnclaimedTrainedModels } from '../../main/app/trained-model-recovery'
import { appDbFile, trainedModelsDir } from '../../main/config/paths'
import { appMigrations } from '../../main/db/migrations'
import { openDatabase } from '../../main/db/open'
import type { AppDatabase } from '../../main/db/schema'
import { sha256File } from '../../main/llm/model-file'
import { provenanceFile } from '../../main/models/provenance'
import { ModelRegistry } from '../../main/models/registry'
import { fixtureDir, writeTinyLlama } from '../helpers/gguf'

const cleanups: Array<() => void | Promise<void>> = []
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c()
})

/** A run's final weights as gguf-run.ts leaves them: the file and its sidecar, not yet marked registered. */
async function trainedFile(dataDir: string, workspace: string, run: number): Promise<string> {
  const dir = join(trainedModelsDir(dataDir), workspace, `run-${run}`)
  mkdirSync(dir, { recursive: true })
  const path = join(dir, 'step-3.gguf')
  writeTinyLlama(path, { seed: run })
  writeFileSync(provenanceFile(path), JSON.stringify({ path, sha256: await sha256File(path), baseModel: '/models/base.gguf', baseSha256: 'b'.repeat(64), runId: run, step: 3 }))
  return path
}

async function setup() {
  const fx = fixtureDir('harness-lab-recovery-')
  const app = await openDatabase<AppDatabase>(appDbFile(fx.dir), appMigrations)
  const models = new ModelRegistry(app.db)
  cleanups.push(fx.cleanup, () => app.close())
  return { dataDir: fx.dir, models }
}

describe('trained models a job did not register', () => {
  it('registers them at start-up with their provenance, once, and a removal sticks', async () => {
    const { dataDir, models } = await setup()
    const a = await trainedFile(dataDir, 'ws-1', 1)
    const b = await trainedFile(dataDir, 'ws-2', 1)

    expect(await registerUnclaimedTrainedModels(dataDir, models)).toEqual([a, b])
    const listed = await models.list()
    expect(listed.map((m) => [m.path, m.role, m.provenance?.runId, m.provenance?.step])).toEqual([
      [a, 'policy', 1, 3],
      [b, 'policy', 1, 3],
    ])
    expect(JSON.parse(readFileSync(provenanceFile(a), 'utf8')).registeredAt).toEqual(expect.any(String))

    expect(await registerUnclaimedTrainedModels(dataDir, models)).toEqual([])
    await models.remove(listed[0]!.id)
    expect(await registerUnclaimedTrainedModels(dataDir, models)).toEqual([])
    expect((await models.list()).map((m) => m.path)).toEqual([b])
  })

  it('marks, without registering again, weights registered before the mark existed', async () => {
    const { dataDir, models } = await setup()
    const path = await trainedFile(dataDir, 'ws-1', 4)
    await models.add(path, 'policy')
    expect(await registerUnclaimedTrainedModels(dataDir, models)).toEqual([])
    expect(JSON.parse(readFileSync(provenanceFile(path), 'utf8')).registeredAt).toEqual(expect.any(String))
    expect((await models.list()).map((m) => m.path)).toEqual([path])
  })

  it('never registers weights whose bytes differ from their sidecar, or a sidecar without its file', async () => {
    const { dataDir, models } = await setup()
    const changed = await trainedFile(dataDir, 'ws-1', 2)
    appendFileSync(changed, Buffer.alloc(16))
    const orphan = await trainedFile(dataDir, 'ws-1', 3)
    copyFileSync(provenanceFile(orphan), join(dataDir, 'models', 'trained', 'ws-1', 'run-3', 'gone.gguf.provenance.json'))

    expect(await registerUnclaimedTrainedModels(dataDir, models)).toEqual([orphan])
    expect((await models.list()).map((m) => m.path)).toEqual([orphan])
  })
})
