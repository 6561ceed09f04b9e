/**
 * Contract tests of the trainer glue (resources/trainers/{verl,trl,openrlhf}): each driven against a live
 * environment server over a real demo workspace by a stand-in of its trainer's calling convention
 * (test/python/standins, written from verl 0.7.0's, TRL 1.9.0's and OpenRLHF 0.11.0's documented
 * signatures), fed with rows of Harness Lab's own verl export. Checks the call shape, return types,
 * truncation at the trainer's length limit and the rewards. Also runs the NumPy unit test of the verl
 * SNC arithmetic. Python standard library only (NumPy for the SNC test, skipped without it).
 */
import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startEnvServer, type EnvServer } from '../../main/env-server'
import { writeExport } from '../../main/exports'
import { openDemoWorkspace, type DemoWorkspace } from '../helpers/corpus'

const PY = fileURLToPath(new URL('../python', import.meta.url))
/** The interpreter: $HARNESS_LAB_PYTHON (the venv .ci/run makes, with PyTorch) or python3. */
const PYTHON = process.env.HARNESS_LAB_PYTHON || 'python3'

function python(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) =>
    execFile(PYTHON, args, { cwd: PY, env: { ...process.env, ...env, PYTHONDONTWRITEBYTECODE: '1' }, timeout: 600_000, maxBuffer: 1 << 24 }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    ),
  )
}

const pythonVersion = await new Promise<string | null>((resolve) => execFile(PYTHON, ['--version'], (err, out) => resolve(err ? null : out.trim())))
if (!pythonVersion) console.warn('trainer-glue-python: no python3 on this machine: skipping the trainer glue contract tests')
const hasNumpy = pythonVersion !== null && (await python(['-c', 'import numpy'])).code === 0
if (pythonVersion && !hasNumpy) console.warn('trainer-glue-python: python3 has no numpy: skipping the verl SNC arithmetic test')

/**
 * A two-hop plan found by playing menu ids: LOOKUP an entity, SELECT the first sentence it surfaced, ANSWER;
 * the first question and LOOKUP where the LOOKUP (the enabling step) gets non-zero SNC credit.
 */
