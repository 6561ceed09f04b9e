/**
 * Clients connect as they are: OpenEnv's WebSocket session protocol at /ws and its HTTP routes and bodies
 * (as meta-pytorch/OpenEnv's server defines them: openenv.ts), spoken by a Node WebSocket client (ws) and
 * by a Python client written here the way OpenEnv's EnvClient talks (the `websockets` package, when the
 * interpreter has it); Search-R1's retrieval client and verl's search tool requests, sent exactly as they
 * send them (no token, topk null), against a server started with `open: ['retrieve', 'openenv']`.
 */
import { execFile } from 'node:child_process'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import WebSocket from 'ws'
import { startEnvServer, type EnvServer } from '../../main/env-server'
import { openDemoWorkspace, type DemoWorkspace } from '../helpers/corpus'

type Json = Record<string, any>

const PYTHON = process.env.HARNESS_LAB_PYTHON || 'python3'
function python(code: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) =>
    execFile(PYTHON, ['-c', code, ...args], { timeout: 300_000, maxBuffer: 1 << 24, env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' } }, (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr })),
  )
}
const hasPython = (await python('print(1)', [])).code === 0
const hasWebsockets = hasPython && (await python('import websockets.asyncio.client', [])).code === 0
if (!hasPython) console.warn('env-server-openenv: no python3: skipping the Python clients')
else if (!hasWebsockets) console.warn(`env-server-openenv: ${PYTHON} has no websockets package: skipping the Python OpenEnv client (the Node client still runs; .ci/run's venv has it)`)

let demo: DemoWorkspace
let locked: EnvServer
let open: EnvServer

beforeAll(async () => {
  demo = await openDemoWorkspace(5, 0.3)
  locked = await startEnvServer({ raw: demo.db.raw, appVersion: 'test', port: 0, workers: 0 })
  open = await startEnvServer({ raw: demo.db.raw, appVersion: 'test', port: 0, workers: 1, open: ['retrieve', 'openenv'] })
}, 600_000)
afterAll(async () => {
  await locked?.close()
  await open?.close()
  await demo?.close()
})

/** A WebSocket client that answers message by message, as OpenEnv's EnvClient does (send, then wait for the reply). */
async function connect(server: EnvServer, headers: Record<string, string> = {}): Promise<{ send(message: unknown): Promise<Json>; close(): Promise<number> }> {
  const ws = new WebSocket(`${server.url.replace(/^http/, 'ws')}/ws`, { headers })
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve())
    ws.once('error', reject)
    ws.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)))
  })
  return {
    send: (message) =>
      new Promise((resolve) => {
        ws.once('message', (data) => resolve(JSON.parse(String(data)) as Json))
        ws.send(typeof message === 'string' ? message : JSON.stringify(message))
      }),
    close: () => new Promise((resolve) => (ws.once('close', (code) => resolve(code)), ws.send(JSON.stringify({ type: 'close' })))),
  }
}

const post = async (server: EnvServer, path: string, body: unknown, headers: Record<string, string> = {}) => {
  const res = await fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) })
  return { status: res.status, json: (await res.json()) as Json }
}

