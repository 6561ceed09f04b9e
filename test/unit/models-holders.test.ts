import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ModelHolder, ModelInfo } from '../../preload/contract'
import { tinyModel } from '../helpers/gguf'
import { startBackend, tempDir, type TestBackend } from '../helpers/services'

describe('where a model is loaded', () => {
  const tmp = tempDir('harness-lab-holders-')
  let backend: TestBackend
  let model: ModelInfo
  let workspaceId: string
  beforeAll(async () => {
    backend = await startBackend()
    model = await backend.call('models.add', { path: tinyModel(tmp.dir, { vocab: 'spm', seed: 4 }).file, role: 'embedding' })
    workspaceId = (await backend.call('workspace.create', { name: 'holders' })).id
    const ingest = await backend.call('job.start', { kind: 'corpus.ingest', workspaceId, params: { source: { kind: 'demo', seed: 2, size: 0.1 } } })
    expect((await backend.services.jobs.waitFor(ingest.id)).status).toBe('done')
  }, 600_000)
  afterAll(async () => {
    await backend.close()
    tmp.cleanup()
  })

  const holdersNow = async (): Promise<ModelHolder[]> => (await backend.call('models.list', {})).find((m) => m.id === model.id)!.holders

  it('names the job whose worker holds the model while it runs, and nobody once it ended', async () => {
    expect(await holdersNow()).toEqual([])
    const reports: Array<{ jobId: string; kind: string; models: string[] }> = []
    const listed: Array<Promise<ModelHolder[]>> = []
    backend.services.events.subscribe((name, payload) => {
      if (name !== 'job.models') return
      reports.push(payload as (typeof reports)[number])
      // Asked at the moment of the report, through the route the Models page uses.
      listed.push(holdersNow())
    })
    const job = await backend.call('job.start', { kind: 'corpus.embed', workspaceId, params: { modelPath: model.path } })
    const done = await backend.services.jobs.waitFor(job.id)
    expect(done.status).toBe('done')
    expect(done.kind === 'corpus.embed' && done.result?.dimension).toBe(64)
    expect(reports).toEqual([
      { jobId: job.id, kind: 'corpus.embed', models: [model.path] },
      { jobId: job.id, kind: 'corpus.embed', models: [] },
    ])
    const [whileHeld, afterRelease] = await Promise.all(listed)
    expect(whileHeld).toEqual([{ where: 'job', jobId: job.id, kind: 'corpus.embed' }])
    expect(afterRelease).toEqual([])
    expect(await holdersNow()).toEqual([])
  })

  it('names the app itself when it loads the model, for the Models page and for dense search', async () => {
    await backend.call('models.load', { id: model.id })
    expect(await holdersNow()).toEqual([{ where: 'main', uses: ['loaded'] }])
    // The embed job above made this the workspace's embedding model: dense search loads it in the app too.
    const search = await backend.call('corpus.search', { workspaceId, query: 'river', k: 3, mode: 'dense' })
    expect(search.fusedFrom).toEqual(['dense'])
    expect(await holdersNow()).toEqual([{ where: 'main', uses: ['loaded', 'search'] }])
    await backend.call('models.unload', { id: model.id })
    expect(await holdersNow()).toEqual([{ where: 'main', uses: ['search'] }])
  })
})
