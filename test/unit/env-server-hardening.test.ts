/**
 * Environment-server hardening (issue 23 items 3, 8, 9) over a real demo workspace and real HTTP on
 * loopback: every 4xx names `error.field` (bad JSON, prototype keys, 413, 414, 431, unknown episode,
 * POST with a JSON content type and no body); DELETE with a JSON content type and an empty body closes
 * the episode; idle means no request from the client, so an episode
 * whose request has arrived is never dropped while it waits; `[::1]` and `localhost.` bind what passes
 * the loopback check.
 */
import { connect } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startEnvServer, type EnvServer } from '../../main/env-server'
import { openDemoWorkspace, type DemoWorkspace } from '../helpers/corpus'

type Json = Record<string, any>

let demo: DemoWorkspace
let server: EnvServer
let clock = 1_000_000

async function call(method: string, path: string, body?: string, headers: Record<string, string> = {}): Promise<{ status: number; json: Json }> {
  const res = await fetch(`${server.url}${path}`, { method, headers: { authorization: `Bearer ${server.token}`, ...headers }, body })
  return { status: res.status, json: (await res.json()) as Json }
}
const json = { 'content-type': 'application/json' }

/** Sends raw bytes on one connection; resolves with the status line and body of the answer. */
function rawRequest(port: number, head: string): { socket: ReturnType<typeof connect>; answer: Promise<{ status: number; body: string }> } {
  const socket = connect(port, '127.0.0.1')
  let data = ''
  const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
    socket.setEncoding('utf8')
    socket.on('data', (c: string) => {
      data += c
      const split = data.indexOf('\r\n\r\n')
      const length = Number(/content-length: (\d+)/i.exec(data)?.[1] ?? NaN)
      if (split >= 0 && data.length - split - 4 >= length) {
        resolve({ status: Number(data.slice(9, 12)), body: data.slice(split + 4) })
        socket.end()
      }
    })
    socket.on('error', reject)
  })
  socket.write(head)
  return { socket, answer }
}

beforeAll(async () => {
  demo = await openDemoWorkspace(5, 0.3)
  server = await startEnvServer({ raw: demo.db.raw, appVersion: 'test', port: 0, workers: 1, idleTimeoutMs: 5_000, now: () => clock })
}, 600_000)
afterAll(async () => {
  await server?.close()
  await demo?.close()
})

