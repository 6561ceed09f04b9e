/**
 * Instructions from the server: each protocol declares its instructions for a text policy and for a tool-calling one
 * (main/harness/protocols.ts), and the environment server serves both: GET /v1/environments lists them, the create
 * option `instructions: "tools"` (POST /v1/episodes, OpenEnv's /reset and /ws reset data) gives an episode whose system
 * prompt and observations are the tool-calling ones, and a menu is then acted on through the `choose(menu_id)` tool the
 * reply lists. The README's TRL + OpenEnv example (resources/trainers/trl/README.md), run as written against /ws
 * through openenv-core's GenericEnvClient (a stand-in written from its documented API where openenv-core is not
 * installed), reads only the server's tool-calling words.
 */
import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { startEnvServer, type EnvServer } from '../../main/env-server'
import { environmentNames, MENU_SYSTEM_PROMPT } from '../../main/harness'
import { openDemoWorkspace, type DemoWorkspace } from '../helpers/corpus'

type Json = Record<string, any>

const PYTHON = process.env.HARNESS_LAB_PYTHON || 'python3'
const STANDINS = fileURLToPath(new URL('../python/standins', import.meta.url))
const README = fileURLToPath(new URL('../../resources/trainers/trl/README.md', import.meta.url))
function python(code: string, args: string[], path: string[] = []): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) =>
    execFile(PYTHON, ['-c', code, ...args], { timeout: 300_000, maxBuffer: 1 << 24, env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1', PYTHONPATH: path.join(':') } }, (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr })),
  )
}
const hasWebsockets = (await python('import websockets.asyncio.client', [])).code === 0
if (!hasWebsockets) console.warn(`env-server-instructions: ${PYTHON} has no websockets package: skipping the README's TRL + OpenEnv example (.ci/run's venv has it)`)

let demo: DemoWorkspace
let server: EnvServer

beforeAll(async () => {
  demo = await openDemoWorkspace(5, 0.3)
  server = await startEnvServer({ raw: demo.db.raw, appVersion: 'test', port: 0, workers: 0, open: ['openenv'] })
}, 600_000)
afterAll(async () => {
  await server?.close()
  await demo?.close()
})

