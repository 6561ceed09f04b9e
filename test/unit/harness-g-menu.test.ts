import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { OpenedDatabase } from '../../main/db/open'
import { GRAPH_MENU_DEFAULTS, graphMenuFactory } from '../../main/harness/graph-menu'
import type { SentenceEnvData, SentenceEnvSnapshot } from '../../main/harness/sentence-substrate'
import { createEnvironment, environmentNames } from '../../main/harness'
import { runEpisode } from '../../main/harness'
import { createScriptedPolicy } from '../../main/policy/scripted'
import { snapshotsOf } from '../helpers/episodes'
import type { Action, EnvContext, Environment, EnvQuestion, MenuItem } from '../../main/harness/types'
import { openDemoWorkspace, type DemoWorkspace } from '../helpers/corpus'

const menuOf = (env: Environment): MenuItem[] => {
  const space = env.actions()
  if (space.kind !== 'menu') throw new Error('expected a menu')
  return space.items
}
const snap = (env: Environment) => env.snapshot() as SentenceEnvSnapshot
const dataOf = (env: Environment) => JSON.parse(JSON.stringify(snap(env))) as SentenceEnvSnapshot

describe('Harness-G menu environment (graph-menu)', () => {
  let demo: DemoWorkspace
  let db: OpenedDatabase<unknown>
  let ctx: EnvContext
  let questions: EnvQuestion[]

  beforeAll(async () => {
    demo = await openDemoWorkspace(11, 0.5)
    ;({ db, ctx, questions } = demo)
  })
  afterAll(() => demo.close())

  const menuEnv = (delta: Record<string, unknown> = {}) => createEnvironment('graph-menu', ctx, delta)
  const lookupOk = (entityId: number): number => Number(db.raw.prepare('select lookup_ok from entities where id = ?').pluck().get(entityId))

  it('declares graph-menu and free-query and checks config deltas', () => {
    expect(environmentNames()).toEqual(expect.arrayContaining(['graph-menu', 'free-query']))
    expect(() => menuEnv({ noSuchOption: 1 })).toThrow(/no option "noSuchOption"/)
    expect(() => menuEnv({ turnLimit: 0 })).toThrow(/turnLimit must be an integer/)
    expect(() => menuEnv({ searchMode: 'fuzzy' })).toThrow(/searchMode must be one of/)
    expect(() => menuEnv({ linkedEntities: 'yes' })).toThrow(/true or false/)
    expect(graphMenuFactory.defaults).toEqual(GRAPH_MENU_DEFAULTS)
  })

  it('starts from a deterministic retrieval of the question, with a bounded, merged menu', async () => {
    const env = menuEnv({ maxSelect: 4, maxLookup: 3, maxAnswerWith: 2, initialSentences: 6 })
    for (const q of questions.slice(0, 12)) {
      const obs = await env.reset(q, 1)
      const first = dataOf(env)
      await env.reset(q, 1)
      expect(dataOf(env)).toEqual(first)
      expect(first.visible.length).toBeGreaterThan(0)
      expect(first.visible.length).toBeLessThanOrEqual(6)
      expect(first.visible.every((s) => s.via === 'reset' && s.step === 0)).toBe(true)
      const items = menuOf(env)
      const ids = items.map((i) => i.id)
      expect(new Set(ids).size).toBe(ids.length)
      const count = (type: string) => items.filter((i) => i.type === type).length
      expect(count('SELECT')).toBeLessThanOrEqual(4)
      expect(count('LOOKUP')).toBeLessThanOrEqual(3)
      expect(count('ANSWER_WITH')).toBeLessThanOrEqual(2)
      expect(ids).toContain('A')
      for (const item of items) {
        expect(item.id).toMatch(/^(S\d+|L\d+|W\d+|A)$/)
        expect(item.label.length).toBeGreaterThan(0)
        expect(Object.values(item.features ?? {}).every(Number.isFinite)).toBe(true)
      }
      // Merged: no two SELECT items say the same thing, no two LOOKUPs share an entity or a need key.
      const texts = items.filter((i) => i.type === 'SELECT').map((i) => first.visible.find((s) => s.id === i.target!.sentence!.id)!.text.toLowerCase())
      expect(new Set(texts).size).toBe(texts.length)
      const lookups = items.filter((i) => i.type === 'LOOKUP').map((i) => i.target!)
      expect(new Set(lookups.map((t) => t.key)).size).toBe(lookups.length)
      expect(new Set(lookups.map((t) => t.entity!.canonical)).size).toBe(lookups.length)
      const data = obs.data as SentenceEnvData
      expect(data.environment).toBe('graph-menu')
      expect(data.menu.map((i) => i.id)).toEqual(ids)
      expect(obs.text).toContain(`Question: ${q.question}`)
      for (const id of ids) expect(obs.text).toContain(`  ${id}`)
    }
  })

  it('SELECT commits only visible sentences; LOOKUP never targets a filtered entity and never repeats', async () => {
    const env = menuEnv()
    let filteredSeen = 0
    let lookups = 0
    for (const [i, q] of questions.slice(0, 25).entries()) {
      const policy = createScriptedPolicy('random', 'sentence-menu')
      policy.reset({ seed: i, question: q })
      const visitedEntities = new Set<number>()
      const usedKeys = new Set<string>()
      let observation = await env.reset(q, i)
      while (!env.done) {
        const before = snap(env)
        const visible = new Set(before.visible.map((s) => s.id))
        const committed = new Set(before.committed)
        for (const item of menuOf(env)) {
          const t = item.target!
          if (item.type === 'SELECT' || item.type === 'ANSWER_WITH') {
            expect(visible.has(t.sentence!.id)).toBe(true)
            expect(committed.has(t.sentence!.id)).toBe(false)
          }
          if (item.type === 'LOOKUP') {
            for (const id of t.entity!.ids) {
              expect(lookupOk(id)).toBe(1)
              expect(visitedEntities.has(id)).toBe(false)
            }
            expect(usedKeys.has(t.key!)).toBe(false)
          }
        }
        // Filtered entities are mentioned by visible sentences but never offered.
        filteredSeen += Number(
          db.raw
            .prepare(`select count(*) from mentions m join entities e on e.id = m.entity_id where e.lookup_ok = 0 and m.sentence_id in (select value from json_each(?))`)
            .pluck()
            .get(JSON.stringify([...visible])),
        )
        const { action } = await policy.act(observation, env.actions())
        const item = menuOf(env).find((m) => m.id === (action as { id: string }).id)!
        const result = await env.step(action)
        expect(result.info.valid).toBe(true)
        const after = snap(env)
        if (item.type === 'SELECT' || item.type === 'ANSWER_WITH') {
          const id = item.target!.sentence!.id
          expect(after.committed).toEqual([...before.committed, id])
          expect(visible.has(id)).toBe(true)
        } else {
          expect(after.committed).toEqual(before.committed)
        }
        if (item.type === 'LOOKUP') {
          lookups++
          for (const id of item.target!.entity!.ids) visitedEntities.add(id)
          usedKeys.add(item.target!.key!)
          expect(after.history.at(-1)?.key).toBe(item.target!.key)
        }
        observation = result.observation
      }
      const keys = snap(env).history.filter((h) => h.type === 'LOOKUP').map((h) => h.key)
      expect(new Set(keys).size).toBe(keys.length)
    }
    expect(filteredSeen).toBeGreaterThan(0)
    expect(lookups).toBeGreaterThan(5)
  })

  it('previews change nothing, and a step adds exactly what its preview showed', async () => {
    const env = menuEnv()
    for (const [i, q] of questions.slice(0, 10).entries()) {
      await env.reset(q, i)
      for (let t = 0; t < 3 && !env.done; t++) {
        const before = JSON.stringify(env.snapshot())
        const items = menuOf(env)
        const previews = new Map<string, number[]>()
        for (const item of items) {
          const p = await env.preview({ kind: 'menu', id: item.id })
          expect(p).not.toBeNull()
          previews.set(item.id, p!.sentenceIds ?? [])
          // Text and stale forms preview the same or nothing, and change nothing either.
          expect(await env.preview({ kind: 'text', text: ` ${item.id}\n` })).toEqual(p)
        }
        expect(await env.preview({ kind: 'menu', id: 'Z9' })).toBeNull()
        expect(await env.preview({ kind: 'text', text: 'LOOKUP something' })).toBeNull()
        expect(JSON.stringify(env.snapshot())).toBe(before)
        expect(menuOf(env)).toEqual(items)

        const lookup = items.find((m) => m.type === 'LOOKUP')
        if (!lookup) break
        const visibleBefore = new Set(snap(env).visible.map((s) => s.id))
        const expected = previews.get(lookup.id)!
        expect(expected.length).toBeGreaterThan(0)
        expect(expected.every((id) => !visibleBefore.has(id))).toBe(true)
        const result = await env.step({ kind: 'menu', id: lookup.id })
        expect(result.info.added?.sentenceIds).toEqual(expected)
        const provenance = snap(env).provenance.filter((e) => e.kind === 'sentence' && e.via === lookup.id).map((e) => e.id)
        expect(provenance).toEqual(expected)
      }
    }
  })

  it('ANSWER and ANSWER_WITH end the episode; so does the turn limit', async () => {
    const env = menuEnv({ turnLimit: 3 })
    const q = questions[0]!
    await env.reset(q, 0)
    const answered = await env.step({ kind: 'menu', id: 'A' })
    expect(answered.done).toBe(true)
    expect(env.done).toBe(true)
    expect(env.outcome()).toMatchObject({ endReason: 'answer', turns: 1, formatErrors: 0, evidence: { sentenceIds: [] } })
    expect(env.actions()).toEqual({ kind: 'menu', items: [] })
    await expect(env.step({ kind: 'menu', id: 'A' })).rejects.toThrow(/episode is over/)
    expect(env.render()).toContain('Episode over (answer)')

    await env.reset(q, 0)
    const w = menuOf(env).find((i) => i.type === 'ANSWER_WITH')!
    const withSentence = await env.step({ kind: 'text', text: w.id })
    expect(withSentence.done).toBe(true)
    expect(env.outcome().evidence.sentenceIds).toEqual([w.target!.sentence!.id])
    expect(env.outcome().endReason).toBe('answer')

    await env.reset(q, 0)
    let steps = 0
    while (!env.done) {
      const item = menuOf(env).find((i) => i.type === 'SELECT' || i.type === 'LOOKUP')!
      await env.step({ kind: 'menu', id: item.id })
      steps++
    }
    expect(steps).toBe(3)
    expect(env.outcome()).toMatchObject({ endReason: 'turn-limit', turns: 3 })
    expect(env.outcome().seen.sentenceIds!.length).toBeGreaterThanOrEqual(env.outcome().evidence.sentenceIds!.length)
  })

  it('records malformed actions as format errors and changes nothing else', async () => {
    const env = menuEnv({ turnLimit: 20 })
    const q = questions[3]!
    await env.reset(q, 0)
    const select = menuOf(env).find((i) => i.type === 'SELECT')!
    await env.step({ kind: 'menu', id: select.id })
    const lookup = menuOf(env).find((i) => i.type === 'LOOKUP')!
    await env.step({ kind: 'menu', id: lookup.id })
    const bad: Action[] = [
      { kind: 'menu', id: 'S999' },
      { kind: 'text', text: 'I think the answer is Paris' },
      { kind: 'text', text: '' },
      { kind: 'text', text: '   ' },
      { kind: 'text', text: '{"id": "S1"' },
      { kind: 'text', text: `${menuOf(env)[0]!.id} ${menuOf(env)[1]!.id}` },
      { kind: 'text', text: menuOf(env)[0]!.id.toLowerCase() },
      { kind: 'menu', id: select.id }, // committed on an earlier menu
      { kind: 'menu', id: lookup.id }, // looked up on an earlier menu
      { kind: 'tool', name: 'search', arguments: { query: 'anything' } },
    ]
    for (const action of bad) {
      const before = snap(env)
      const menu = menuOf(env)
      const result = await env.step(action)
      expect(result.info.valid).toBe(false)
      expect(result.info.formatError).toBeTruthy()
      expect(result.done).toBe(false)
      const after = snap(env)
      expect(after.turn).toBe(before.turn + 1)
      expect(after.formatErrors).toBe(before.formatErrors + 1)
      expect(after.history.at(-1)).toMatchObject({ valid: false, formatError: result.info.formatError })
      expect({ ...after, turn: before.turn, formatErrors: before.formatErrors, history: after.history.slice(0, -1) }).toEqual(before)
      expect(menuOf(env)).toEqual(menu)
    }
    expect(env.outcome()).toMatchObject({ turns: 2 + bad.length, formatErrors: bad.length })
    expect(env.parse(`  ${menuOf(env)[0]!.id}\n`)).toEqual({ kind: 'menu', id: menuOf(env)[0]!.id })
    expect(env.parse('S1 please')).toHaveProperty('formatError')
  })

  it('gives identical episodes for identical seeds (random policy, full snapshots)', async () => {
    const env = menuEnv()
    let differ = 0
    for (const [i, q] of questions.slice(0, 8).entries()) {
      const a = await runEpisode(env, createScriptedPolicy('random', 'sentence-menu'), q, 100 + i)
      const b = await runEpisode(env, createScriptedPolicy('random', 'sentence-menu'), q, 100 + i)
      expect(snapshotsOf(b)).toEqual(snapshotsOf(a))
      expect(b.outcome).toEqual(a.outcome)
      const c = await runEpisode(env, createScriptedPolicy('random', 'sentence-menu'), q, 200 + i)
      if (JSON.stringify(snapshotsOf(c)) !== JSON.stringify(snapshotsOf(a))) differ++
      // Snapshots are plain JSON.
      for (const s of snapshotsOf(a)) expect(JSON.parse(JSON.stringify(s))).toEqual(s)
    }
    expect(differ).toBeGreaterThan(0)
  })

  it('keeps provenance for every visible sentence and entity and renders the state for a model', async () => {
    const env = menuEnv()
    const q = questions[5]!
    const { outcome } = await runEpisode(env, createScriptedPolicy('greedy', 'sentence-menu'), q, 1)
    const s = snap(env)
    const sentenceEdges = new Set(s.provenance.filter((e) => e.kind === 'sentence').map((e) => e.id))
    expect(s.visible.every((v) => sentenceEdges.has(v.id))).toBe(true)
    const entityEdges = new Set(s.provenance.filter((e) => e.kind === 'entity').map((e) => e.id))
    expect(s.entities.every((e) => e.ids.every((id) => entityEdges.has(id)))).toBe(true)
    expect(outcome.seen.sentenceIds).toEqual(s.visible.map((v) => v.id))
    expect(outcome.evidence.sentenceIds).toEqual(s.committed)
    expect(s.history.length).toBe(outcome.turns)
    const text = env.render()
    for (const id of s.committed) expect(text).toContain(s.visible.find((v) => v.id === id)!.text)
  })
})
