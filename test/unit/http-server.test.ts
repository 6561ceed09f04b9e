import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { request } from 'node:http'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { contentDisposition, downloadableFile } from '../../main/adapters/downloads'
import { hostOf, startBrowserServer, type BrowserServer } from '../../main/adapters/http-server'
import { isLoopbackHost } from '../../main/adapters/security'
import { createHandlers } from '../../main/api/handlers'
import { startBackend, tempDir, type TestBackend } from '../helpers/services'

describe('browser-mode server', () => {
  const tmp = tempDir()
  let backend: TestBackend
  let server: BrowserServer
  let base: string

  beforeAll(async () => {
    const rendererDir = join(tmp.dir, 'renderer')
    mkdirSync(rendererDir)
    writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>t</title>')
    backend = await startBackend()
    server = await startBrowserServer({ handlers: createHandlers(backend.services, { mode: 'browser' }), events: backend.services.events, rendererDir, port: 0 })
    base = `http://127.0.0.1:${server.port}`
  })
  afterAll(async () => {
    await server.close()
    await backend.close()
    tmp.cleanup()
  })

  const call = (route: string, body: unknown, token: string | null = server.token, raw?: string) =>
    fetch(`${base}/api/call/${route}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      body: raw ?? JSON.stringify(body),
    })

  it('prints a loopback URL carrying the token', () => {
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/?token=${server.token}`)
    expect(server.token.length).toBeGreaterThanOrEqual(32)
  })

  it('refuses calls without the token or with a wrong one', async () => {
    for (const token of [null, 'wrong', `${server.token}x`]) {
      const res = await call('workspace.list', {}, token)
      expect(res.status).toBe(401)
      expect(await res.json()).toMatchObject({ ok: false, error: { code: 'UNAUTHORIZED' } })
    }
    expect((await fetch(`${base}/api/events`)).status).toBe(401)
  })

  it('answers good calls, and bad input or bad JSON with 400 and a validation error', async () => {
    const ok = await call('workspace.create', { name: 'Over HTTP' })
    expect(ok.status).toBe(200)
    expect(await ok.json()).toMatchObject({ ok: true, data: { name: 'Over HTTP' } })
    const bad = await call('workspace.create', { name: '' })
    expect(bad.status).toBe(400)
    expect(await bad.json()).toMatchObject({ ok: false, error: { code: 'VALIDATION' } })
    const notJson = await call('workspace.create', null, server.token, '{"name": ')
    expect(notJson.status).toBe(400)
    expect(await notJson.json()).toMatchObject({ ok: false, error: { code: 'VALIDATION', message: expect.stringMatching(/JSON/) } })
    expect((await call('no.such.route', {})).status).toBe(404)
  })

  const withHost = (host: string, path = '/'): Promise<{ status: number; cacheControl: string | undefined }> =>
    new Promise((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: server.port, path, headers: { Host: host } }, (res) => {
        res.resume()
        resolve({ status: res.statusCode ?? 0, cacheControl: res.headers['cache-control'] })
      })
      req.on('error', reject)
      req.end()
    })

  it('refuses a non-loopback Host header (DNS rebinding)', async () => {
    expect((await withHost('evil.example:80')).status).toBe(403)
    expect((await withHost('localhost.evil.example')).status).toBe(403)
    expect((await withHost('127.0.0.1.nip.io')).status).toBe(403)
  })

  it('compares the Host header case-insensitively (LOCALHOST is localhost)', async () => {
    for (const host of [`LOCALHOST:${server.port}`, `LocalHost:${server.port}`, `localhost.:${server.port}`, `[::1]:${server.port}`, '127.0.0.1']) {
      expect((await withHost(host)).status, host).toBe(200)
    }
    expect(hostOf('LOCALHOST:7717')).toBe('localhost')
    expect(hostOf('[::1]:80')).toBe('::1')
    expect(isLoopbackHost('LOCALHOST')).toBe(true)
    expect(isLoopbackHost('localhostx')).toBe(false)
  })

  it('marks every API answer Cache-Control: no-store (success, errors, refusals, events)', async () => {
    expect((await call('workspace.list', {})).headers.get('cache-control')).toBe('no-store')
    expect((await call('workspace.get', { id: 'missing' })).headers.get('cache-control')).toBe('no-store')
    expect((await call('workspace.list', {}, 'wrong')).headers.get('cache-control')).toBe('no-store')
    expect((await call('workspace.create', null, server.token, '{')).headers.get('cache-control')).toBe('no-store')
    expect((await fetch(`${base}/api/nothing-here`)).headers.get('cache-control')).toBe('no-store')
    expect((await withHost('evil.example', '/api/call/workspace.list')).cacheControl).toBe('no-store')
    const controller = new AbortController()
    const events = await fetch(`${base}/api/events?token=${server.token}`, { signal: controller.signal })
    expect(events.headers.get('cache-control')).toBe('no-store')
    controller.abort()
  })

  it('says what it refused in a body with prototype keys, rather than "not valid JSON"', async () => {
    const proto = await call('workspace.create', null, server.token, '{"name": "x", "__proto__": {"polluted": true}}')
    expect(proto.status).toBe(400)
    const body = (await proto.json()) as { error: { code: string; message: string; issues: string[] } }
    expect(body.error.code).toBe('VALIDATION')
    expect(body.error.message).toMatch(/key "__proto__"/)
    expect(body.error.message).not.toMatch(/JSON/)
    expect(body.error.issues).toEqual(['__proto__: forbidden key "__proto__"'])
    const nested = await call('job.start', null, server.token, '{"kind": "db.maintenance", "workspaceId": "a", "params": {"constructor": {"prototype": {"x": 1}}}}')
    expect(nested.status).toBe(400)
    expect(((await nested.json()) as { error: { message: string } }).error.message).toMatch(/key "constructor" \(at params\.constructor\)/)
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    const empty = await call('workspace.list', null, server.token, '')
    expect(empty.status).toBe(400)
    expect(((await empty.json()) as { error: { message: string } }).error.message).toMatch(/empty/)
  })

  it('serves the renderer with a strict CSP', async () => {
    const res = await fetch(`${base}/`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-security-policy')).toMatch(/default-src 'self'.*script-src 'self'/)
  })

  it('streams contract events over SSE', async () => {
    const controller = new AbortController()
    const res = await fetch(`${base}/api/events?token=${server.token}`, { signal: controller.signal })
    expect(res.headers.get('content-type')).toMatch(/text\/event-stream/)
    const reader = res.body!.getReader()
    const w = await backend.call('workspace.create', { name: 'events' })
    void call('job.start', { kind: 'db.maintenance', workspaceId: w.id })
    let text = ''
    while (!text.includes('event: job.status')) {
      const { value, done } = await reader.read()
      if (done) break
      text += new TextDecoder().decode(value)
    }
    controller.abort()
    expect(text).toMatch(/event: job.status\ndata: \{.*"kind":"db.maintenance"/)
  })

  it('replays the events a reconnecting page missed, after the last id it saw, and only those', async () => {
    const w = await backend.call('workspace.create', { name: 'replay' })
    const startJob = async (): Promise<string> => ((await (await call('job.start', { kind: 'db.maintenance', workspaceId: w.id })).json()) as { data: { id: string } }).data.id
    const statuses = (text: string) => [...text.matchAll(/id: (\d+)\nevent: job.status\ndata: (.*)\n/g)].map((m) => ({ id: Number(m[1]), job: JSON.parse(m[2]!) as { id: string; status: string } }))
    /** One stream: once connected, starts a job and reads until that job reaches `status` (so the read ends on a live event, whatever was replayed before it). */
    const readEvents = async (headers: Record<string, string>, status: string): Promise<{ text: string; marker: string }> => {
      const controller = new AbortController()
      const res = await fetch(`${base}/api/events?token=${server.token}`, { headers, signal: controller.signal })
      const reader = res.body!.getReader()
      let text = ''
      let marker: string | null = null
      while (marker === null || !statuses(text).some((s) => s.job.id === marker && s.job.status === status)) {
        const { value, done } = await reader.read()
        if (done) throw new Error(`stream ended: ${text}`)
        text += new TextDecoder().decode(value)
        if (marker === null && text.includes(': connected')) marker = await startJob()
      }
      controller.abort()
      await backend.services.jobs.waitFor(marker)
      return { text, marker }
    }
    const first = await readEvents({}, 'done')
    const lastSeen = Math.max(...statuses(first.text).map((s) => s.id))
    // While the page is away another job runs to the end.
    const away = await startJob()
    await backend.services.jobs.waitFor(away)
    const back = await readEvents({ 'Last-Event-ID': String(lastSeen) }, 'queued')
    const replayed = statuses(back.text)
    expect(replayed.map((s) => s.id)).toEqual(replayed.map((_, i) => lastSeen + 1 + i))
    expect(replayed.some((s) => s.job.id === first.marker)).toBe(false)
    expect(replayed.filter((s) => s.job.id === away).map((s) => s.job.status).at(-1)).toBe('done')
    // A first connection replays nothing: it reads the state through calls.
    const fresh = await readEvents({}, 'queued')
    expect([...new Set(statuses(fresh.text).map((s) => s.job.id))]).toEqual([fresh.marker])
  })

  it('offers a finished export for download by job id, only with the token, only from the data folder', async () => {
    const w = await backend.call('workspace.create', { name: 'download' })
    const ingest = await backend.call('job.start', { kind: 'corpus.ingest', workspaceId: w.id, params: { source: { kind: 'demo', seed: 3, size: 0.2 } } })
    expect((await backend.services.jobs.waitFor(ingest.id)).status).toBe('done')
    const started = await (await call('job.start', { kind: 'graph.export', workspaceId: w.id, params: {} })).json()
    const job = await backend.services.jobs.waitFor((started as { data: { id: string } }).data.id)
    expect(job.status, job.error ?? '').toBe('done')
    const file = (job.result as { file: string }).file
    const res = await fetch(`${base}/api/download/${job.id}?token=${server.token}`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/graphml/)
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="graph-.*\.graphml"/)
    expect(res.headers.get('cache-control')).toBe('no-store')
    expect(await res.text()).toBe(readFileSync(file, 'utf8'))
    // The bearer header works too; no token, a wrong one, an unknown id or a job that is no export do not.
    expect((await fetch(`${base}/api/download/${job.id}`, { headers: { Authorization: `Bearer ${server.token}` } })).status).toBe(200)
    expect((await fetch(`${base}/api/download/${job.id}`)).status).toBe(401)
    expect((await fetch(`${base}/api/download/${job.id}?token=nope`)).status).toBe(401)
    expect((await fetch(`${base}/api/download/no-such-job?token=${server.token}`)).status).toBe(404)
    expect((await fetch(`${base}/api/download/${ingest.id}?token=${server.token}`)).status).toBe(404)
    expect((await fetch(`${base}/api/download/..%2F..%2Fetc%2Fpasswd?token=${server.token}`)).status).toBe(404)
    // A server-side path outside the data folder is refused before the job is queued.
    const outside = await call('job.start', { kind: 'graph.export', workspaceId: w.id, params: { path: join(tmp.dir, 'stolen.graphml') } })
    expect(outside.status).toBe(400)
    expect(((await outside.json()) as { error: { message: string } }).error.message).toMatch(/outside the data folder/)
  })

  it('streams a download only when its real path lies in the data folder', () => {
    const data = join(tmp.dir, 'data-root')
    mkdirSync(data)
    writeFileSync(join(data, 'ok.graphml'), '<graphml/>')
    writeFileSync(join(tmp.dir, 'secret.txt'), 'secret')
    symlinkSync(join(tmp.dir, 'secret.txt'), join(data, 'link.graphml'))
    expect(downloadableFile(join(data, 'ok.graphml'), [data])).toMatchObject({ size: 10 })
    expect(downloadableFile(join(data, 'link.graphml'), [data])).toBeNull()
    expect(downloadableFile(join(data, '..', 'secret.txt'), [data])).toBeNull()
    expect(downloadableFile(data, [data])).toBeNull()
    expect(contentDisposition('graph "x".graphml')).toBe(`attachment; filename="graph__x_.graphml"; filename*=UTF-8''graph%20%22x%22.graphml`)
  })

  it('will not listen on a non-loopback address', async () => {
    await expect(
      startBrowserServer({ handlers: createHandlers(backend.services, { mode: 'browser' }), events: backend.services.events, rendererDir: tmp.dir, port: 0, host: '0.0.0.0' }),
    ).rejects.toThrow(/loopback only/)
  })
})