describe('OpenEnv WebSocket session at /ws', () => {
  it('needs the token unless the server opens OpenEnv routes (loopback only), and never from a web page', async () => {
    await expect(connect(locked)).rejects.toThrow(/401/)
    const authorised = await connect(locked, { authorization: `Bearer ${locked.token}` })
    expect((await authorised.send({ type: 'state' })).type).toBe('state')
    expect(await authorised.close()).toBe(1000)
    await expect(connect(open, { origin: 'http://evil.example' })).rejects.toThrow(/403/)
    expect((await fetch(`${open.url}/v1/health`)).status).toBe(401)
    await expect(startEnvServer({ raw: demo.db.raw, appVersion: 'test', port: 0, host: '0.0.0.0', token: 'a-token-of-twenty-chars', open: ['openenv'] })).rejects.toThrow(/loopback only/)
  })

  it('plays an episode: reset with the question key as extra data, steps as model text, state, the ending step scored; errors in OpenEnv codes', async () => {
    const c = await connect(open)
    expect(await c.send('{not json')).toMatchObject({ type: 'error', data: { code: 'INVALID_JSON' } })
    expect(await c.send({ type: 'dance' })).toMatchObject({ type: 'error', data: { code: 'UNKNOWN_TYPE' } })
    expect(await c.send({ type: 'step', data: { text: 'S1' } })).toMatchObject({ type: 'error', data: { code: 'SESSION_ERROR' } })
    expect(await c.send({ type: 'reset', data: { environment: 'graph-menu', set: 1, index: 99_999 } })).toMatchObject({ type: 'error', data: { code: 'EXECUTION_ERROR', field: 'index' } })
    expect(await c.send({ type: 'reset', data: { seed: -1 } })).toMatchObject({ type: 'error', data: { code: 'VALIDATION_ERROR', field: 'data.seed' } })
    const reset = await c.send({ type: 'reset', data: { seed: 7, episode_id: 'run-1/ep-1', environment: 'graph-menu', set: 1, index: 1 } })
    expect(reset).toMatchObject({ type: 'observation', data: { reward: null, done: false, observation: { episode_id: 'run-1/ep-1', server_episode_id: expect.any(String), menu: expect.any(Array), messages: expect.any(Array) } } })
    expect(await c.send({ type: 'state' })).toMatchObject({ type: 'state', data: { episode_id: 'run-1/ep-1', step_count: 0, environment: 'graph-menu' } })
    expect(await c.send({ type: 'step', data: { menu_id: 'S1', text: 'S1' } })).toMatchObject({ type: 'error', data: { code: 'VALIDATION_ERROR' } })
    let menu = reset.data.observation.menu as Json[]
    let last: Json = reset
    for (let t = 0; !last.data.done; t++) {
      const item = t >= 2 ? menu.find((m) => m.type === 'ANSWER')! : (menu.find((m) => m.type === 'SELECT') ?? menu[0]!)
      // OpenEnv's Action model always dumps `metadata`; the final answer may ride in the action.
      last = await c.send({ type: 'step', data: { text: `I choose ${item.id}.`, metadata: {}, ...(item.type === 'ANSWER' ? { answer: 'some answer' } : {}) } })
      expect(last.type).toBe('observation')
      if (!last.data.done) menu = last.data.observation.menu
      expect(t).toBeLessThan(10)
    }
    expect(last.data.observation.result).toMatchObject({ credit_scheme: 'snc', per_step_credit: expect.any(Array), answer: 'some answer' })
    expect(last.data.reward).toBe(last.data.observation.result.reward)
    // The scored episode's state stays readable, under the client's name, until the next reset.
    const ended = await c.send({ type: 'state' })
    expect(ended).toEqual({ type: 'state', data: { episode_id: 'run-1/ep-1', server_episode_id: reset.data.observation.server_episode_id, environment: 'graph-menu', step_count: expect.any(Number), done: true } })
    expect(ended.data.step_count).toBeGreaterThan(0)
    expect(last.data.observation.episode_id).toBe('run-1/ep-1')
    // A bare reset (OpenEnv's reset(seed=...)): graph-menu on question `seed` of the first set.
    const bare = await c.send({ type: 'reset', data: { seed: 1 } })
    expect(bare.data.observation.question.id).toBe(reset.data.observation.question.id)
    expect(await c.send({ type: 'state' })).toMatchObject({ type: 'state', data: { episode_id: bare.data.observation.episode_id, step_count: 0, done: false } })
    expect(open.sessions.counters().open).toBe(1)
    expect(await c.close()).toBe(1000)
    // The server drops the session when it sees the close, after the client's close resolves: poll for it.
    await vi.waitFor(() => expect(open.sessions.counters().open).toBe(0))
  })
})

describe('OpenEnv HTTP routes and bodies', () => {
  it('/reset {seed, episode_id}, /step {action, timeout_s, request_id} naming the episode, /state, /schema, /health, /metadata', async () => {
    const reset = await post(open, '/reset', { seed: 2, episode_id: 'http-episode-1' })
    expect(reset.status).toBe(200)
    // The client's episode_id names the episode in the answer; the server's id rides beside it.
    expect(reset.json).toMatchObject({ reward: null, done: false, observation: { episode_id: 'http-episode-1', server_episode_id: expect.any(String) } })
    expect((await post(open, '/reset', { seed: 2, episode_id: 'http-episode-1' })).json.error.field).toBe('episode_id')
    const state = (await (await fetch(`${open.url}/state?episode_id=http-episode-1`)).json()) as Json
    expect(state).toMatchObject({ episode_id: 'http-episode-1', step_count: 0, done: false, server_episode_id: reset.json.observation.server_episode_id })
    const menu = reset.json.observation.menu as Json[]
    const step = await post(open, '/step', { action: { text: menu[0]!.id, metadata: {} }, timeout_s: 30, request_id: 'r1', episode_id: 'http-episode-1' })
    expect(step.status).toBe(200)
    expect(step.json).toMatchObject({ reward: expect.any(Number), done: expect.any(Boolean), observation: { info: { valid: true } } })
    expect((await post(open, '/step', { action: { menu_id: 'A' } })).json.error.field).toBe('episode_id')
    expect((await post(open, '/step', { action: { menu_id: 'A' }, episode_id: 'x', timeout_s: -1 })).json.error.field).toBe('timeout_s')
    const unknown = await post(open, '/step', { action: { nope: 1 }, episode_id: 'http-episode-1' })
    expect(unknown.json.error).toMatchObject({ field: 'action', message: expect.stringMatching(/nope/) })
    const schema = (await (await fetch(`${open.url}/schema`)).json()) as Json
    expect(Object.keys(schema).sort()).toEqual(['action', 'observation', 'state'])
    expect(await (await fetch(`${open.url}/health`)).json()).toEqual({ status: 'healthy' })
    const metadata = (await (await fetch(`${open.url}/metadata`)).json()) as Json
    expect(Object.keys(metadata).every((k) => ['name', 'description', 'readme_content', 'version', 'author', 'documentation_url'].includes(k))).toBe(true)
    expect(metadata).toMatchObject({ name: 'harness-lab', version: 'test' })
    const v1 = (await (await fetch(`${open.url}/v1/schema`, { headers: { authorization: `Bearer ${open.token}` } })).json()) as Json
    expect(Object.keys(v1.reset.properties)).toEqual(expect.arrayContaining(['environment', 'question_id', 'set', 'split', 'index']))
  })
})

