/**
 * One model cache per process (main/llm/model-cache.ts): the Models page's load, a policy's context and
 * dense search's query embedder on the same GGUF share one loaded copy, even when they ask at once, and
 * the copy goes only when the last of them lets it go. A real runtime, a real GGUF the test writes, a real
 * app database.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { appDbFile } from '../../main/config/paths'
import { appMigrations } from '../../main/db/migrations'
import { openDatabase } from '../../main/db/open'
import type { AppDatabase } from '../../main/db/schema'
import { LlamaRuntime } from '../../main/llm/llama-runtime'
import { modelCacheFor } from '../../main/llm/model-cache'
import { ModelRegistry } from '../../main/models/registry'
import { fixtureDir, tinyModel } from '../helpers/gguf'

const fx = fixtureDir('harness-lab-one-load-')
let runtime: LlamaRuntime
let close: () => Promise<void>
let registry: ModelRegistry

beforeAll(async () => {
  runtime = await LlamaRuntime.create({ gpu: 'cpu', threads: 1 })
  const app = await openDatabase<AppDatabase>(appDbFile(fx.dir), appMigrations)
  close = () => app.close()
  registry = new ModelRegistry(app.db, { llm: async () => runtime })
}, 600_000)

afterAll(async () => {
  await registry.closeAll()
  await close()
  await runtime.dispose()
  fx.cleanup()
})

const copiesOf = (path: string): number => runtime.loadedModels().filter((m) => m.path === path).length

describe('one model cache', () => {
  it('loads a GGUF once for the Models page, a policy context and dense search, asked at once', async () => {
    const { file } = tinyModel(fx.dir, { vocab: 'spm', seed: 11 })
    const model = await registry.add(file)
    const [, lease, embedder] = await Promise.all([
      registry.load(model.id),
      modelCacheFor(runtime).lease(file, { sequences: 1, contextSize: 64 }),
      registry.embedderFor(file),
    ])
    expect(copiesOf(model.path)).toBe(1)
    expect((await embedder.embed(['river']))[0]!.length).toBe(embedder.dimension)
    expect(lease.loaded).toBe(modelCacheFor(runtime).pinned(file))
    expect((await registry.list()).find((m) => m.id === model.id)!.holders).toEqual([{ where: 'main', uses: ['loaded', 'search'] }])

    // Unloading on the Models page leaves the copy the policy and the search still use.
    await registry.unload(model.id)
    expect(copiesOf(model.path)).toBe(1)
    expect((await registry.list()).find((m) => m.id === model.id)!.loaded).toBeNull()
    await lease.release()
    expect(copiesOf(model.path)).toBe(1)
    // The embedder was the last holder: disposing it frees the model.
    await embedder.dispose()
    expect(copiesOf(model.path)).toBe(0)
    expect(modelCacheFor(runtime).entries().find((e) => e.path === model.path)).toBeUndefined()
  })

  it('a registry built without the LLM home registers but says plainly that it cannot load', async () => {
    const other = fixtureDir('harness-lab-no-llm-')
    const app = await openDatabase<AppDatabase>(appDbFile(other.dir), appMigrations)
    try {
      const bare = new ModelRegistry(app.db)
      const model = await bare.add(tinyModel(fx.dir, { vocab: 'spm', seed: 12 }).file)
      await expect(bare.load(model.id)).rejects.toThrow(/built without the LLM home/)
    } finally {
      await app.close()
      other.cleanup()
    }
  })
})

describe('the LLM home is handed down', () => {
  /** The composition roots: the app's services, the job worker's runner table. Everything else is handed an LlmHome. */
  const ROOTS = ['main/app/services.ts', 'main/job-kinds/index.ts', 'main/llm/llama-runtime.ts']
  const root = fileURLToPath(new URL('../..', import.meta.url))
  const files = (dir: string): string[] =>
    readdirSync(join(root, dir), { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(`${dir}/${e.name}`) : e.name.endsWith('.ts') ? [`${dir}/${e.name}`] : []))

  it('only the composition roots name the process-wide runtime', () => {
    const naming = files('main').filter((f) => readFileSync(join(root, f), 'utf8').includes('getSharedRuntime'))
    expect(naming.sort()).toEqual([...ROOTS].sort())
  })
})
