/**
 * Trainer compatibility of the environment server over a real demo workspace and real HTTP: the
 * tolerant menu-reply parse (the sentence substrate's, shared with the app's policies), OpenEnv-style
 * /reset /step /state /schema beside /v1 (OpenEnv's protocol itself: env-server-openenv.test.ts), Search-R1's POST /retrieve, and question_id as a decimal string.
 */
import { describe, expect, it } from 'vitest'
import { parseMenuReply } from '../../main/harness'
import { useServedDemo } from '../helpers/env-server'

type Json = Record<string, any>

const served = useServedDemo()

async function call(method: string, path: string, body?: unknown): Promise<{ status: number; json: Json }> {
  const res = await served.request(method, path, body)
  return { status: res.status, json: (await res.json()) as Json }
}
const ok = async (method: string, path: string, body?: unknown): Promise<Json> => {
  const r = await call(method, path, body)
  if (r.status !== 200) throw new Error(`${method} ${path} -> ${r.status} ${JSON.stringify(r.json)}`)
  return r.json
}

describe('menu replies, read tolerantly', () => {
  const ids = ['S1', 'S2', 'S12', 'L3', 'A']
  it('accepts the id wrapped as models write it', () => {
    for (const reply of ['S2', ' S2\n', 'S2.', '"S2"', "'S2'", '`S2`', 'I choose S2', 'I choose S2.', 'Answer: S2', '{"menu_id": "S2"}', '{"id": "S2"}', '<think>S1 looks weak; S12 too.</think>\nS2', '<THINK>\n</THINK> S2.', 'S2, S2'])
      expect(parseMenuReply(reply, ids), JSON.stringify(reply)).toEqual({ id: 'S2' })
    expect(parseMenuReply('S12', ids)).toEqual({ id: 'S12' })
    expect(parseMenuReply('pick A', ids)).toEqual({ id: 'A' })
  })
  it('counts ambiguous and empty replies as format errors', () => {
    for (const reply of ['', '   ', 'S2 or S12', 'S1 S2', 'I think the answer is Paris', 's2', 'S99', 'S22', '{"menu_id": "S99"}', '{"menu_id": ', '{"choice": "S2"}', '<think>S2', '<think>no</think>', 'A or S2'])
      expect(parseMenuReply(reply, ids), JSON.stringify(reply)).toMatchObject({ formatError: expect.any(String) })
    expect(parseMenuReply('S1 then S2', ids)).toMatchObject({ formatError: expect.stringMatching(/ambiguous/) })
  })
})

describe('environment server compatibility routes', () => {
  it('serves menu replies through menu_id and text tolerantly, and ambiguous ones as the episode\'s format error', async () => {
    const created = await ok('POST', '/v1/episodes', { environment: 'graph-menu', question_id: '1', seed: 0 })
    expect(created.question.id).toBe(1)
    const id = created.episode_id
    const target = created.menu.find((m: Json) => m.type === 'SELECT' || m.type === 'LOOKUP')
    const other = created.menu.find((m: Json) => m.id !== target.id)
    const bad = await ok('POST', `/v1/episodes/${id}/step`, { text: `${target.id} or ${other.id}` })
    expect(bad.info).toMatchObject({ valid: false, format_error: expect.stringMatching(/ambiguous/) })
    const good = await ok('POST', `/v1/episodes/${id}/step`, { menu_id: `<think>the best one</think>\nI choose ${target.id}.` })
    expect(good.info).toMatchObject({ valid: true, format_error: null })
    const finished = await ok('POST', `/v1/episodes/${id}/finish`, {})
    expect(finished.outcome.format_errors).toBe(1)
    expect((await call('POST', '/v1/episodes', { environment: 'graph-menu', question_id: '01' })).json.error.field).toBe('question_id')
  })

  it('plays an episode through OpenEnv-style /reset, /step, /state, /schema; the ending step carries the outcome reward', async () => {
    const reset = await ok('POST', '/reset', { environment: 'graph-menu', set: 1, index: 2, seed: 3 })
    expect(reset).toMatchObject({ reward: null, done: false, observation: { episode_id: expect.any(String), menu: expect.any(Array) } })
    const id = reset.observation.episode_id
    let menu = reset.observation.menu as Json[]
    let last: Json = reset
    for (let t = 0; !last.done; t++) {
      const choice = t >= 2 ? (menu.find((m) => m.type === 'ANSWER') ?? menu[0]) : (menu.find((m) => m.type === 'SELECT') ?? menu[0])
      last = await ok('POST', '/step', { episode_id: id, action: { menu_id: choice!.id } })
      if (!last.done) {
        expect(last).toMatchObject({ reward: 0, observation: { episode_id: id, text: expect.any(String), info: { t } } })
        menu = last.observation.menu
        expect((await ok('GET', `/state?episode_id=${id}`)).step_count).toBe(t + 1)
      }
      expect(t).toBeLessThan(10)
    }
    expect(last.observation.result).toMatchObject({ episode_id: id, credit_scheme: 'snc', per_step_credit: expect.any(Array) })
    expect(last.reward).toBe(last.observation.result.reward)
    // Scored: no more steps, but its state stays readable (done) until the idle timeout.
    expect(await ok('GET', `/state?episode_id=${id}`)).toMatchObject({ episode_id: id, done: true, step_count: expect.any(Number) })
    expect((await call('POST', '/step', { episode_id: id, action: { menu_id: 'A' } })).status).toBe(404)
    expect((await call('POST', '/step', { episode_id: id, action: { menu_id: 'A', text: 'x' } })).json.error.field).toBe('action.text')
    expect((await call('GET', '/state')).json.error.field).toBe('episode_id')
    const schema = await ok('GET', '/schema')
    expect(Object.keys(schema.action.properties)).toEqual(expect.arrayContaining(['menu_id', 'tool_call', 'text']))
    expect(Object.keys((await ok('GET', '/v1/schema')).reset.properties)).toEqual(expect.arrayContaining(['environment', 'question_id', 'set', 'split', 'index']))
  })

  it('answers Search-R1 retrieval requests over the workspace retriever', async () => {
    const question = served.demo.questions[0]!.question
    const scored = await ok('POST', '/retrieve', { queries: [question, 'capital city'], topk: 3, return_scores: true })
    expect(scored.result).toHaveLength(2)
    for (const hits of scored.result) {
      expect(hits.length).toBeGreaterThan(0)
      expect(hits.length).toBeLessThanOrEqual(3)
      for (const h of hits) {
        expect(h).toMatchObject({ document: { id: expect.any(String), contents: expect.stringMatching(/^".+"\n./) }, score: expect.any(Number) })
      }
      const scores = hits.map((h: Json) => h.score)
      expect(scores).toEqual([...scores].sort((a, b) => b - a))
    }
    const plain = await ok('POST', '/retrieve', { queries: [question] })
    expect(plain.result[0][0]).toEqual(scored.result[0][0].document)
    expect(plain.result[0]).toHaveLength(Math.min(3, scored.result[0].length))
  })
})
