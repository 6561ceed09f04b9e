import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { writeTinyLlama, writeTinyLoraAdapter } from '../helpers/gguf'
import { startBackend, tempDir, type TestBackend } from '../helpers/services'
import { sharedAvailable, sharedPath } from '../helpers/shared-data'

const MODEL = sharedPath('models', 'stories260K.gguf')

/** A GGUF policy row (the real tiny model from ../shared) beside a scripted base: the ablation records the model by content hash. */
describe.runIf(sharedAvailable(MODEL, 'the GGUF ablation row'))('ablation with a GGUF policy row', () => {
  let backend: TestBackend
  let workspaceId: string
  let setId: number

  beforeAll(async () => {
    backend = await startBackend()
    workspaceId = (await backend.call('workspace.create', { name: 'ablation gguf' })).id
    const ingest = await backend.call('job.start', { kind: 'corpus.ingest', workspaceId, params: { source: { kind: 'demo', seed: 4, size: 0.3 } } })
    expect((await backend.services.jobs.waitFor(ingest.id)).status).toBe('done')
    setId = (await backend.call('questions.sets', { workspaceId }))[0]!.id
  }, 600_000)
  afterAll(() => backend.close())

  it('evaluates the model on the same questions and seeds, and records its SHA-256', async () => {
    const saved = await backend.call('ablations.save', {
      workspaceId,
      name: 'gguf row',
      config: {
        base: { environment: 'graph-menu', policy: { kind: 'scripted', name: 'greedy' }, questionSetId: setId, limit: 2, seeds: [5] },
        rows: [{ label: 'stories260K', group: 'policy', policy: { kind: 'llm', modelPath: MODEL } }],
      },
    })
    expect(saved.resolved[1]).toMatchObject({ kind: 'eval', unavailable: null })
    const job = await backend.call('job.start', { kind: 'ablation.run', workspaceId, params: { ablationId: saved.id } })
    const done = await backend.services.jobs.waitFor(job.id)
    expect(done.status, done.error ?? '').toBe('done')
    const detail = await backend.call('ablations.get', { workspaceId, id: saved.id })
    const sha = createHash('sha256').update(readFileSync(MODEL)).digest('hex')
    expect(detail.ranOn!.models).toEqual([`${MODEL} sha256:${sha}`])
    const [b, llm] = detail.results!.rows
    expect(llm!.error).toBeNull()
    expect(Object.keys(llm!.episodes).sort()).toEqual(Object.keys(b!.episodes).sort())
    expect(llm!.cells['turns']!.difference.count).toBe(2)
  }, 600_000)
})

/** A GGUF model and the same model with a LoRA adapter (both tiny, written here) as two rows: the adapter row runs and is recorded by hash. */
describe('ablation with a GGUF + LoRA row', () => {
  const tmp = tempDir('harness-lab-ablation-lora-')
  let backend: TestBackend
  let workspaceId: string
  let setId: number
  const model = writeTinyLlama(join(tmp.dir, 'tiny.gguf'), { seed: 5, contextLength: 2048 }).file
  const adapter = writeTinyLoraAdapter(join(tmp.dir, 'tiny-lora.gguf'), { seed: 5, contextLength: 2048 }).file

  beforeAll(async () => {
    backend = await startBackend()
    workspaceId = (await backend.call('workspace.create', { name: 'ablation lora' })).id
    const ingest = await backend.call('job.start', { kind: 'corpus.ingest', workspaceId, params: { source: { kind: 'demo', seed: 4, size: 0.3 } } })
    expect((await backend.services.jobs.waitFor(ingest.id)).status).toBe('done')
    setId = (await backend.call('questions.sets', { workspaceId }))[0]!.id
  }, 600_000)
  afterAll(async () => {
    await backend.close()
    tmp.cleanup()
  })

  it('runs the base model and the model with its adapter on the same questions', async () => {
    const saved = await backend.call('ablations.save', {
      workspaceId,
      name: 'lora row',
      config: {
        base: { environment: 'graph-menu', policy: { kind: 'llm', modelPath: model }, questionSetId: setId, limit: 2, seeds: [3] },
        rows: [{ label: 'tiny + LoRA', group: 'policy', policy: { kind: 'llm-lora', modelPath: model, loraPath: adapter } }],
      },
    })
    expect(saved.resolved[1]).toMatchObject({ kind: 'eval', unavailable: null })
    const job = await backend.call('job.start', { kind: 'ablation.run', workspaceId, params: { ablationId: saved.id } })
    const done = await backend.services.jobs.waitFor(job.id)
    expect(done.status, done.error ?? '').toBe('done')
    const detail = await backend.call('ablations.get', { workspaceId, id: saved.id })
    const hash = (f: string) => createHash('sha256').update(readFileSync(f)).digest('hex')
    expect(detail.ranOn!.models).toEqual([`${model} sha256:${hash(model)}`, `${adapter} sha256:${hash(adapter)}`])
    const [b, lora] = detail.results!.rows
    expect(lora!.error).toBeNull()
    expect(Object.keys(lora!.episodes).sort()).toEqual(Object.keys(b!.episodes).sort())
    expect(lora!.cells['turns']!.difference.count).toBe(2)
  }, 600_000)
})