async function twoHopPlan(server: EnvServer, questionIds: number[]): Promise<{ questionId: number; ids: string[]; credit: number[] } | null> {
  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${server.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) })
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`)
    return (await res.json()) as Record<string, any>
  }
  for (const questionId of questionIds) {
    const first = await post('/v1/episodes', { environment: 'graph-menu', question_id: questionId, seed: 0 })
    await post(`/v1/episodes/${first.episode_id}/finish`, {})
    for (const lookup of first.menu.filter((m: { type: string }) => m.type === 'LOOKUP')) {
      const ep = await post('/v1/episodes', { environment: 'graph-menu', question_id: questionId, seed: 0 })
      const before = new Set(ep.menu.map((m: { id: string }) => m.id))
      const hop = await post(`/v1/episodes/${ep.episode_id}/step`, { menu_id: lookup.id })
      const fresh = (hop.menu ?? []).find((m: { id: string; type: string }) => m.type === 'SELECT' && !before.has(m.id))
      const ids = fresh ? [lookup.id, fresh.id, 'A'] : []
      if (fresh) {
        const select = await post(`/v1/episodes/${ep.episode_id}/step`, { menu_id: fresh.id })
        if (!select.done) await post(`/v1/episodes/${ep.episode_id}/step`, { menu_id: 'A' })
      }
      const finished = await post(`/v1/episodes/${ep.episode_id}/finish`, {})
      const credit = (finished.per_step_credit as { total: number; enablement: number }[])
      if (fresh && credit.length === 3 && credit[0]!.enablement > 0 && credit[0]!.total !== 0) return { questionId, ids, credit: credit.map((c) => c.total) }
    }
  }
  return null
}

describe.skipIf(!pythonVersion)(`trainer glue against a live server (${pythonVersion ?? 'no python3'})`, { timeout: 600_000 }, () => {
  let demo: DemoWorkspace
  let server: EnvServer
  let rows: { prompt: unknown; extra_info: { question_id: number; set: string; split: string | null; index: number } }[]
  let env: Record<string, string>
  beforeAll(async () => {
    demo = await openDemoWorkspace(5, 0.5)
    server = await startEnvServer({ raw: demo.db.raw, appVersion: 'test', port: 0 })
    env = { HARNESS_LAB_URL: server.url, HARNESS_LAB_TOKEN: server.token }
    const dir = mkdtempSync(join(tmpdir(), 'harness-lab-glue-'))
    try {
      const file = join(dir, 'rows.jsonl')
      await writeExport(demo.db.raw, { source: 'questions', questionSetId: 1, format: 'questions-verl-jsonl' }, file)
      rows = readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as (typeof rows)[number])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }, 600_000)
  afterAll(async () => {
    await server?.close()
    await demo?.close()
  })

  it('verl 0.7.0: the agent loop found through agent_loop.yaml plays menu and tool episodes, truncates at the response length, and passes reward and per-step credit', async () => {
    // Row 0 by question_id, row 1 by set + split + index (as a trainer may drop the id).
    const { set, split, index } = rows[1]!.extra_info
    const byKey = [rows[0]!, { ...rows[1]!, extra_info: { set, split, index } }]
    const r = await python(['contract_verl.py', JSON.stringify(byKey)], env)
    expect(r.stderr).toBe('')
    const out = JSON.parse(r.stdout) as Record<string, any>
    for (const name of ['menu', 'tools', 'truncated', 'snc', 'snc_truncated']) {
      const o = out[name]
      expect(o.prompt_starts_with_server_system, name).toBe(true)
      expect([o.prompt_has_default_system, o.response_has_default_system], name).toEqual([false, false])
      expect(o.mask_len, name).toBe(o.response_len)
      expect(o.token_turn_len, name).toBe(o.response_len)
      expect(o.mask_matches_map, name).toBe(true)
      expect(typeof o.reward, name).toBe('number')
    }
    // Played to the end: observations are masked, the reward is the server's, one credit per step (SNC on graph-menu).
    expect(out.menu).toMatchObject({ end_reason: expect.any(String), reward_score: out.menu.reward })
    expect(out.menu.masked_tokens).toBeGreaterThan(0)
    expect(out.menu.credit.length).toBe(out.menu.generate_calls)
    expect(out.tools.reward_score).toBe(out.tools.reward)
    expect(out.tools.generate_calls).toBe(2)
    // Truncated exactly at rollout.response_length; in SNC mode one short (the outcome's slot), reward left to the reward manager.
    expect(out.truncated.response_len).toBe(600)
    expect(out.snc_truncated.response_len).toBe(599)
    expect([out.snc.reward_score, out.snc_truncated.reward_score]).toEqual([null, null])
    // Every HTTP call ran on the glue's thread pool, none on the event loop's thread.
    expect(out.http_threads).toEqual(['harness-lab-http'])
  })

  it('TRL 1.9.0: one environment class per server environment with exactly its tools, the system prompt kept, get_reward a float', async () => {
    // Keyed by set + split + index, the columns a TRL dataset built from the export carries.
    const { set, split, index } = rows[0]!.extra_info
    // Two servers (the same one under two loopback names): instances take them in turn.
    const local = server.url.replace('127.0.0.1', 'localhost')
    const r = await python(['contract_trl.py', JSON.stringify({ set, split, index })], { ...env, HARNESS_LAB_URL: `${server.url},${local}` })
    expect(r.stderr).toBe('')
    const out = JSON.parse(r.stdout) as Record<string, any>
    expect(out.urls).toEqual([server.url, local, server.url, local])
    // Schema constraints kept: enums as transformers' choices (a real enum where transformers is installed), limits in the descriptions.
    expect(Object.keys(out.stateful.server_enums).length).toBeGreaterThan(0)
    if (out.stateful.real_enums !== null) expect(out.stateful.real_enums).toEqual(out.stateful.server_enums)
    expect(out.stateful.docs_with_limits.length).toBeGreaterThan(0)
    // Through TRL every prompt is the server's tool-calling one: graph-menu asks for the choose call it offers, stateful
    // for a tool call (no bare JSON reply, no tools block: the chat template lists the tools), never for a bare reply.
    for (const text of [out['graph-menu'].menu_text, out['graph-menu'].menu_obs, out['graph-menu'].system]) {
      expect(text).toContain('choose')
      expect(text).not.toMatch(/reply with exactly one|and nothing else/)
    }
    expect(out.stateful.system).toMatch(/calling exactly one tool/)
    expect(out.stateful.system).not.toMatch(/single JSON object|and nothing else|search_corpus/)
    expect(out.stateful.tools).toEqual(out.stateful.server_tools)
    expect(out.stateful.tools).toEqual(expect.arrayContaining(['grep_corpus', 'review_docs', 'verify', 'curate', 'end_search']))
    expect(out.stateful).toMatchObject({ required_match: true, params_match: true, row_system: 'system', reset_is_str: true, reset_repeats_system: false, reset_without_system_row: true, obs_types: ['str', 'str'], reward_type: 'float' })
    expect(out.stateful.after_end).toMatch(/^refused/)
    expect(out['graph-menu']).toMatchObject({ tools: ['choose'], server_tools: ['choose'], required_match: true, params_match: true, row_system: 'system', reset_repeats_system: false, reset_without_system_row: true, obs_types: ['str', 'str'], reward_type: 'float' })
    expect(out['graph-menu'].credit_steps).toBe(2)
  })

  it('OpenRLHF 0.11.0: AgentExecutor() with no arguments, tensor rewards, the server chat through the chat template, finished at max_length', async () => {
    const r = await python(['contract_openrlhf.py', JSON.stringify(rows[0]!.extra_info)], env)
    expect(r.stderr).toBe('')
    const out = JSON.parse(r.stdout) as Record<string, any>
    for (const name of ['menu', 'menu_dict_label', 'truncated', 'tools']) {
      expect(out[name], name).toMatchObject({ server_system_first: true, default_system_anywhere: false, dataset_prompt_dropped: true, scores_type: 'Tensor' })
      expect(typeof out[name].reward, name).toBe('number')
    }
    expect(out.menu.extra_logs).toEqual(expect.arrayContaining(['turns']))
    expect(out.menu.observations_as_turns).toBe(out.menu.actions - 1)
    expect(out.menu_dict_label.reward).toBe(out.menu.reward)
    expect(out.truncated.tokens).toBeLessThanOrEqual(3000)
    expect(out.truncated.extra_logs).toEqual(expect.arrayContaining(['turns']))
  })

  it.skipIf(!hasNumpy)('SNC through the trainers: a two-hop plan replied as text gets the menu id\'s credit, non-zero on the enabling LOOKUP; verl advantages differ between turns; OpenRLHF rewards carry it', async () => {
    const plan = await twoHopPlan(server, rows.slice(0, 8).map((r) => r.extra_info.question_id))
    expect(plan, 'a demo question where LOOKUP then the sentence it surfaced earns credit').not.toBeNull()
    const { questionId, ids, credit } = plan!
    const info = rows.find((r) => r.extra_info.question_id === questionId)!.extra_info
    const r = await python(['contract_snc.py', JSON.stringify(info), JSON.stringify(ids)], env)
    expect(r.stderr).toBe('')
    const out = JSON.parse(r.stdout) as Record<string, any>
    // The model's text, not bare ids: "I choose L2.", "S9", "<think>...</think>A".
    expect(out.replies[0]).toBe(`I choose ${ids[0]}.`)
    expect(out.replies[2]).toMatch(/^<think>/)
    // Exactly the credit the same choices get as menu ids; the enabling LOOKUP's is not zero.
    expect(out.credit).toHaveLength(credit.length)
    out.credit.forEach((c: number, i: number) => expect(c).toBeCloseTo(credit[i]!, 9))
    expect(out.credit[0]).not.toBe(0)
    // Token-level advantages from verl's reward manager and the registered estimator: one value per turn, not all equal.
    expect(out.turn_advantages).toHaveLength(ids.length)
    for (const values of out.turn_advantages) expect(values).toHaveLength(1)
    expect(new Set(out.turn_advantages.map((v: number[]) => v[0])).size).toBeGreaterThan(1)
    expect(out.masked_zero).toBe(true)
    // OpenRLHF: one scalar per sample; the credit reaches its logs, and its reward when a lambda is set.
    const sum = (credit as number[]).reduce((a, b) => a + b, 0)
    expect(out.openrlhf.logs['credit/nonzero_steps']).toBeGreaterThan(0)
    expect(out.openrlhf.logs['credit/sum']).toBeCloseTo(sum, 5)
    expect(out.openrlhf.reward).toBeCloseTo(out.openrlhf.logs['reward/outcome'], 6)
    expect(out.openrlhf_shaped.reward).toBeCloseTo(out.openrlhf.logs['reward/outcome'] + 0.5 * sum, 5)
    console.log(`trainer-glue SNC: question ${questionId}, plan ${ids.join(' ')}, credit ${out.credit.map((c: number) => c.toFixed(3)).join(' ')}, advantages per turn ${out.turn_advantages.map((v: number[]) => v[0]!.toFixed(3)).join(' ')} (${out.backend})`)
  })

  it('verl reward for sets from no benchmark (resources/trainers/verl/harness_lab_reward.py, test/python/test_harness_lab_reward.py)', async () => {
    const r = await python(['-m', 'unittest', 'test_harness_lab_reward'])
    expect(r.stderr).toMatch(/\nOK\s*$/)
  })

  it.skipIf(!hasNumpy)('verl SNC arithmetic: the hand-computed example (test/python/test_snc_math.py)', async () => {
    const r = await python(['-m', 'unittest', 'test_snc_math'])
    expect(r.stderr).toMatch(/\nOK\s*$/)
  })
})
