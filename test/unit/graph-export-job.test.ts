import { existsSync, mkdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startBackend, tempDir, type TestBackend } from '../helpers/services'

describe('GraphML export job', () => {
  let backend: TestBackend
  let workspaceId: string
  beforeAll(async () => {
    backend = await startBackend()
    workspaceId = (await backend.call('workspace.create', { name: 'export' })).id
    const ingest = await backend.call('job.start', { kind: 'corpus.ingest', workspaceId, params: { source: { kind: 'demo', seed: 4, size: 0.3 } } })
    await backend.services.jobs.waitFor(ingest.id)
  }, 600_000)
  const outside = tempDir('harness-lab-outside-')
  afterAll(async () => {
    await backend.close()
    outside.cleanup()
  })

  const refused = (params: Record<string, unknown>) => backend.call('job.start', { kind: 'graph.export', workspaceId, params })

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
    await expect(refused({ path: '/tmp/.graphml' })).rejects.toMatchObject({ body: { code: 'VALIDATION' } })
    await expect(refused({ path: '/tmp/a\u0000b.graphml' })).rejects.toMatchObject({ body: { code: 'VALIDATION' } })
  })

  it('writes a named path only inside the data folder, into a folder that exists, never through a symlink', async () => {
    const data = backend.dataDir
    await expect(refused({ path: join(outside.dir, 'graph.graphml') })).rejects.toMatchObject({ body: { code: 'VALIDATION', message: expect.stringMatching(/outside the data folder/) } })
    await expect(refused({ path: join(data, '..', 'escape.graphml') })).rejects.toMatchObject({ body: { code: 'VALIDATION', message: expect.stringMatching(/outside the data folder/) } })
    // No folder is created for a named path.
    await expect(refused({ path: join(data, 'new', 'deeper', 'graph.graphml') })).rejects.toMatchObject({ body: { code: 'VALIDATION', message: expect.stringMatching(/does not exist/) } })
    expect(existsSync(join(data, 'new'))).toBe(false)
    // A folder inside the data folder that links outside it is outside.
    symlinkSync(outside.dir, join(data, 'linked-out'))
    await expect(refused({ path: join(data, 'linked-out', 'graph.graphml') })).rejects.toMatchObject({ body: { message: expect.stringMatching(/outside the data folder/) } })
    // The file itself may not be a symlink (it would write through it).
    mkdirSync(join(data, 'mine'))
    writeFileSync(join(outside.dir, 'victim.graphml'), 'keep me')
    symlinkSync(join(outside.dir, 'victim.graphml'), join(data, 'mine', 'graph.graphml'))
    await expect(refused({ path: join(data, 'mine', 'graph.graphml') })).rejects.toMatchObject({ body: { message: expect.stringMatching(/symbolic link/) } })
    expect(readFileSync(join(outside.dir, 'victim.graphml'), 'utf8')).toBe('keep me')
    // Inside, in an existing folder: written there.
    const job = await backend.call('job.start', { kind: 'graph.export', workspaceId, params: { path: join(data, 'mine', 'ok.graphml') } })
    const done = await backend.services.jobs.waitFor(job.id)
    expect(done.status, done.error ?? '').toBe('done')
    expect((done.result as { file: string }).file).toBe(join(realpathSync(data), 'mine', 'ok.graphml'))
    expect(readFileSync(join(data, 'mine', 'ok.graphml'), 'utf8')).toMatch(/^<\?xml/)
  })

  it('writes into a folder the user picked natively (desktop), once it was picked', async () => {
    const target = join(outside.dir, 'picked.graphml')
    await expect(refused({ path: target })).rejects.toMatchObject({ body: { code: 'VALIDATION' } })
    backend.services.jobs.allowOutputFolder(outside.dir)
    const job = await backend.call('job.start', { kind: 'graph.export', workspaceId, params: { path: target } })
    const done = await backend.services.jobs.waitFor(job.id)
    expect(done.status, done.error ?? '').toBe('done')
    expect(existsSync(target)).toBe(true)
  })
})
