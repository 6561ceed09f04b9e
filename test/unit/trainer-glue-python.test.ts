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

function python(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) =>
    execFile('python3', args, { cwd: PY, env: { ...process.env, ...env, PYTHONDONTWRITEBYTECODE: '1' }, timeout: 600_000, maxBuffer: 1 << 24 }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    ),
  )
}

const pythonVersion = await new Promise<string | null>((resolve) => execFile('python3', ['--version'], (err, out) => resolve(err ? null : out.trim())))
if (!pythonVersion) console.warn('trainer-glue-python: no python3 on this machine: skipping the trainer glue contract tests')
const hasNumpy = pythonVersion !== null && (await python(['-c', 'import numpy'])).code === 0
if (pythonVersion && !hasNumpy) console.warn('trainer-glue-python: python3 has no numpy: skipping the verl SNC arithmetic test')

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
    const r = await python(['contract_trl.py', JSON.stringify({ set, split, index })], env)
    expect(r.stderr).toBe('')
    const out = JSON.parse(r.stdout) as Record<string, any>
    expect(out.stateful.tools).toEqual(out.stateful.server_tools)
    expect(out.stateful.tools).toEqual(expect.arrayContaining(['grep_corpus', 'review_docs', 'verify', 'curate', 'end_search']))
    expect(out.stateful).toMatchObject({ required_match: true, params_match: true, row_system: 'system', reset_is_str: true, reset_repeats_system: false, reset_without_system_row: true, obs_types: ['str', 'str'], reward_type: 'float' })
    expect(out.stateful.after_end).toMatch(/^refused/)
    expect(out['graph-menu']).toMatchObject({ tools: ['choose'], server_tools: [], row_system: 'system', reset_repeats_system: false, reset_without_system_row: true, obs_types: ['str', 'str'], reward_type: 'float' })
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

  it.skipIf(!hasNumpy)('verl SNC arithmetic: the hand-computed example (test/python/test_snc_math.py)', async () => {
    const r = await python(['-m', 'unittest', 'test_snc_math'])
    expect(r.stderr).toMatch(/\nOK\s*$/)
  })
})
