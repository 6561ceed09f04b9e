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
