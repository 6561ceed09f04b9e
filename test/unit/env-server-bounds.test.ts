/**
 * The environment server's sessions are bounded: a /ws client that writes without reading holds at most
 * WS_MAX_QUEUED messages (the rest answered at once with OpenEnv's CAPACITY_REACHED), and whatever it
 * left waiting is dropped when its socket goes, so the next client is answered at once; /retrieve has a
 * per-request work budget; a scored episode's state stays readable under the client's name, which a
 * new /reset may then take.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { startEnvServer, type EnvServer } from '../../main/env-server'
import { OpenEnvSession, OpenEnvSessions, WS_MAX_QUEUED } from '../../main/env-server/openenv'
import { defaultQuestionOf } from '../../main/env-server/questions'
import { RETRIEVE_MAX_PASSAGES } from '../../main/env-server/retrieve'
import { openDemoWorkspace, type DemoWorkspace } from '../helpers/corpus'

type Json = Record<string, any>

let demo: DemoWorkspace
let server: EnvServer

beforeAll(async () => {
  demo = await openDemoWorkspace(5, 0.3)
  server = await startEnvServer({ raw: demo.db.raw, appVersion: 'test', port: 0, workers: 1, open: ['retrieve', 'openenv'] })
}, 600_000)
afterAll(async () => {
  await server?.close()
  await demo?.close()
})

const authorised = { authorization: () => `Bearer ${server.token}` }
const stats = async (): Promise<Json> => (await (await fetch(`${server.url}/v1/stats`, { headers: { authorization: authorised.authorization() } })).json()) as Json
const post = async (path: string, body: unknown) => {
  const res = await fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  return { status: res.status, json: (await res.json()) as Json }
}
const opened = async (): Promise<WebSocket> => {
  const ws = new WebSocket(`${server.url.replace(/^http/, 'ws')}/ws`)
  await new Promise<void>((resolve, reject) => (ws.once('open', () => resolve()), ws.once('error', reject)))
  return ws
}
/** Polls until `done` holds (every 20 ms, up to `limitMs`: a generous bound, not a measurement). */
async function until(done: () => Promise<boolean>, limitMs = 60_000): Promise<void> {
  const end = Date.now() + limitMs
  while (!(await done())) {
    if (Date.now() > end) throw new Error(`condition not reached within ${limitMs} ms; stats: ${JSON.stringify(await stats())}`)
    await new Promise((r) => setTimeout(r, 20))
  }
}

describe('a /ws session', () => {
  it('holds a bounded queue: past it, OpenEnv CAPACITY_REACHED at once; every message is answered, in order', async () => {
    const ws = await opened()
    const replies: Json[] = []
    ws.on('message', (data) => replies.push(JSON.parse(String(data)) as Json))
    const sent = 200
    for (let i = 0; i < sent; i++) ws.send(JSON.stringify({ type: 'reset', data: { seed: i } }))
    await until(async () => replies.length === sent)
    const refused = replies.filter((r) => r.type === 'error')
    // How many arrive while others wait depends on how the bytes were read; that some are refused does not.
    expect(refused.length).toBeGreaterThan(0)
    for (const r of refused) expect(r.data).toEqual({ code: 'CAPACITY_REACHED', message: expect.stringMatching(/read the replies before sending more/), queued: WS_MAX_QUEUED, max_queued: WS_MAX_QUEUED })
    expect(replies.filter((r) => r.type === 'observation').length).toBe(sent - refused.length)
    // A client that reads each reply before the next (OpenEnv's) is never refused.
    for (let i = 0; i < 3; i++) {
      const before = replies.length
      ws.send(JSON.stringify({ type: 'state' }))
      await until(async () => replies.length === before + 1)
      expect(replies.at(-1)!.type).toBe('state')
    }
    ws.close()
    await until(async () => {
      const s = await stats()
      return s.ws.sessions === 0 && s.open === 0
    })
  })

  /** 500 resets written without reading a reply, then the socket goes; the server's counters before and after. */
  const flood = async (leave: (ws: WebSocket) => void) => {
    const before = await stats()
    const ws = await opened()
    for (let i = 0; i < 500; i++) ws.send(JSON.stringify({ type: 'reset', data: { seed: i } }))
    // The server has read them all (refused, run or waiting) before the client goes: a reset connection discards unread bytes.
    await until(async () => {
      const s = await stats()
      return s.ws.refused - before.ws.refused + (s.created - before.created) + s.ws.queued >= 500
    })
    leave(ws)
    const health = await fetch(`${server.url}/v1/health`, { headers: { authorization: authorised.authorization() } })
    expect(health.status).toBe(200)
    expect(((await health.json()) as Json).ok).toBe(true)
    await until(async () => {
      const s = await stats()
      return s.ws.sessions === 0 && s.ws.queued === 0 && s.open === 0
    })
    const after = await stats()
    const counts = { created: after.created - before.created, refused: after.ws.refused - before.ws.refused, dropped: after.ws.dropped - before.ws.dropped }
    console.log(`env-server-bounds: 500 resets, then the socket went: ${JSON.stringify(counts)}, health answered ${health.status}`)
    return counts
  }

  it('drops every waiting message when it closes: only the one in hand runs, and its episode goes too', async () => {
    const registry = new OpenEnvSessions(WS_MAX_QUEUED)
    const session = new OpenEnvSession(server.sessions, defaultQuestionOf(demo.db.raw), registry)
    const created = server.sessions.counters().created
    const answers = Array.from({ length: WS_MAX_QUEUED }, (_, i) => session.handle(JSON.stringify({ type: 'reset', data: { seed: i } })))
    expect(registry.stats()).toMatchObject({ sessions: 1, queued: WS_MAX_QUEUED })
    await session.close()
    const replies = await Promise.all(answers)
    // At most the message already in hand ran; every other one was dropped unhandled.
    const ran = server.sessions.counters().created - created
    expect(ran).toBeLessThanOrEqual(1)
    expect(registry.stats()).toEqual({ sessions: 0, queued: 0, max_queued: WS_MAX_QUEUED, refused: 0, dropped: WS_MAX_QUEUED - ran })
    expect(replies.filter((r) => r === null)).toHaveLength(WS_MAX_QUEUED - ran)
    expect(server.sessions.counters().open).toBe(0)
    expect(await session.handle(JSON.stringify({ type: 'state' }))).toBeNull()
  })

  it('500 resets then a dropped socket: what waited is dropped with it, far fewer than 500 run, and health answers', async () => {
    // No close frame: the connection is reset.
    const { created, refused, dropped } = await flood((ws) => ws.terminate())
    expect(refused + dropped + created).toBe(500)
    expect(refused).toBeGreaterThan(250)
    expect(created).toBeLessThan(250)
  })

  it('500 resets then a close: each was refused at once, dropped unhandled or run, and far fewer than 500 ran', async () => {
    const { created, refused, dropped } = await flood((ws) => ws.close())
    expect(refused + dropped + created).toBe(500)
    expect(refused).toBeGreaterThan(250)
    expect(created).toBeLessThan(250)
  })
})

