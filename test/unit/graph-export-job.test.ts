import { existsSync, readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startBackend, type TestBackend } from '../helpers/services'

describe('GraphML export job', () => {
  let backend: TestBackend
  let workspaceId: string
  beforeAll(async () => {
    backend = await startBackend()
    workspaceId = (await backend.call('workspace.create', { name: 'export' })).id
    const ingest = await backend.call('job.start', { kind: 'corpus.ingest', workspaceId, params: { source: { kind: 'demo', seed: 4, size: 0.3 } } })
    await backend.services.jobs.waitFor(ingest.id)
  }, 120_000)
  afterAll(() => backend.close())

  it('streams the whole graph to a GraphML file off the main thread, with every node and edge', async () => {
    const job = await backend.call('job.start', { kind: 'graph.export', workspaceId, params: {} })
    const done = await backend.services.jobs.waitFor(job.id)
    expect(done.status, done.error ?? '').toBe('done')
    const result = done.result as { file: string; nodes: number; edges: number }
    expect(existsSync(result.file)).toBe(true)
    const xml = readFileSync(result.file, 'utf8')
    expect(xml.match(/<node /g)?.length).toBe(result.nodes)
    expect(xml.match(/<edge /g)?.length).toBe(result.edges)
    const stats = await backend.call('corpus.stats', { workspaceId })
    expect(result.nodes).toBe(stats.chunks + stats.sentences + stats.entities)
  })

  it('refuses a bad node id or file name before starting', async () => {
    await expect(backend.call('job.start', { kind: 'graph.export', workspaceId, params: { center: 'x:1' } })).rejects.toMatchObject({ body: { code: 'VALIDATION' } })
    await expect(backend.call('job.start', { kind: 'graph.export', workspaceId, params: { path: '/tmp/graph.txt' } })).rejects.toMatchObject({ body: { code: 'VALIDATION' } })
  })
})