const call = async (method: string, path: string, body?: unknown) => {
  const res = await fetch(`${server.url}${path}`, { method, headers: { authorization: `Bearer ${server.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, body: body === undefined ? undefined : JSON.stringify(body) })
  return { status: res.status, json: (await res.json()) as Json }
}
const TEXT_ONLY = /reply with exactly one|and nothing else|single JSON object/i

describe('instructions for text and tool-calling policies', () => {
  it('the catalogue serves both for every environment; the text ones are the prompt the app and the SFT export use', async () => {
    const { json } = await call('GET', '/v1/environments')
    expect(json.environments.map((e: Json) => e.name).sort()).toEqual(environmentNames())
    for (const e of json.environments as Json[]) {
      expect(e.instructions.text, e.name).toBe(e.systemPrompt)
      expect(e.instructions.tools, e.name).not.toBe(e.instructions.text)
      expect(e.instructions.tools, e.name).toMatch(/call/)
      expect(e.instructions.tools, e.name).not.toMatch(TEXT_ONLY)
    }
    const menu = (json.environments as Json[]).find((e) => e.name === 'graph-menu')!
    expect(menu.instructions.text).toBe(MENU_SYSTEM_PROMPT)
    expect(menu.menuTool.function).toMatchObject({ name: 'choose', parameters: { required: ['menu_id'] } })
  })

  it('graph-menu with instructions "tools": the choose tool, prompts that ask for it, and a choose call steps as its menu id would', async () => {
    const key = { environment: 'graph-menu', set: 1, index: 0, seed: 2 }
    const text = (await call('POST', '/v1/episodes', key)).json
    const tools = (await call('POST', '/v1/episodes', { ...key, instructions: 'tools' })).json
    expect([text.instructions, tools.instructions]).toEqual(['text', 'tools'])
    expect(text.tools).toBeUndefined()
    expect(tools.tools.map((t: Json) => t.function.name)).toEqual(['choose'])
    expect(tools.menu).toEqual(text.menu)
    expect(tools.messages[0].content).toMatch(/calling the tool choose/)
    expect(tools.messages[1].content).toContain('Menu: call choose(menu_id) with exactly one id.')
    for (const m of tools.messages) expect(m.content).not.toMatch(TEXT_ONLY)
    // The observation is the same state, only the menu's cue differs.
    expect(tools.messages[1].content.replace('call choose(menu_id) with', 'reply with')).toBe(text.messages[1].content)

    const id = text.menu.find((m: Json) => m.type === 'SELECT').id
    const byId = (await call('POST', `/v1/episodes/${text.episode_id}/step`, { menu_id: id })).json
    const byCall = (await call('POST', `/v1/episodes/${tools.episode_id}/step`, { tool_call: { name: 'choose', arguments: JSON.stringify({ menu_id: id }) } })).json
    expect(byCall.info.valid).toBe(true)
    expect(byCall.info.summary).toBe(byId.info.summary)
    expect(byCall.observation).toContain('Menu: call choose(menu_id) with exactly one id.')
    expect(byCall.observation.replace('call choose(menu_id) with', 'reply with')).toBe(byId.observation)
    // An id the menu does not have is the menu's format error, as a bare reply would be.
    const bad = (await call('POST', `/v1/episodes/${tools.episode_id}/step`, { tool_call: { name: 'choose', arguments: { menu_id: 'Z99' } } })).json
    expect(bad.info.valid).toBe(false)
    for (const e of [text, tools]) await call('DELETE', `/v1/episodes/${e.episode_id}`)
  })

  it('stateful with instructions "tools": the system prompt asks for a call and leaves the tools to the chat template', async () => {
    const key = { environment: 'stateful', set: 1, index: 0 }
    const text = (await call('POST', '/v1/episodes', key)).json
    const tools = (await call('POST', '/v1/episodes', { ...key, instructions: 'tools' })).json
    expect(text.messages[0].content).toContain('search_corpus')
    expect(tools.messages[0].content).not.toContain('search_corpus')
    expect(tools.messages[0].content).not.toMatch(TEXT_ONLY)
    expect(tools.tools).toEqual(text.tools)
    expect(tools.messages[1].content).toBe(text.messages[1].content)
    for (const e of [text, tools]) await call('DELETE', `/v1/episodes/${e.episode_id}`)
    const refused = await call('POST', '/v1/episodes', { ...key, instructions: 'json' })
    expect(refused.status).toBe(400)
    expect(refused.json.error.field).toBe('instructions')
  })

  it("OpenEnv's /ws takes the option with the reset data", async () => {
    const ws = new WebSocket(`${server.url.replace(/^http/, 'ws')}/ws`)
    await new Promise((resolve, reject) => (ws.once('open', resolve), ws.once('error', reject)))
    const send = (m: unknown) => new Promise<Json>((resolve) => (ws.once('message', (d) => resolve(JSON.parse(String(d)) as Json)), ws.send(JSON.stringify(m))))
    const reset = await send({ type: 'reset', data: { environment: 'graph-menu', set: 1, index: 0, instructions: 'tools' } })
    expect(reset.data.observation.messages[1].content).toContain('Menu: call choose(menu_id)')
    const id = reset.data.observation.menu[0].id
    const step = await send({ type: 'step', data: { tool_call: { name: 'choose', arguments: { menu_id: id } } } })
    expect(step.data.observation.info.valid).toBe(true)
    if (!step.data.done) expect(step.data.observation.text).toContain('Menu: call choose(menu_id)')
    ws.close()
  })

  it.skipIf(!hasWebsockets)("the README's TRL + OpenEnv example plays graph-menu episodes over /ws with the server's tool-calling words", { timeout: 300_000 }, async () => {
    // The README's first python block under its OpenEnv heading: the environment class and the reward function.
    const section = readFileSync(README, 'utf8').split(/^## /m).find((s) => s.startsWith("TRL's own OpenEnv pattern"))
    expect(section, "resources/trainers/trl/README.md has a section \"TRL's own OpenEnv pattern\"").toBeDefined()
    const example = /```python\n([\s\S]*?)```/.exec(section!)![1]!
    const driver = `
import json, re, sys
URL = sys.argv[1]
ns = {}
exec(compile(sys.argv[2].replace('"http://127.0.0.1:8765"', repr(URL)), "README", "exec"), ns)
cls = [v for k, v in ns.items() if isinstance(v, type) and hasattr(v, "choose")][0]
envs, seen = [], []
for qid in json.loads(sys.argv[3]):
    env = cls()
    first = env.reset(prompt=[{"role": "user", "content": ""}], question_id=qid)
    seen.append(first)
    ids = re.findall(r"^\\s{2}(S\\d+)\\s{2}", first, re.M)
    seen.append(env.choose(menu_id=ids[0]))
    seen.append(env.choose(menu_id="A"))
    try:
        env.choose(menu_id="A")
        after = "accepted"
    except ValueError as e:
        after = "refused"
    envs.append(env)
print(json.dumps({"rewards": ns["reward_func"](environments=envs, completions=[None] * len(envs)), "seen": seen, "after": after}))
`
    const ids = demo.questions.slice(0, 3).map((q) => Number(q.id))
    const r = await python(driver, [server.url, example, JSON.stringify(ids)], [STANDINS])
    expect(r.stderr).toBe('')
    const out = JSON.parse(r.stdout) as { rewards: number[]; seen: string[]; after: string }
    expect(out.rewards).toHaveLength(3)
    for (const x of out.rewards) expect(typeof x).toBe('number')
    expect(out.rewards.some((x) => x > 0)).toBe(true)
    expect(out.after).toBe('refused')
    expect(out.seen[0]).toMatch(/calling the tool choose/)
    for (const text of out.seen) expect(text).not.toMatch(TEXT_ONLY)
  })
})
