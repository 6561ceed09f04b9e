import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ensureTrainerBinary, GgufTrainerUnavailableError } from '../../main/llm/training'
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

  it('registers the GGUF weights a training row trained, with their provenance', async (ctx) => {
    try {
      await ensureTrainerBinary()
    } catch (err) {
      if (err instanceof GgufTrainerUnavailableError) return ctx.skip(`GGUF trainer unavailable: ${err.message}`)
      throw err
    }
    const saved = await backend.call('ablations.save', {
      workspaceId,
      name: 'gguf training row',
      config: {
        base: {
          environment: 'graph-menu',
          policy: { kind: 'head', stage: 'after' },
          questionSetId: setId,
          limit: 2,
          seeds: [2],
          training: { offset: 2, limit: 4, steps: 1, groupSize: 2, questionsPerStep: 1, evalInterval: 1, credit: { scheme: 'outcome', lambda: 0 }, gguf: { modelPath: MODEL, learningRate: 0.001, maxTokens: 64 } },
        },
        rows: [{ label: 'scripted', policy: { kind: 'scripted', name: 'greedy' } }],
        parallel: 1,
      },
    })
    expect(saved.resolved[0]).toMatchObject({ kind: 'train', policy: { kind: 'gguf', stage: 'after', modelPath: MODEL }, unavailable: null })
    const job = await backend.call('job.start', { kind: 'ablation.run', workspaceId, params: { ablationId: saved.id } })
    const done = await backend.services.jobs.waitFor(job.id)
    expect(done.status, done.error ?? '').toBe('done')
    expect(done.message).toMatch(/ · 1 trained model registered$/)
    const trainRunId = (await backend.call('ablations.get', { workspaceId, id: saved.id })).cells.find((c) => c.row === 0)!.trainRunId!
    // Saved under the app's models folder (one subfolder per workspace), registered as a policy with its provenance.
    const trained = (await backend.call('models.list', {})).filter((m) => m.provenance !== null)
    expect(trained).toHaveLength(1)
    const model = trained[0]!
    expect(model.path).toBe(join(backend.dataDir, 'models', 'trained', workspaceId, `run-${trainRunId}`, 'step-0.gguf'))
    expect(model.role).toBe('policy')
    expect(model.sha256).toBe(createHash('sha256').update(readFileSync(model.path)).digest('hex'))
    expect(model.provenance).toEqual({ baseModel: MODEL, baseSha256: createHash('sha256').update(readFileSync(MODEL)).digest('hex'), runId: trainRunId, step: 0 })
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
