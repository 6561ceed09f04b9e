/**
 * The standard-library Python client (resources/trainers/harness_lab_client.py) run by the system python3
 * against a live environment server over a real demo workspace: episodes on the menu and with tools,
 * the server's 4xx errors surfacing as HarnessLabError with the field, and close() dropping an episode.
 */
import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startEnvServer, type EnvServer } from '../../main/env-server'
import { openDemoWorkspace, type DemoWorkspace } from '../helpers/corpus'

const TRAINERS = fileURLToPath(new URL('../../resources/trainers', import.meta.url))

function python(code: string, env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('python3', ['-c', code], { cwd: TRAINERS, env: { ...process.env, ...env, PYTHONDONTWRITEBYTECODE: '1' }, timeout: 600_000 }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    )
  })
}

const pythonVersion = await new Promise<string | null>((resolve) => execFile('python3', ['--version'], (err, out) => resolve(err ? null : out.trim())))
if (!pythonVersion) console.warn('env-server-python: no python3 on this machine: skipping the Python client test')

describe.skipIf(!pythonVersion)(`the Python client (${pythonVersion ?? 'no python3'}) against a live server`, () => {
  let demo: DemoWorkspace
  let server: EnvServer
  beforeAll(async () => {
    demo = await openDemoWorkspace(5, 0.5)
    server = await startEnvServer({ raw: demo.db.raw, appVersion: 'test', port: 0 })
  }, 600_000)
  afterAll(async () => {
    await server?.close()
    await demo?.close()
  })

  it('plays graph-menu and stateful episodes, reports errors with their field, and drops a closed episode', async () => {
    const script = String.raw`
import json
from harness_lab_client import HarnessLabClient, HarnessLabError
c = HarnessLabClient()
out = {"health": c.health()["ok"], "envs": sorted(e["name"] for e in c.environments())}
ep = c.episode("graph-menu", set=1, index=2, seed=1, group_id="g1")
first = ep.reset()
out["roles"] = [m["role"] for m in ep.messages]
while not ep.done:
    info = [m for m in ep.menu if m["type"] in ("SELECT", "LOOKUP")]
    ep.step(menu_id=(info[0] if info and len(ep.observations) < 3 else [m for m in ep.menu if m["type"] == "ANSWER"][0])["id"])
res = ep.finish()
out["menu"] = {"steps": len(ep.observations) - 1, "credit": len(res["per_step_credit"]), "reward": res["reward"], "sp_f1": res["metrics"]["sp.f1"], "group": res["group_id"]}
h1 = c.episode("stateful", question_id=1, seed=0)
created = h1.reset()
out["tools"] = sorted(t["function"]["name"] for t in h1.tools)
s = h1.step({"type": "function", "function": {"name": "search_corpus", "arguments": json.dumps({"query": created["question"]["text"]})}})
bad = h1.step({"name": "read_document", "arguments": {"doc_id": "not an id"}})
done = h1.step({"name": "end_search", "arguments": {"reasoning": "enough"}})
r = h1.finish(answer="an answer")
out["h1"] = {"valid": [s["info"]["valid"], bad["info"]["valid"], done["info"]["valid"]], "done": done["done"], "answer": r["answer"], "components": sorted(r["components"]), "format_errors": r["outcome"]["format_errors"]}
try:
    c.create("graph-menu", question_id=1, config={"noSuchOption": 1})
except HarnessLabError as e:
    out["error"] = [e.status, e.field]
gone = c.episode("graph-menu", question_id=1)
gone.reset()
gid = gone.id
gone.close()
try:
    c.step(gid, menu_id="A")
except HarnessLabError as e:
    out["closed"] = e.status
out["stats"] = c.stats()
print(json.dumps(out))
`
    const r = await python(script, { HARNESS_LAB_URL: server.url, HARNESS_LAB_TOKEN: server.token })
    expect(r.stderr).toBe('')
    const out = JSON.parse(r.stdout) as Record<string, any>
    expect(out.health).toBe(true)
    expect(out.envs).toEqual(expect.arrayContaining(['graph-menu', 'stateful']))
    expect(out.roles).toEqual(['system', 'user'])
    expect(out.menu.steps).toBeGreaterThan(0)
    expect(out.menu.credit).toBe(out.menu.steps)
    expect(out.menu.reward).toBeCloseTo(out.menu.sp_f1, 12)
    expect(out.menu.group).toBe('g1')
    expect(out.tools).toEqual(expect.arrayContaining(['search_corpus', 'end_search', 'curate']))
    expect(out.h1).toMatchObject({ valid: [true, false, true], done: true, answer: 'an answer', components: ['harness1'], format_errors: 1 })
    expect(out.error).toEqual([400, 'config.noSuchOption'])
    expect(out.closed).toBe(404)
    expect(out.stats).toMatchObject({ open: 0, finished: 2, deleted: 1 })
  }, 600_000)

  it('the framework glue files are valid Python (their frameworks are not installed here, so they are compiled, not run)', async () => {
    const files = ['trl/harness_lab_trl.py', 'verl/harness_lab_verl.py', 'openrlhf/harness_lab_openrlhf.py']
    const r = await python(`import ast, sys\nfor f in ${JSON.stringify(files)}:\n    ast.parse(open(f).read(), f)\nprint("ok")`, {})
    expect([r.stdout.trim(), r.stderr]).toEqual(['ok', ''])
  })

  it('refuses a wrong token with a HarnessLabError of status 401', async () => {
    const r = await python('from harness_lab_client import HarnessLabClient, HarnessLabError\ntry:\n    HarnessLabClient().health()\nexcept HarnessLabError as e:\n    print(e.status)', { HARNESS_LAB_URL: server.url, HARNESS_LAB_TOKEN: 'x'.repeat(32) })
    expect(r.stdout.trim()).toBe('401')
  })
})
