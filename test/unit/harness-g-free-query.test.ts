import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { workspaceCorpus } from '../../main/corpus/repository'
import type { OpenedDatabase } from '../../main/db/open'
import { capQuery, FREE_QUERY_DEFAULTS, parseToolText, toolCallForMenuId } from '../../main/harness/free-query'
import type { SentenceEnvData, SentenceEnvSnapshot } from '../../main/harness/sentence-substrate'
import { createEnvironment } from '../../main/harness'
import { runEpisode } from '../../main/harness'
import { createScriptedPolicy } from '../../main/policy/scripted'
import { snapshotsOf } from '../helpers/episodes'
import { environmentContext, type Action, type EnvContext, type Environment, type EnvQuestion, type MenuItem } from '../../main/harness/types'
import { createHashedEmbedder, createRetriever, embedMissingChunks } from '../../main/retrieval'
import { openDemoWorkspace, type DemoWorkspace } from '../helpers/corpus'

const snap = (env: Environment) => env.snapshot() as SentenceEnvSnapshot
const search = (query: string): Action => ({ kind: 'tool', name: 'search', arguments: { query } })
const menuItems = (env: Environment): MenuItem[] => snap(env).menu

describe('free-query baseline', () => {
  let demo: DemoWorkspace
  let db: OpenedDatabase<unknown>
  let ctx: EnvContext
  let questions: EnvQuestion[]

  beforeAll(async () => {
    demo = await openDemoWorkspace(5, 0.4)
    ;({ db, ctx, questions } = demo)
  })
  afterAll(() => demo.close())

  const fqEnv = (delta: Record<string, unknown> = {}) => createEnvironment('free-query', ctx, delta)
  const titleOf = (sentenceId: number): string =>
    String(workspaceCorpus(db.raw).sentence(sentenceId)?.title)

  it('offers search, select and answer as tools with JSON schemas', async () => {
    const env = fqEnv()
    await env.reset(questions[0]!, 0)
    const space = env.actions()
    expect(space.kind).toBe('tools')
    if (space.kind !== 'tools') return
    expect(space.tools.map((t) => t.name)).toEqual(['search', 'select', 'answer'])
    for (const tool of space.tools) expect(tool.parameters).toMatchObject({ type: 'object', additionalProperties: false })
    expect(space.tools[0]!.parameters).toMatchObject({ properties: { query: { maxLength: FREE_QUERY_DEFAULTS.maxQueryChars } } })
  })

  it('shares the substrate with the menu environment: same reset state, same SELECT/ANSWER items', async () => {
    const menu = createEnvironment('graph-menu', ctx)
    const fq = fqEnv()
    for (const q of questions.slice(0, 10)) {
      await menu.reset(q, 3)
      await fq.reset(q, 3)
      const a = snap(menu)
      const b = snap(fq)
      expect(b.visible).toEqual(a.visible)
      expect(b.entities).toEqual(a.entities)
      const sentenceItems = (items: MenuItem[]) => items.filter((i) => i.type !== 'LOOKUP')
      expect(sentenceItems(b.menu)).toEqual(sentenceItems(a.menu))
    }
  })

  it('maps a query to retrieval: the new sentences come from the top chunks, as previewed', async () => {
    const env = fqEnv()
    let searched = 0
    for (const [i, q] of questions.slice(0, 10).entries()) {
      await env.reset(q, i)
      const name = (env.snapshot() as SentenceEnvSnapshot).entities.at(-1)?.name ?? 'river'
      const query = `${name} founded`
      const hits = (await ctx.retriever.search(query, FREE_QUERY_DEFAULTS.lookupK, 'bm25')).hits
      const chunkSentences = new Set(
        db.raw
          .prepare(
            `select s.id from chunks c join sentences s on s.document_id = c.document_id and s.start_char < c.end_char and s.end_char > c.start_char
             where c.id in (select value from json_each(?))`,
          )
          .pluck()
          .all(JSON.stringify(hits.map((h) => h.chunkId))) as number[],
      )
      const before = JSON.stringify(env.snapshot())
      const preview = await env.preview(search(query))
      expect(JSON.stringify(env.snapshot())).toBe(before)
      const visible = new Set(snap(env).visible.map((s) => s.id))
      const result = await env.step(search(query))
      expect(result.info.valid).toBe(true)
      const added = result.info.added?.sentenceIds ?? []
      expect(added).toEqual(preview?.sentenceIds)
      expect(added.length).toBeLessThanOrEqual(FREE_QUERY_DEFAULTS.lookupSentences)
      for (const id of added) {
        expect(chunkSentences.has(id)).toBe(true)
        expect(visible.has(id)).toBe(false)
      }
      searched += added.length
      // The outcome names exactly what the policy's own queries surfaced (the reset retrieval's sentences are not among them).
      expect(env.outcome().queried).toEqual({ sentenceIds: added })
      const last = snap(env).history.at(-1)!
      expect(last).toMatchObject({ type: 'SEARCH', query, valid: true })
      expect((result.observation.data as SentenceEnvData).queries).toEqual([query])
      expect(snap(env).provenance.filter((e) => e.kind === 'sentence' && e.via === 'search').map((e) => e.id)).toEqual(added)
      expect(new Set(added.map(titleOf)).size).toBeGreaterThan(0)
    }
    expect(searched).toBeGreaterThan(0)
  })

  it('reports no queried sentences before any search, and none in the menu environment', async () => {
    const fq = fqEnv()
    await fq.reset(questions[0]!, 0)
    expect(fq.outcome().queried).toEqual({ sentenceIds: [] })
    const menu = createEnvironment('graph-menu', ctx)
    await menu.reset(questions[0]!, 0)
    const lookup = menuItems(menu).find((i) => i.type === 'LOOKUP')!
    await menu.step({ kind: 'menu', id: lookup.id })
    expect(menu.outcome().queried).toBeUndefined()
  })

  it('cuts queries to the length limit before retrieval', async () => {
    const env = fqEnv({ maxQueryChars: 40 })
    const q = questions[1]!
    await env.reset(q, 0)
    // The only content word past the limit names a document: after the cut it cannot steer retrieval.
    const title = String(db.raw.prepare('select title from documents order by id limit 1').pluck().get())
    const long = `${'lorem ipsum dolor '.repeat(5)}${title}`
    expect(capQuery(long, 40).query.length).toBeLessThanOrEqual(40)
    const result = await env.step(search(long))
    const recorded = snap(env).history.at(-1)!
    expect(recorded.query!.length).toBeLessThanOrEqual(40)
    expect(recorded.query).not.toContain(title)
    expect(result.info.summary).toMatch(/cut to the length limit/)
    expect(capQuery('  short   query ', 40)).toEqual({ query: 'short query', truncated: false })
    expect(capQuery('x'.repeat(50), 40)).toEqual({ query: 'x'.repeat(40), truncated: true })
  })

  it('accepts search text, JSON tool calls, tools with ids and plain menu ids', async () => {
    const env = fqEnv({ turnLimit: 10 })
    const q = questions[2]!
    await env.reset(q, 0)
    expect(parseToolText('search: river')).toEqual(search('river'))
    expect(parseToolText('<search>old city</search>')).toEqual(search('old city'))
    expect(parseToolText('{"name":"answer","arguments":{}}')).toEqual({ kind: 'tool', name: 'answer', arguments: {} })
    expect(parseToolText('S3')).toBeNull()

    expect((await env.step({ kind: 'text', text: '  search: country capital \n' })).info.valid).toBe(true)
    expect((await env.step({ kind: 'text', text: '<search>founded company</search>' })).info.valid).toBe(true)
    expect((await env.step({ kind: 'text', text: '{"name": "search", "arguments": {"query": "university"}}' })).info.valid).toBe(true)
    const selects = menuItems(env).filter((i) => i.type === 'SELECT')
    const first = selects[0]!.target!.sentence!.id
    expect((await env.step({ kind: 'tool', name: 'select', arguments: { id: selects[0]!.id } })).info.valid).toBe(true)
    const second = menuItems(env).find((i) => i.type === 'SELECT')!
    expect((await env.step({ kind: 'menu', id: second.id })).info.valid).toBe(true)
    expect(snap(env).committed).toEqual([first, second.target!.sentence!.id])
    const w = menuItems(env).find((i) => i.type === 'ANSWER_WITH')!
    const end = await env.step({ kind: 'tool', name: 'answer', arguments: { id: `S${w.id.slice(1)}` } })
    expect(end.done).toBe(true)
    expect(env.outcome()).toMatchObject({ endReason: 'answer', turns: 6, formatErrors: 0 })
    expect(env.outcome().evidence.sentenceIds).toHaveLength(3)
    expect(env.actions()).toEqual({ kind: 'tools', tools: [] })
  })

  it('writes each menu id as the tool call that does the same (toolCallForMenuId)', async () => {
    const q = questions[2]!
    const probe = fqEnv({ turnLimit: 10 })
    await probe.reset(q, 0)
    const ids = ['A', ...['SELECT', 'ANSWER_WITH'].map((type) => menuItems(probe).find((i) => i.type === type)!.id)]
    expect(ids.map((id) => id[0])).toEqual(['A', 'S', 'W'])
    for (const id of ids) {
      const [byId, byCall] = [fqEnv({ turnLimit: 10 }), fqEnv({ turnLimit: 10 })]
      await byId.reset(q, 0)
      await byCall.reset(q, 0)
      const call = toolCallForMenuId(id)!
      expect(call.kind).toBe('tool')
      const [a, b] = [await byId.step({ kind: 'menu', id }), await byCall.step(call)]
      expect(b.info.valid).toBe(true)
      expect(b.done).toBe(a.done)
      expect(snap(byCall).committed).toEqual(snap(byId).committed)
    }
    expect(toolCallForMenuId('L2')).toBeNull()
  })

  it('records malformed and blocked actions as format errors and changes nothing else', async () => {
    const env = fqEnv({ turnLimit: 30 })
    const q = questions[4]!
    await env.reset(q, 0)
    await env.step(search('harbour'))
    const select = menuItems(env).find((i) => i.type === 'SELECT')!
    await env.step({ kind: 'menu', id: select.id })
    const bad: Action[] = [
      search('harbour'), // same terms as an earlier search
      search('the harbours'), // same key after stemming and stopwords
      search('   '),
      search('?? !!'),
      { kind: 'tool', name: 'search', arguments: {} },
      { kind: 'tool', name: 'search', arguments: { query: 'x', k: 50 } },
      { kind: 'tool', name: 'search', arguments: 'river' },
      { kind: 'tool', name: 'fetch', arguments: { url: 'http://example.com' } },
      { kind: 'tool', name: 'select', arguments: { id: 'S999' } },
      { kind: 'tool', name: 'select', arguments: { id: select.id } }, // committed already
      { kind: 'tool', name: 'select', arguments: {} },
      { kind: 'menu', id: 'L1' },
      { kind: 'text', text: 'The answer is 42.' },
      { kind: 'text', text: '' },
      { kind: 'text', text: '{"name": "search", "arguments": ' },
      { kind: 'text', text: '[1, 2]' },
      { kind: 'text', text: `${select.id}` }, // an id from a previous menu
    ]
    for (const action of bad) {
      const before = snap(env)
      const result = await env.step(action)
      expect(result.info.valid, JSON.stringify(action)).toBe(false)
      expect(result.info.formatError).toBeTruthy()
      const after = snap(env)
      expect({ ...after, turn: before.turn, formatErrors: before.formatErrors, history: after.history.slice(0, -1) }).toEqual(before)
      expect(after.history.at(-1)).toMatchObject({ valid: false })
    }
    expect(env.outcome()).toMatchObject({ turns: 2 + bad.length, formatErrors: bad.length })
    // With repeats allowed, the same query is a valid step again.
    const lenient = fqEnv({ allowRepeatedQueries: true })
    await lenient.reset(q, 0)
    await lenient.step(search('harbour'))
    expect((await lenient.step(search('harbour'))).info.valid).toBe(true)
  })

  it('ends at the turn limit and gives identical episodes for identical seeds', async () => {
    const env = fqEnv({ turnLimit: 4 })
    const q = questions[6]!
    await env.reset(q, 0)
    for (const query of ['river', 'city', 'company', 'university']) await env.step(search(query))
    expect(env.done).toBe(true)
    expect(env.outcome()).toMatchObject({ endReason: 'turn-limit', turns: 4 })

    const full = fqEnv()
    for (const [i, question] of questions.slice(0, 8).entries()) {
      const a = await runEpisode(full, createScriptedPolicy('random', 'sentence-search'), question, 7 + i)
      const b = await runEpisode(full, createScriptedPolicy('random', 'sentence-search'), question, 7 + i)
      expect(snapshotsOf(b)).toEqual(snapshotsOf(a))
    }
  })

  it('runs both environments on dense and hybrid retrieval too (searchMode)', async () => {
    const embedder = createHashedEmbedder(128)
    await embedMissingChunks(db.raw, embedder)
    const dense = environmentContext(db.raw, createRetriever(db.raw, { embedder }))
    for (const searchMode of ['dense', 'hybrid']) {
      for (const envName of ['graph-menu', 'free-query']) {
        const env = createEnvironment(envName, dense, { searchMode })
        const { outcome } = await runEpisode(env, createScriptedPolicy('greedy', envName === 'graph-menu' ? 'sentence-menu' : 'sentence-search'), questions[0]!, 0)
        expect(outcome.turns).toBeGreaterThan(0)
        expect(outcome.seen.sentenceIds!.length).toBeGreaterThan(0)
        expect(outcome.formatErrors).toBe(0)
      }
    }
  })
})
