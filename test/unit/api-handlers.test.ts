import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { corpusRoutes, graphRoutes, jobRoutes, modelRoutes, routes, runRoutes, systemRoutes, workspaceRoutes } from '../../preload/contract'
import { dispatch, type Handlers } from '../../main/api/dispatch'
import { createHandlers } from '../../main/api/handlers'
import { corpusHandlers } from '../../main/api/handlers/corpus'
import { graphHandlers } from '../../main/api/handlers/graph'
import { jobHandlers } from '../../main/api/handlers/job'
import { modelHandlers } from '../../main/api/handlers/models'
import { runHandlers } from '../../main/api/handlers/runs'
import { systemHandlers } from '../../main/api/handlers/system'
import { workspaceHandlers } from '../../main/api/handlers/workspace'
import { aggregate, comparePaired } from '../../main/eval'
import { startBackend, type TestBackend } from '../helpers/services'

const apiDir = new URL('../../main/api/', import.meta.url).pathname

function sourcesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sourcesUnder(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []))
}

describe('API handlers', () => {
  let backend: TestBackend
  beforeAll(async () => {
    backend = await startBackend()
  })
  afterAll(() => backend.close())

  it('has one group per contract file, each answering exactly that file’s routes', () => {
    const s = backend.services
    const groups: Array<[object, object]> = [
      [systemHandlers(s, { mode: 'cli' }), systemRoutes],
      [workspaceHandlers(s), workspaceRoutes],
      [jobHandlers(s), jobRoutes],
      [corpusHandlers(s), corpusRoutes],
      [graphHandlers(s), graphRoutes],
      [runHandlers(s), runRoutes],
      [modelHandlers(s), modelRoutes],
    ]
    for (const [handlers, contract] of groups) expect(Object.keys(handlers).sort()).toEqual(Object.keys(contract).sort())
    const all = groups.flatMap(([h]) => Object.keys(h))
    expect(new Set(all).size).toBe(all.length)
    expect(Object.keys(createHandlers(s, { mode: 'cli' })).sort()).toEqual(Object.keys(routes).sort())
  })

  it('imports no job kind: the API maps input to features only', () => {
    const offenders = sourcesUnder(apiDir).filter((file) => /from '[^']*job-kinds\//.test(readFileSync(file, 'utf8')))
    expect(offenders).toEqual([])
  })

  it('dispatch checks what a handler returns against the contract', async () => {
    const handlers = { ...createHandlers(backend.services, { mode: 'cli' }), 'workspace.list': async () => [{ id: 1 }] } as unknown as Handlers
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined)
    expect(await dispatch(handlers, 'workspace.list', {})).toMatchObject({ ok: false, error: { code: 'INTERNAL' } })
    expect(error).toHaveBeenCalledWith(expect.stringMatching(/does not match the contract/), expect.anything())
    error.mockRestore()
  })

  it('job.start refuses a kind’s bad parameters, and a kind that takes no workspace given one', async () => {
    const h = createHandlers(backend.services, { mode: 'cli' })
    const w = await backend.call('workspace.create', { name: 'params' })
    expect(await dispatch(h, 'job.start', { kind: 'corpus.embed', workspaceId: w.id, params: { modelPath: ' ' } })).toMatchObject({ ok: false, error: { code: 'VALIDATION' } })
    expect(await dispatch(h, 'job.start', { kind: 'model.download', workspaceId: w.id, params: { uri: 'hf:a/b' } })).toMatchObject({ ok: false, error: { code: 'VALIDATION' } })
    expect(await dispatch(h, 'job.start', { kind: 'graph.export', workspaceId: 'missing' })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } })
    expect(await backend.call('job.list', { limit: 10 })).toEqual([])
  })

  it('runs.list reads a run’s job through the job manager’s final-status lookup', async () => {
    const { jobs } = backend.services
    expect(jobs.finalStatus('no-such-job')).toEqual({ status: 'failed', error: 'its job record is gone' })
    const w = await backend.call('workspace.create', { name: 'final status' })
    const job = await backend.call('job.start', { kind: 'db.maintenance', workspaceId: w.id, params: { vacuum: false } })
    const done = await jobs.waitFor(job.id)
    expect(jobs.finalStatus(job.id)).toEqual({ status: done.status, error: done.error })
  })
})

describe('runs.compare metric names', () => {
  let backend: TestBackend
  let workspaceId: string
  let baselineRunId: number
  let runId: number
  beforeAll(async () => {
    backend = await startBackend()
    workspaceId = (await backend.call('workspace.create', { name: 'compare' })).id
    const ingest = await backend.call('job.start', { kind: 'corpus.ingest', workspaceId, params: { source: { kind: 'demo', seed: 2, size: 0.3 } } })
    expect((await backend.services.jobs.waitFor(ingest.id)).status).toBe('done')
    const questionSetId = (await backend.call('questions.sets', { workspaceId }))[0]!.id
    for (const name of ['greedy', 'oracle']) {
      const job = await backend.call('job.start', { kind: 'eval.run', workspaceId, params: { environment: 'graph-menu', policy: { kind: 'scripted', name }, questionSetId, limit: 3 } })
      expect((await backend.services.jobs.waitFor(job.id)).status).toBe('done')
    }
    const [oracle, greedy] = await backend.call('runs.list', { workspaceId })
    baselineRunId = greedy!.id
    runId = oracle!.id
  }, 600_000)
  afterAll(() => backend.close())

  it('refuses a name that is no metric (Object.prototype members included) with a validation error naming it', async () => {
    const h = createHandlers(backend.services, { mode: 'browser' })
    for (const metric of ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf', 'isPrototypeOf', 'no.such.metric']) {
      const env = await dispatch(h, 'runs.compare', { workspaceId, baselineRunId, runIds: [runId], metric })
      expect(env, metric).toMatchObject({ ok: false, error: { code: 'VALIDATION', message: expect.stringContaining(`Unknown metric "${metric}"`) } })
      if (!env.ok) expect(env.error.message).toMatch(/sp\.recall/)
    }
  })

  it('compares a stored metric, and a catalogued one the runs do not store (no pairs)', async () => {
    const stored = await backend.call('runs.compare', { workspaceId, baselineRunId, runIds: [runId], metric: 'sp.recall' })
    expect(stored.comparisons[0]).toMatchObject({ runId, count: 3 })
    const catalogued = await backend.call('runs.compare', { workspaceId, baselineRunId, runIds: [runId], metric: 'reward.total' })
    expect(catalogued.comparisons[0]).toMatchObject({ runId, count: 0, meanDifference: null })
  })

  it('aggregates look metric names up in Maps: prototype names are absent, a stored "__proto__" is a plain key', () => {
    const records = [
      { questionId: 'a', variant: null, metrics: JSON.parse('{"x": 1, "__proto__": 0.5}') as Record<string, number> },
      { questionId: 'b', variant: null, metrics: { x: 0 } },
    ]
    for (const metric of ['constructor', 'toString', 'hasOwnProperty']) {
      expect(comparePaired(records, records, metric)).toMatchObject({ count: 0, meanDifference: null })
      expect(aggregate(records, { metrics: [metric] })[metric]).toMatchObject({ count: 0, mean: null })
    }
    const all = aggregate(records)
    expect(Object.keys(all).sort()).toEqual(['__proto__', 'x'])
    expect(Object.getPrototypeOf(all)).toBe(Object.prototype)
    expect(all['__proto__']).toMatchObject({ mean: 0.5, count: 1, missing: 1 })
    expect(comparePaired(records, records, '__proto__')).toMatchObject({ count: 1, meanDifference: 0 })
  })
})
