/**
 * The environment server over a real demo workspace (real SQLite file, real environments, real HTTP on
 * loopback): create, step, finish, delete, timeouts, errors naming the field, the token, the Host check,
 * stored episodes, and 64 concurrent episodes whose results equal the same episodes played one at a time.
 */
import { request } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startEnvServer, type EnvServer } from '../../main/env-server'
import { EpisodeRouter } from '../../main/env-server/router'
import { RunStore } from '../../main/experiments/runs/store'
import { openDemoWorkspace, type DemoWorkspace } from '../helpers/corpus'
import { z } from 'zod'

type Json = Record<string, any>

let demo: DemoWorkspace
let server: EnvServer

async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<{ status: number; json: Json }> {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${server.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  })
  return { status: res.status, json: (await res.json()) as Json }
}
const ok = async (method: string, path: string, body?: unknown): Promise<Json> => {
  const r = await call(method, path, body)
  if (r.status !== 200) throw new Error(`${method} ${path} -> ${r.status} ${JSON.stringify(r.json)}`)
  return r.json
}

/** A deterministic menu choice that depends only on the episode's own state: which item, by the menu's order and the turn. */
const pick = (menu: { id: string; type: string }[], t: number, salt: number): string => {
  const info = menu.filter((m) => m.type === 'SELECT' || m.type === 'LOOKUP')
  if (t >= 3 || info.length === 0) return menu.find((m) => m.type === 'ANSWER')?.id ?? menu[0]!.id
  return info[(salt * 7 + t * 3) % info.length]!.id
}

/** Plays one graph-menu episode through the server; returns everything it observed and the finish result. */
async function play(question: number, seed: number): Promise<Json> {
  const created = await ok('POST', '/v1/episodes', { environment: 'graph-menu', set: 1, index: question, seed, group_id: `g${question}` })
  const seen: string[] = [created.messages[1].content]
  let menu = created.menu
  let done = created.done
  for (let t = 0; !done; t++) {
    const step = await ok('POST', `/v1/episodes/${created.episode_id}/step`, { menu_id: pick(menu, t, question + seed) })
    seen.push(step.observation)
    done = step.done
    menu = step.menu
    // Let other episodes' requests in between this one's steps.
    await new Promise((r) => setImmediate(r))
  }
  const finished = await ok('POST', `/v1/episodes/${created.episode_id}/finish`, {})
  return { seen, reward: finished.reward, components: finished.components, credit: finished.per_step_credit, metrics: finished.metrics }
}

beforeAll(async () => {
  demo = await openDemoWorkspace(5, 0.5)
  server = await startEnvServer({ raw: demo.db.raw, appVersion: 'test', port: 0, store: { mode: 'all' } })
}, 600_000)
afterAll(async () => {
  await server?.close()
  await demo?.close()
})

