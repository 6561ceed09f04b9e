/**
 * The clients of bench/env-server.ts: one deterministic policy per environment and the cell runner, over
 * any driver (in-process EpisodeSessions, or HTTP). The HTTP clients run in a worker thread
 * (env-server-worker.ts), as a trainer runs in its own process: their allocations and garbage collection
 * then do not pause the server's event loop.
 */
import { Agent, request } from 'node:http'
import type { StepBody } from '../main/env-server/wire'

export type Env = 'graph-menu' | 'stateful'
export type Json = Record<string, any>

/** Driver: create / step / finish, over HTTP or in-process. Both return the parsed response. */
export interface Driver {
  create(body: Json): Promise<Json>
  step(id: string, body: StepBody): Promise<Json>
  finish(id: string): Promise<Json>
}

/** The same actions whatever the transport: graph-menu picks by turn from the menu; stateful searches twice and ends. */
export function nextAction(env: Env, t: number, state: Json, question: string): StepBody {
  if (env === 'graph-menu') {
    const menu = state.menu as { id: string; type: string }[]
    const info = menu.filter((m) => m.type === 'SELECT' || m.type === 'LOOKUP')
    if (t >= 3 || info.length === 0) return { menu_id: menu.find((m) => m.type === 'ANSWER')?.id ?? menu[0]!.id }
    return { menu_id: info[t % info.length]!.id }
  }
  if (t === 0) return { tool_call: { name: 'search_corpus', arguments: { query: question } } }
  if (t === 1) return { tool_call: { name: 'search_corpus', arguments: { query: question.split(' ').slice(0, 4).join(' ') } } }
  return { tool_call: { name: 'end_search', arguments: { reasoning: 'bench' } } }
}

export interface Cell {
  episodes: number
  lost: number
  errors: number
  seconds: number
  steps: number[]
}

/** One cell's workload: `target` episodes (at most `seconds`) from `clients` clients at once. */
export interface CellTask {
  env: Env
  clients: number
  /** Questions in the set: episode n asks question floor((from + n) / group) mod questions. */
  questions: number
  target: number
  seconds: number
  /** Rollouts of each question in a row, as a GRPO trainer sends a group (default 1). */
  group?: number
  /** Episodes this peer started before: a round goes on through the set rather than replaying its last one. */
  from?: number
}

export async function runCell(driver: Driver, { env, clients, questions, target, seconds, group = 1, from = 0 }: CellTask): Promise<Cell> {
  const deadline = performance.now() + seconds * 1000
  const steps: number[] = []
  let started = 0
  let finished = 0
  let errors = 0
  const t0 = performance.now()
  const client = async (c: number) => {
    while (started < target && performance.now() < deadline) {
      const n = started++
      try {
        const created = await driver.create({ environment: env, set: 1, index: Math.floor((from + n) / group) % questions, seed: c })
        let state: Json = created
        for (let t = 0; !state.done; t++) {
          const s0 = performance.now()
          const out = await driver.step(created.episode_id, nextAction(env, t, state, created.question.text))
          steps.push(performance.now() - s0)
          state = { ...out, menu: out.menu ?? state.menu }
        }
        await driver.finish(created.episode_id)
        finished++
      } catch (err) {
        errors++
        if (errors <= 3) console.error(`  ${env} x${clients}: ${(err as Error).message}${(err as Error).cause ? ` (${String((err as { cause?: { code?: string; message?: string } }).cause?.code ?? (err as { cause?: { message?: string } }).cause?.message)})` : ""}`)
      }
    }
  }
  await Promise.all(Array.from({ length: clients }, (_, c) => client(c)))
  return { episodes: finished, lost: started - finished, errors, seconds: (performance.now() - t0) / 1000, steps }
}


/** One JSON POST to `path`, answered with the parsed body; a non-200 answer rejects. */
export type HttpCall = (path: string, body: unknown) => Promise<Json>

/** Keep-alive HTTP/1.1 with node:http (lighter than fetch's web streams), one socket per concurrent client. */
export function httpCall(url: string, token: string): HttpCall {
  const agent = new Agent({ keepAlive: true, maxSockets: Infinity, keepAliveMsecs: 60_000 })
  const { hostname, port } = new URL(url)
  // A keep-alive socket the server closed as the request went out resets at once: sent again, once (Node's documented pattern for reused sockets).
  const call = (path: string, body: unknown, retry = true): Promise<Json> =>
    new Promise<Json>((resolve, reject) => {
      const data = JSON.stringify(body)
      const req = request(
        { host: hostname, port, path, method: 'POST', agent, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) } },
        (res) => {
          let text = ''
          res.setEncoding('utf8')
          res.on('data', (c: string) => (text += c))
          res.on('end', () => {
            const json = JSON.parse(text) as Json
            if (res.statusCode !== 200) reject(new Error(`${path} -> ${res.statusCode} ${json.error?.message}`))
            else resolve(json)
          })
        },
      )
      req.on('error', (err: NodeJS.ErrnoException) => {
        if (retry && req.reusedSocket && err.code === 'ECONNRESET') call(path, body, false).then(resolve, reject)
        else reject(err)
      })
      req.end(data)
    })
  return (path, body) => call(path, body)
}

/** The episode routes over one client's calls. */
export function httpDriver(call: HttpCall): Driver {
  return { create: (b) => call('/v1/episodes', b), step: (id, b) => call(`/v1/episodes/${id}/step`, b), finish: (id) => call(`/v1/episodes/${id}/finish`, {}) }
}

/** `count` requests one after another (one client) with a step's body: each round trip's milliseconds. */
export async function roundTrips(call: HttpCall, path: string, count: number): Promise<number[]> {
  const times: number[] = []
  for (let i = 0; i < count; i++) {
    const t0 = performance.now()
    await call(path, { menu_id: 'S1' })
    times.push(performance.now() - t0)
  }
  return times
}
