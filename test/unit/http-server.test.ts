import { mkdirSync, writeFileSync } from 'node:fs'
import { request } from 'node:http'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startBrowserServer, type BrowserServer } from '../../main/adapters/http-server'
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

  it('refuses a non-loopback Host header (DNS rebinding)', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: server.port, path: '/', headers: { Host: 'evil.example:80' } }, (res) => resolve(res.statusCode ?? 0))
      req.on('error', reject)
      req.end()
    })
    expect(status).toBe(403)
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

  it('will not listen on a non-loopback address', async () => {
    await expect(
      startBrowserServer({ handlers: createHandlers(backend.services, { mode: 'browser' }), events: backend.services.events, rendererDir: tmp.dir, port: 0, host: '0.0.0.0' }),
    ).rejects.toThrow(/loopback only/)
  })
})