describe('OpenEnv HTTP episodes', () => {
  it("keep the client's episode_id, and a scored episode's state stays readable until its name starts another", async () => {
    const reset = await post('/reset', { seed: 4, episode_id: 'trainer/ep-42' })
    expect(reset.json.observation).toMatchObject({ episode_id: 'trainer/ep-42', server_episode_id: expect.any(String) })
    let out = reset.json
    for (let t = 0; !out.done; t++) {
      const menu = out.observation.menu as Json[]
      const item = t >= 1 ? menu.find((m) => m.type === 'ANSWER')! : menu[0]!
      out = (await post('/step', { action: { menu_id: item.id }, episode_id: 'trainer/ep-42' })).json
      expect(out.observation.episode_id).toBe('trainer/ep-42')
      expect(t).toBeLessThan(10)
    }
    const state = (await (await fetch(`${server.url}/state?episode_id=trainer/ep-42`)).json()) as Json
    expect(state).toMatchObject({ episode_id: 'trainer/ep-42', server_episode_id: reset.json.observation.server_episode_id, done: true, step_count: expect.any(Number) })
    // By the server's id too.
    expect(await (await fetch(`${server.url}/state?episode_id=${reset.json.observation.server_episode_id}`)).json()).toMatchObject({ done: true })
    // The name is free again: a new episode takes it, and the scored one is forgotten.
    const again = await post('/reset', { seed: 5, episode_id: 'trainer/ep-42' })
    expect(again.status).toBe(200)
    expect(again.json.observation.server_episode_id).not.toBe(reset.json.observation.server_episode_id)
    expect(((await (await fetch(`${server.url}/state?episode_id=trainer/ep-42`)).json()) as Json).done).toBe(false)
    expect((await fetch(`${server.url}/state?episode_id=${reset.json.observation.server_episode_id}`)).status).toBe(404)
  })
})

describe("a scored episode's state", () => {
  it('stays readable for the idle timeout after the last step, then goes', async () => {
    let clock = 1_000_000
    const timed = await startEnvServer({ raw: demo.db.raw, appVersion: 'test', port: 0, workers: 0, open: ['openenv'], idleTimeoutMs: 5_000, now: () => clock })
    try {
      const call = async (path: string, body?: unknown) => {
        const res = await fetch(`${timed.url}${path}`, body === undefined ? {} : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
        return { status: res.status, json: (await res.json()) as Json }
      }
      let out = (await call('/reset', { seed: 1, episode_id: 'timed' })).json
      for (let t = 0; !out.done; t++) {
        const menu = out.observation.menu as Json[]
        out = (await call('/step', { action: { menu_id: (t >= 1 ? menu.find((m) => m.type === 'ANSWER') : undefined)?.id ?? menu[0]!.id }, episode_id: 'timed' })).json
        expect(t).toBeLessThan(10)
      }
      clock += 4_000
      timed.sessions.sweep()
      expect((await call('/state?episode_id=timed')).json).toMatchObject({ episode_id: 'timed', done: true })
      clock += 2_000
      expect((await call('/state?episode_id=timed')).status).toBe(404)
      timed.sessions.sweep()
      expect((await call('/state?episode_id=timed')).status).toBe(404)
    } finally {
      await timed.close()
    }
  })
})

describe('/retrieve', () => {
  it('refuses a request past its work budget before any work, naming it; a Search-R1 batch fits', async () => {
    const huge = await post('/retrieve', { queries: Array.from({ length: 90 }, (_, i) => `river ${i} `.repeat(1000).slice(0, 10_000)), topk: 100 })
    expect(huge.status).toBe(400)
    expect(huge.json.error).toMatchObject({ field: 'topk', message: expect.stringMatching(new RegExp(`90 queries x topk 100 asks for 9000 passages; one request may ask for at most ${RETRIEVE_MAX_PASSAGES}`)) })
    const batch = await post('/retrieve', { queries: Array.from({ length: 512 }, (_, i) => `river ${i}`), topk: 3 })
    expect(batch.status).toBe(200)
    expect(batch.json.result).toHaveLength(512)
  })
})