// A client written the way OpenEnv's EnvClient talks (src/openenv/core/env_client.py): websockets.asyncio.client.connect to
// <base>/ws with no headers, {"type": "reset", "data": kwargs}, {"type": "step", "data": action}, {"type": "state"}, {"type": "close"};
// a reply of type "error" raises.
const OPENENV_CLIENT = `
import asyncio, json, sys
from websockets.asyncio.client import connect

async def main(base):
    async with connect(base.replace("http://", "ws://") + "/ws", proxy=None) as ws:
        async def call(message):
            await ws.send(json.dumps(message))
            reply = json.loads(await asyncio.wait_for(ws.recv(), timeout=60))
            if reply.get("type") == "error":
                raise RuntimeError(f"Server error: {reply['data'].get('message')} (code: {reply['data'].get('code')})")
            return reply["data"]
        result = await call({"type": "reset", "data": {"seed": 3, "environment": "stateful", "set": 1, "index": 0}})
        tools = [t["function"]["name"] for t in result["observation"]["tools"]]
        question = result["observation"]["question"]["text"]
        steps = []
        for call_ in ({"name": "search_corpus", "arguments": {"query": question}}, {"name": "end_search", "arguments": {"reasoning": "enough"}}):
            result = await call({"type": "step", "data": {"tool_call": call_}})
            steps.append({"done": result["done"], "reward": result["reward"]})
            if result["done"]:
                break
        state = await call({"type": "state"})
        await ws.send(json.dumps({"type": "close"}))
        print(json.dumps({"tools": tools, "steps": steps, "result": result["observation"].get("result"), "state": state}))

asyncio.run(main(sys.argv[1]))
`

// Search-R1's retrieval client (search_r1/llm_agent/generation.py: requests.post(url, json={queries, topk, return_scores: True}),
// then the title as the first line of contents) and verl's search tool (verl/tools/utils/search_r1_like_utils.py: the same body
// with Content-Type and Accept: application/json); both send no token. Standard library only.
const RETRIEVAL_CLIENTS = `
import json, sys, urllib.request
url, question = sys.argv[1] + "/retrieve", sys.argv[2]
def post(payload, headers):
    req = urllib.request.Request(url, data=json.dumps(payload).encode(), method="POST", headers=headers)
    with urllib.request.urlopen(req, timeout=30) as res:
        return json.loads(res.read())
search_r1 = post({"queries": [question, "river"], "topk": 3, "return_scores": True}, {"Content-Type": "application/json"})
passages = []
for doc_item in search_r1["result"][0]:
    content = doc_item["document"]["contents"]
    passages.append({"title": content.split("\\n")[0], "text": "\\n".join(content.split("\\n")[1:]), "score": doc_item["score"]})
verl = post({"queries": [question], "topk": None, "return_scores": True}, {"Content-Type": "application/json", "Accept": "application/json"})
print(json.dumps({"queries": len(search_r1["result"]), "passages": passages, "verl_hits": len(verl["result"][0])}))
`

describe('clients as they are', () => {
  it.skipIf(!hasWebsockets)("a Python client speaking OpenEnv's WebSocket protocol plays a stateful episode", { timeout: 300_000 }, async () => {
    const r = await python(OPENENV_CLIENT, [open.url])
    expect(r.stderr).toBe('')
    const out = JSON.parse(r.stdout) as Json
    expect(out.tools).toEqual(expect.arrayContaining(['search_corpus', 'end_search']))
    expect(out.steps.at(-1).done).toBe(true)
    expect(out.result).toMatchObject({ outcome: { end_reason: expect.any(String) }, reward: out.steps.at(-1).reward })
    // The scored episode's state stays readable until the session's next reset.
    expect(out.state).toMatchObject({ episode_id: expect.any(String), environment: 'stateful', step_count: out.steps.length, done: true })
  })

  it.skipIf(!hasPython)("Search-R1's retrieval client and verl's search tool reach /retrieve with no token, topk null accepted", { timeout: 300_000 }, async () => {
    const r = await python(RETRIEVAL_CLIENTS, [open.url, demo.questions[0]!.question])
    expect(r.stderr).toBe('')
    const out = JSON.parse(r.stdout) as Json
    expect(out.queries).toBe(2)
    expect(out.passages.length).toBeGreaterThan(0)
    for (const p of out.passages) expect(p.title).toMatch(/^".+"$/)
    expect(out.verl_hits).toBe(Math.min(3, out.passages.length))
    // Without the open mode the same request is refused.
    expect((await post(locked, '/retrieve', { queries: ['x'], topk: null })).status).toBe(401)
    expect((await post(open, '/retrieve', { queries: ['x'] }, { origin: 'https://evil.example' })).status).toBe(403)
  })
})
