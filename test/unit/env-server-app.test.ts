/**
 * The environment server started and stopped from the app's API (the Policies page's control): the
 * status carries the URL, the token and live counters that move with a trainer's requests; a second start
 * is a conflict; a non-loopback host without a token is refused; stored trainer episodes appear as a run.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startBackend, type TestBackend } from '../helpers/services'

describe('environment server from the app', () => {
  let backend: TestBackend
  let workspaceId: string
  beforeAll(async () => {
    backend = await startBackend()
    workspaceId = (await backend.call('workspace.create', { name: 'env server' })).id
    const ingest = await backend.call('job.start', { kind: 'corpus.ingest', workspaceId, params: { source: { kind: 'demo', seed: 2, size: 0.3 } } })
    expect((await backend.services.jobs.waitFor(ingest.id)).status).toBe('done')
  }, 600_000)
  afterAll(async () => {
    await backend.call('envServer.stop', {})
    await backend.close()
  })

  it('starts, reports URL, token and counters that follow a trainer, refuses a second start, and stops', async () => {
    expect(await backend.call('envServer.status', {})).toMatchObject({ running: false, url: null, counters: null })
    await expect(backend.call('envServer.start', { workspaceId, port: 0, host: '0.0.0.0' })).rejects.toThrow(/token is required/)
    await expect(backend.call('envServer.start', { workspaceId: 'no-such-workspace', port: 0 })).rejects.toThrow(/No workspace/)

    const started = await backend.call('envServer.start', { workspaceId, port: 0, store: 'all' })
    expect(started).toMatchObject({ running: true, host: '127.0.0.1', workspaceId, store: 'all', counters: { open: 0, steps: 0, errors: 0 } })
    expect(started.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(started.token!.length).toBeGreaterThanOrEqual(16)
    await expect(backend.call('envServer.start', { workspaceId, port: 0 })).rejects.toThrow(/already runs/)

    const post = async (path: string, body: unknown) => {
      const res = await fetch(`${started.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${started.token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) })
      return { status: res.status, json: (await res.json()) as Record<string, any> }
    }
    const created = (await post('/v1/episodes', { environment: 'graph-menu', set: 1, index: 0, seed: 7 })).json
    expect((await backend.call('envServer.status', {})).counters).toMatchObject({ open: 1, created: 1 })
    await post(`/v1/episodes/${created.episode_id}/step`, { menu_id: created.menu[0].id })
    expect((await post('/v1/episodes', { environment: 'nope', question_id: 1 })).status).toBe(400)
    const mid = (await backend.call('envServer.status', {})).counters!
    expect(mid).toMatchObject({ open: 1, steps: 1, errors: 1 })
    expect(mid.stepsPerSecond).toBeGreaterThan(0)
    const finished = (await post(`/v1/episodes/${created.episode_id}/finish`, {})).json
    expect(finished.stored_run_id).toEqual(expect.any(Number))
    const runs = await backend.call('runs.list', { workspaceId })
    expect(runs.find((r) => r.id === finished.stored_run_id)).toMatchObject({ kind: 'eval', name: 'env-server graph-menu' })

    const stopped = await backend.call('envServer.stop', {})
    expect(stopped).toMatchObject({ running: false, url: null })
    await expect(fetch(`${started.url}/v1/health`)).rejects.toThrow()
  }, 600_000)

  it('closes with the app: closing the services stops a server still running', async () => {
    const other = await startBackend()
    const id = (await other.call('workspace.create', { name: 'closing' })).id
    const started = await other.call('envServer.start', { workspaceId: id, port: 0 })
    expect((await fetch(`${started.url}/v1/health`, { headers: { authorization: `Bearer ${started.token}` } })).status).toBe(200)
    await other.close()
    await expect(fetch(`${started.url}/v1/health`)).rejects.toThrow()
  }, 600_000)
})