describe('environment server contract', () => {
  it('needs the token on every endpoint and refuses a Host that is not loopback', async () => {
    for (const path of ['/v1/health', '/v1/environments']) {
      const res = await fetch(`${server.url}${path}`)
      expect(res.status).toBe(401)
      expect(((await res.json()) as Json).error.message).toMatch(/token/)
    }
    expect((await call('GET', '/v1/health', undefined, { authorization: 'Bearer wrong-token-of-some-length' })).status).toBe(401)
    // fetch() may not set Host; node:http may.
    const rebinding = await new Promise<number>((resolve, reject) => {
      const req = request(`${server.url}/v1/health`, { headers: { host: 'evil.example:80', authorization: `Bearer ${server.token}` } }, (res) => {
        res.resume()
        resolve(res.statusCode ?? 0)
      })
      req.on('error', reject)
      req.end()
    })
    expect(rebinding).toBe(403)
    const health = await ok('GET', '/v1/health')
    expect(health.ok).toBe(true)
    await expect(startEnvServer({ raw: demo.db.raw, appVersion: 'test', port: 0, host: '0.0.0.0' })).rejects.toThrow(/token is required/)
    await expect(startEnvServer({ raw: demo.db.raw, appVersion: 'test', port: 0, token: 'short' })).rejects.toThrow(/at least 16/)
  })

  it('lists the registered environments with schemas, defaults, reward and credit', async () => {
    const { environments } = await ok('GET', '/v1/environments')
    const names = environments.map((e: Json) => e.name)
    expect(names).toEqual(expect.arrayContaining(['graph-menu', 'stateful', 'free-query', 'transcript']))
    const menu = environments.find((e: Json) => e.name === 'graph-menu')
    expect(menu).toMatchObject({ family: 'harness-g', actionKind: 'menu', protocol: 'sentence-menu', credit: 'snc', reward: { weights: { 'sp.f1': 1 } } })
    expect(menu.defaults.turnLimit).toBe(6)
    expect(environments.find((e: Json) => e.name === 'stateful')).toMatchObject({ credit: 'outcome', reward: { weights: { harness1: 1 } } })
  })

  it('plays a graph-menu episode: messages and menu, steps, then reward, components, per-step SNC credit, metrics; stored as a run', async () => {
    const created = await ok('POST', '/v1/episodes', { environment: 'graph-menu', set: 1, index: 0, seed: 99 })
    expect(created.messages.map((m: Json) => m.role)).toEqual(['system', 'user'])
    expect(created.messages[1].content).toContain(created.question.text)
    expect(created.menu.length).toBeGreaterThan(1)
    expect(created.tools).toBeUndefined()
    const id = created.episode_id
    let menu = created.menu
    let steps = 0
    for (let done = false; !done; steps++) {
      const step = await ok('POST', `/v1/episodes/${id}/step`, { menu_id: pick(menu, steps, 1) })
      expect(step).toMatchObject({ reward: 0, info: { t: steps, valid: true, format_error: null } })
      expect(typeof step.observation).toBe('string')
      done = step.done
      menu = step.menu
      if (!done) expect(menu.length).toBeGreaterThan(0)
    }
    const finished = await ok('POST', `/v1/episodes/${id}/finish`, {})
    expect(finished.per_step_credit).toHaveLength(steps)
    expect(finished.credit_scheme).toBe('snc')
    expect(Object.keys(finished.components)).toEqual(['sp.f1'])
    expect(finished.reward).toBeCloseTo(finished.metrics['sp.f1'], 12)
    expect(finished.metrics.turns).toBe(steps)
    // SNC: the chosen information steps are measured against alternatives, so some credit is non-zero.
    expect(finished.per_step_credit.some((c: Json) => c.total !== 0 || c.gain !== 0)).toBe(true)
    expect(finished.stored_run_id).toBeGreaterThan(0)
    const store = new RunStore(demo.db.raw)
    expect(store.run(finished.stored_run_id)).toMatchObject({ kind: 'eval' })
    expect(store.metricsOf(finished.stored_run_id).length).toBeGreaterThanOrEqual(1)
    // A finished episode is gone.
    expect((await call('POST', `/v1/episodes/${id}/step`, { menu_id: 'A' })).status).toBe(404)
  })

  it('credits a text reply, and an inexact menu_id, with the credit of the item it names, exactly as its menu id', async () => {
    const playAs = async (form: (id: string, t: number) => Json) => {
      const created = await ok('POST', '/v1/episodes', { environment: 'graph-menu', set: 1, index: 1, seed: 11 })
      let menu = created.menu
      for (let t = 0, done = false; !done; t++) {
        const step = await ok('POST', `/v1/episodes/${created.episode_id}/step`, form(pick(menu, t, 2), t))
        expect(step.info.valid).toBe(true)
        done = step.done
        menu = step.menu
      }
      return (await ok('POST', `/v1/episodes/${created.episode_id}/finish`, {})).per_step_credit as Json[]
    }
    const byId = await playAs((id) => ({ menu_id: id }))
    expect(byId.some((c) => c.total !== 0)).toBe(true)
    const wraps = [(id: string) => `I choose ${id}.`, (id: string) => `<think>hmm</think>${id}`, (id: string) => `{"menu_id": "${id}"}`]
    expect(await playAs((id, t) => ({ text: wraps[t % 3]!(id) }))).toEqual(byId)
    expect(await playAs((id) => ({ menu_id: `${id}.` }))).toEqual(byId)
  })

  it('plays Harness-1 with OpenAI tool calls; bad JSON arguments are the episode\'s format error, not a request error', async () => {
    const created = await ok('POST', '/v1/episodes', { environment: 'stateful', question_id: 1, seed: 0, config: { maxTurns: 4 } })
    const tools = created.tools.map((t: Json) => t.function.name)
    expect(created.tools[0]).toMatchObject({ type: 'function', function: { name: expect.any(String), parameters: expect.any(Object) } })
    expect(tools).toEqual(expect.arrayContaining(['search_corpus', 'end_search']))
    const id = created.episode_id
    const search = await ok('POST', `/v1/episodes/${id}/step`, { tool_call: { type: 'function', function: { name: 'search_corpus', arguments: JSON.stringify({ query: created.question.text }) } } })
    expect(search.info.valid).toBe(true)
    expect(search.observation).not.toBe(created.messages[1].content)
    const broken = await ok('POST', `/v1/episodes/${id}/step`, { tool_call: { name: 'search_corpus', arguments: '{"query": "unterminated' } })
    expect(broken.info.valid).toBe(false)
    expect(broken.info.format_error).toEqual(expect.any(String))
    const finished = await ok('POST', `/v1/episodes/${id}/finish`, { answer: 'some answer' })
    expect(finished.answer).toBe('some answer')
    expect(finished.outcome.format_errors).toBe(1)
    expect(finished.outcome.end_reason).toBe('stopped-by-trainer')
    expect(finished.components).toHaveProperty('harness1')
    expect(finished.per_step_credit).toEqual([expect.objectContaining({ total: 0 }), expect.objectContaining({ total: 0 })])
    expect(finished.metrics['reward.total']).toBeCloseTo(finished.reward, 12)
  })

  it('refuses bad requests with 4xx naming the field', async () => {
    const cases: Array<[unknown, number, string]> = [
      [{ environment: 'no-such-env', question_id: 1 }, 400, 'environment'],
      [{ environment: 'graph-menu', question_id: 1, config: { noSuchOption: 1 } }, 400, 'config.noSuchOption'],
      [{ environment: 'graph-menu' }, 400, 'question_id'],
      [{ environment: 'graph-menu', question_id: 1, split: 1, index: 0 }, 400, 'question_id'],
      [{ environment: 'graph-menu', split: 1 }, 400, 'index'],
      [{ environment: 'graph-menu', question_id: 'one' }, 400, 'question_id'],
      [{ environment: 'graph-menu', question_id: 1, seed: -1 }, 400, 'seed'],
      [{ environment: 'graph-menu', question_id: 1, extra: true }, 400, '(body)'],
      [{ environment: 'graph-menu', question_id: 999_999 }, 404, 'question_id'],
      [{ environment: 'graph-menu', split: 1, index: 999_999 }, 404, 'index'],
      [{ environment: 'graph-menu', split: 'no-such-split', index: 0 }, 404, 'split'],
      // The selector: set (id or name) + optional split label + index.
      [{ environment: 'graph-menu', question_id: 1, set: 1, index: 0 }, 400, 'question_id'],
      [{ environment: 'graph-menu', set: 1 }, 400, 'index'],
      [{ environment: 'graph-menu', index: 0 }, 400, 'set'],
      [{ environment: 'graph-menu', set: 1, split: 2, index: 0 }, 400, 'split'],
      [{ environment: 'graph-menu', set: 0, index: 0 }, 400, 'set'],
      [{ environment: 'graph-menu', set: 999, index: 0 }, 404, 'set'],
      [{ environment: 'graph-menu', set: 'no-such-set', index: 0 }, 404, 'set'],
      [{ environment: 'graph-menu', set: 1, split: 'no-such-split', index: 0 }, 404, 'split'],
      [{ environment: 'graph-menu', set: 1, index: 999_999 }, 404, 'index'],
      [{ environment: 'stateful', question_id: 1, credit: 'snc' }, 400, 'credit'],
      [{ environment: 'graph-menu', question_id: 1, credit: 'nope' }, 400, 'credit'],
      [{ environment: 'graph-menu', question_id: 1, reward: { weights: { 'no.term': 1 } } }, 400, 'reward.weights'],
    ]
    for (const [body, status, field] of cases) {
      const r = await call('POST', '/v1/episodes', body)
      expect([r.status, r.json.error?.field], JSON.stringify(body)).toEqual([status, field])
      expect(r.json.error.message.length).toBeGreaterThan(5)
    }
    const notJson = await call('POST', '/v1/episodes', '{"environment": ')
    expect(notJson.status).toBe(400)
    expect(notJson.json.error.message).toMatch(/JSON/)

    const { episode_id: id } = await ok('POST', '/v1/episodes', { environment: 'graph-menu', set: 1, index: 1, seed: 0 })
    for (const [body, field] of [[{}, 'tool_call'], [{ menu_id: 'A', text: 'x' }, 'text'], [{ menu_id: 5 }, 'menu_id'], [{ tool_call: { arguments: {} } }, 'tool_call']] as const) {
      const r = await call('POST', `/v1/episodes/${id}/step`, body)
      expect([r.status, r.json.error.field], JSON.stringify(body)).toEqual([400, field])
    }
    // An id that is not on the menu is the policy's mistake: a recorded format error.
    const wrong = await ok('POST', `/v1/episodes/${id}/step`, { menu_id: 'Z99' })
    expect(wrong.info).toMatchObject({ valid: false, format_error: expect.any(String) })
    expect((await call('POST', '/v1/episodes/not-a-uuid/step', { menu_id: 'A' })).json.error.field).toBe('id')
    expect((await call('POST', `/v1/episodes/${crypto.randomUUID()}/step`, { menu_id: 'A' })).status).toBe(404)
    expect((await call('GET', '/v1/nothing')).status).toBe(404)
    expect(await ok('DELETE', `/v1/episodes/${id}`)).toEqual({ deleted: true })
    expect((await call('DELETE', `/v1/episodes/${id}`)).status).toBe(404)
    const stats = await ok('GET', '/v1/stats')
    expect(stats.errors).toBeGreaterThanOrEqual(cases.length + 8)
    expect(stats.deleted).toBeGreaterThanOrEqual(1)
  })

  it('times idle episodes out and drops them (a clock the test moves)', async () => {
    let clock = 1_000_000
    const sessions = await EpisodeRouter.start({ raw: demo.db.raw, appVersion: 'test', idleTimeoutMs: 60_000, now: () => clock, workers: 0 })
    const Created = z.looseObject({ episode_id: z.string(), menu: z.array(z.object({ id: z.string() })) })
    const a = (await sessions.create({ environment: 'graph-menu', set: 1, index: 0, seed: 0, config: {} })).parse(Created)
    const b = (await sessions.create({ environment: 'graph-menu', set: 1, index: 1, seed: 0, config: {} })).parse(Created)
    clock += 30_000
    await sessions.step(b.episode_id, { menu_id: b.menu[0]!.id })
    clock += 40_000
    // a has been idle 70 s, b 40 s.
    expect(sessions.sweep()).toBe(1)
    expect(sessions.counters()).toMatchObject({ open: 1, expired: 1 })
    await expect(sessions.step(a.episode_id, { menu_id: 'A' })).rejects.toMatchObject({ status: 404, field: 'id' })
    clock += 61_000
    await expect(sessions.step(b.episode_id, { menu_id: 'A' })).rejects.toThrow(/timed out/)
    expect(sessions.counters()).toMatchObject({ open: 0, expired: 2 })
    await sessions.close()
  })

  it('keeps 64 concurrent episodes independent: each equals the same episode played alone', async () => {
    const episodes = Array.from({ length: 64 }, (_, i) => ({ question: i % 16, seed: Math.floor(i / 16) }))
    const repeatsBefore = (await ok('GET', '/v1/stats')).storeRepeats as number
    const alone: Json[] = []
    for (const e of episodes.slice(0, 16)) alone.push(await play(e.question, e.seed))
    const together = await Promise.all(episodes.map((e) => play(e.question, e.seed)))
    // The first 16 again, concurrently, equal their solo runs exactly; every episode is self-consistent.
    for (let i = 0; i < 16; i++) expect(together[i]).toEqual(alone[i])
    for (const t of together) expect(t.credit).toHaveLength(t.seen.length - 1)
    // Different questions really were different episodes.
    expect(new Set(together.map((t) => t.seen[0])).size).toBeGreaterThan(8)
    const stats = await ok('GET', '/v1/stats')
    expect(stats.open).toBe(0)
    // Stored once per question and seed: the 16 repeats of solo episodes were counted, not stored twice.
    expect(stats.storeRepeats - repeatsBefore).toBe(16)
  }, 600_000)
})