describe('environment server hardening', () => {
  it('names error.field on every 4xx', async () => {
    const id = crypto.randomUUID()
    const cases: Array<[string, Promise<{ status: number; json: Json }>, number, string]> = [
      ['invalid JSON', call('POST', '/v1/episodes', '{"environment": ', json), 400, '(body)'],
      ['__proto__ key', call('POST', '/v1/episodes', '{"environment": "graph-menu", "config": {"__proto__": {"x": 1}}}', json), 400, 'config.__proto__'],
      ['constructor.prototype', call('POST', '/v1/episodes', '{"constructor": {"prototype": {"x": 1}}}', json), 400, 'constructor.prototype'],
      ['413', call('POST', '/v1/episodes', JSON.stringify({ environment: 'x'.repeat(2_000_000) }), json), 413, '(body)'],
      ['unknown episode', call('POST', `/v1/episodes/${id}/step`, '{"menu_id": "A"}', json), 404, 'id'],
      ['not a uuid', call('POST', '/v1/episodes/nope/finish', '{}', json), 404, 'id'],
      ['414', call('POST', `/v1/episodes/${'a'.repeat(5000)}/step`, '{"menu_id": "A"}', json), 414, 'path'],
      ['431', call('GET', `/v1/health?${'q'.repeat(20_000)}`), 431, '(headers)'],
      // No body with a JSON content type: a DELETE is taken as it is meant (here, an episode that is not open); a POST is told its body is empty.
      ['DELETE, JSON content type, no body', call('DELETE', `/v1/episodes/${id}`, undefined, json), 404, 'id'],
      ['POST, JSON content type, no body', call('POST', '/v1/episodes', undefined, json), 400, '(body)'],
      ['DELETE unknown episode', call('DELETE', `/v1/episodes/${id}`), 404, 'id'],
      ['415', call('POST', '/v1/episodes', '<x/>', { 'content-type': 'text/xml' }), 415, 'content-type'],
      ['no endpoint', call('GET', '/v2/nothing'), 404, 'path'],
      ['no token', fetch(`${server.url}/v1/health`).then(async (r) => ({ status: r.status, json: (await r.json()) as Json })), 401, 'authorization'],
      ['retrieve without queries', call('POST', '/retrieve', '{}', json), 400, 'queries'],
    ]
    for (const [name, pending, status, field] of cases) {
      const r = await pending
      expect([r.status, r.json.error?.field], name).toEqual([status, field])
      expect(r.json.error.message.length, name).toBeGreaterThan(5)
    }
  })

  it('closes an episode on DELETE with a JSON content type and an empty body', async () => {
    const created = await call('POST', '/v1/episodes', JSON.stringify({ environment: 'graph-menu', set: 1, index: 2, seed: 0 }), json)
    expect(created.status).toBe(200)
    const id = created.json.episode_id as string
    const open = (await call('GET', '/v1/stats')).json.open as number
    for (const body of [undefined, '']) {
      const closed = await call('DELETE', `/v1/episodes/${id}`, body, json)
      if (body === undefined) expect([closed.status, closed.json]).toEqual([200, { deleted: true }])
      else expect([closed.status, closed.json.error?.field]).toEqual([404, 'id'])
    }
    expect((await call('GET', '/v1/stats')).json.open).toBe(open - 1)
    expect((await call('POST', `/v1/episodes/${id}/step`, JSON.stringify({ menu_id: 'A' }), json)).status).toBe(404)
  })

  it('does not count a request that has arrived as idleness, however long it waits; silence past the timeout drops the episode', async () => {
    const created = await call('POST', '/v1/episodes', JSON.stringify({ environment: 'graph-menu', set: 1, index: 0, seed: 0 }), json)
    expect(created.status).toBe(200)
    const id = created.json.episode_id as string
    const body = JSON.stringify({ menu_id: created.json.menu[0].id })
    // The step request arrives (headers and all but its last byte): it is in flight, not yet served.
    const { socket, answer } = rawRequest(server.port, `POST /v1/episodes/${id}/step HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${server.token}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, -1)}`)
    for (let inFlight = 0; inFlight < 1; ) inFlight = ((await call('GET', '/v1/stats')).json.inFlight as number) ?? 0
    // Twelve timeouts pass while it waits (as behind 255 other episodes' steps); sweeps and creates run.
    clock += 60_000
    expect(server.sessions.sweep()).toBe(0)
    const other = await call('POST', '/v1/episodes', JSON.stringify({ environment: 'graph-menu', set: 1, index: 1, seed: 0 }), json)
    expect(other.status).toBe(200)
    socket.write(body.slice(-1))
    const served = await answer
    expect(served.status, served.body).toBe(200)
    expect(JSON.parse(served.body).info.t).toBe(0)
    // Answered: now the client is silent past the timeout, and the episode goes.
    clock += 6_000
    const late = await call('POST', `/v1/episodes/${id}/step`, JSON.stringify({ menu_id: 'A' }), json)
    expect([late.status, late.json.error.field]).toEqual([404, 'id'])
    server.sessions.sweep()
    // The first by its late request, the other (silent since its create) by the sweep.
    expect(server.sessions.counters()).toMatchObject({ open: 0, expired: 2, inFlight: 0 })
  })

  it('binds the loopback hosts it accepts: [::1] and localhost. (or refuses clearly)', async () => {
    for (const host of ['[::1]', 'localhost.', ' LOCALHOST ']) {
      let s: EnvServer
      try {
        s = await startEnvServer({ raw: demo.db.raw, appVersion: 'test', port: 0, host, workers: 0 })
      } catch (err) {
        // A machine without IPv6 cannot bind ::1: it must say so, not fail inside the listener.
        expect(host).toBe('[::1]')
        expect((err as Error).message).toMatch(/Cannot listen on ::1|EADDRNOTAVAIL|EAFNOSUPPORT/)
        console.warn(`skipped [::1]: ${(err as Error).message}`)
        continue
      }
      try {
        expect(s.host).toBe(host.includes('::1') ? '::1' : 'localhost')
        const res = await fetch(`${s.url}/v1/health`, { headers: { authorization: `Bearer ${s.token}` } })
        expect(res.status).toBe(200)
      } finally {
        await s.close()
      }
    }
    await expect(startEnvServer({ raw: demo.db.raw, appVersion: 'test', port: 0, host: 'no-such-host.invalid', token: 'x'.repeat(16), workers: 0 })).rejects.toThrow(/Cannot listen on no-such-host.invalid/)
  })
})
