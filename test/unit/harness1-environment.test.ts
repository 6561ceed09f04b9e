/** The Harness-1 environment over a real demo-world corpus: tools, mechanisms, switches, replay, transcript baseline. */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { workspaceMigrations } from '../../main/db/migrations'
import { openDatabase, type OpenedDatabase } from '../../main/db/open'
import type { WorkspaceDatabase } from '../../main/db/schema'
import { createEnvironment, environmentNames, resolvedConfig } from '../../main/harness'
import {
  changedSections,
  diffSnapshots,
  HARNESS1_ABLATIONS,
  MECHANISMS,
  STATEFUL_DEFAULTS,
  StatefulEnvironment,
  type Mechanism,
  type StatefulConfig,
  type StatefulObservationData,
  type StatefulSnapshot,
} from '../../main/harness/stateful'
import { environmentContext, type Action, type EnvContext, type EnvQuestion } from '../../main/harness/types'
import { defaultIngestOptions, runIngest, type IngestReporter } from '../../main/ingest/run'
import { createHashedEmbedder, createRetriever, embedMissingChunks } from '../../main/retrieval'
import { envQuestions } from '../helpers/corpus'
import { tempDir } from '../helpers/services'

const quiet: IngestReporter = { progress: () => undefined, throwIfCancelled: () => undefined }
const tool = (name: string, args: unknown): Action => ({ kind: 'tool', name, arguments: args })

describe('Harness-1 stateful environment', () => {
  const tmp = tempDir('harness1-env-')
  let db: OpenedDatabase<WorkspaceDatabase>
  let ctx: EnvContext
  let questions: EnvQuestion[]
  const putrera = (): EnvQuestion => questions.find((q) => q.question.includes('Putrera Puvard worked'))!

  beforeAll(async () => {
    db = await openDatabase(join(tmp.dir, 'w.db'), workspaceMigrations)
    await runIngest(db.raw, { kind: 'demo', seed: 1, size: 1 }, defaultIngestOptions(), quiet)
    // A near-duplicate of one article, so dedup has something to suppress.
    const kannarance = db.raw.prepare("select text from documents where title = 'Kannarance'").pluck().get() as string
    mkdirSync(join(tmp.dir, 'extra'))
    writeFileSync(join(tmp.dir, 'extra', 'Kannarance copy.txt'), `${kannarance} It is also known for its markets.`)
    await runIngest(db.raw, { kind: 'folder', path: join(tmp.dir, 'extra') }, defaultIngestOptions(), quiet)
    ctx = environmentContext(db.raw)
    questions = envQuestions(db.raw)
  })

  afterAll(async () => {
    await db.close()
    tmp.cleanup()
  })

  const make = (delta: Partial<StatefulConfig> = {}) => new StatefulEnvironment(ctx, { ...STATEFUL_DEFAULTS, ...delta })
  const data = (env: StatefulEnvironment) => env.snapshot()
  const idOf = (s: StatefulSnapshot, title: string) => [...s.curated, ...s.pool].find((d) => d.title === title)?.id

  it('declares "stateful" and "transcript" and validates config deltas', () => {
    expect(environmentNames()).toEqual(expect.arrayContaining(['stateful', 'transcript']))
    expect(resolvedConfig('transcript')).toMatchObject({ transcript: true, autoSeed: false, budgetMarkers: false })
    expect(createEnvironment('stateful', ctx, { dedup: false }).name).toBe('stateful')
    expect(() => createEnvironment('stateful', ctx, { dedupe: false })).toThrow(/no option "dedupe"/)
    expect(() => createEnvironment('stateful', ctx, { contextTokens: -1 })).toThrow(/contextTokens/)
    expect(() => createEnvironment('stateful', ctx, { searchMode: 'dense' })).toThrow(/dense/)
    // Every ablation row is a valid delta.
    for (const row of HARNESS1_ABLATIONS) expect(() => createEnvironment('stateful', ctx, row.delta)).not.toThrow()
    expect(HARNESS1_ABLATIONS.map((r) => r.name)).toEqual([
      'full', 'no-auto-seed', 'no-compression', 'no-dedup', 'no-importance-tags', 'no-evidence-graph', 'no-verification',
      'no-review-docs', 'no-budget-markers', 'all-off', 'transcript',
    ])
  })

  it('offers tools until the episode ends, and ends on end_search', async () => {
    const env = make()
    const obs = await env.reset(putrera(), 1)
    expect(obs.text).toContain(putrera().question)
    expect(obs.text).toMatch(/\[Context: \d+\/8192\]/)
    const space = env.actions()
    expect(space.kind).toBe('tools')
    expect(space.kind === 'tools' && space.tools.length).toBe(8)
    const r = await env.step(tool('end_search', { reasoning: 'nothing to do' }))
    expect(r.done).toBe(true)
    expect(env.actions()).toEqual({ kind: 'tools', tools: [] })
    expect(env.outcome()).toMatchObject({ endReason: 'answer', turns: 1, formatErrors: 0, evidence: { chunkIds: [] } })
    const after = await env.step(tool('search_corpus', { query: 'x' }))
    expect(after.info.valid).toBe(false)
    expect(env.outcome().turns).toBe(1)
  })

  it('ends at the turn limit', async () => {
    const env = make({ maxTurns: 2 })
    await env.reset(putrera(), 1)
    await env.step(tool('search_corpus', { query: 'Putrera Puvard' }))
    const r = await env.step(tool('grep_corpus', { pattern: 'Puvard' }))
    expect(r.done).toBe(true)
    expect(env.outcome().endReason).toBe('turn-limit')
  })

  it('auto-seeds the top results at fair after the first successful search, once', async () => {
    const env = make()
    await env.reset(putrera(), 1)
    // A search that finds nothing does not spend the seed.
    const empty = await env.step(tool('search_corpus', { query: 'zzqxv wqxzz' }))
    expect(empty.info.valid).toBe(true)
    expect(data(env).curated).toHaveLength(0)
    const first = await env.step(tool('fan_out_search', { queries: ['Putrera Puvard', 'Vonernona Technical University'] }))
    const s = data(env)
    expect(s.curated).toHaveLength(8)
    expect(s.curated.every((c) => c.tag === 'fair' && c.via === 'auto-seed')).toBe(true)
    expect(s.curated.map((c) => c.id)).toEqual(s.history[1]!.newIds.slice(0, 8))
    expect(first.observation.text).toContain('Auto-seeded 8 documents')
    // Emptying the set and searching again does not seed a second time.
    await env.step(tool('curate', { remove_ids: s.curated.map((c) => c.id) }))
    await env.step(tool('search_corpus', { query: 'Toulis Meley' }))
    expect(data(env).curated).toHaveLength(0)
  })

  it('does not auto-seed when the curated set is not empty at the first successful search', async () => {
    const env = make()
    await env.reset(putrera(), 1)
    await env.step(tool('read_document', { doc_id: 'D1' }))
    await env.step(tool('curate', { add_ids: ['D1'], importance: 'high' }))
    await env.step(tool('search_corpus', { query: 'Putrera Puvard' }))
    expect(data(env).curated.map((c) => c.id)).toEqual(['D1'])
    // And not later either: the first successful search was the one chance.
    await env.step(tool('curate', { remove_ids: ['D1'] }))
    await env.step(tool('search_corpus', { query: 'Vonernona' }))
    expect(data(env).curated).toHaveLength(0)
  })

  it('turns malformed calls into recorded format errors without crashing or changing state', async () => {
    const env = make({ maxTurns: 30 })
    await env.reset(putrera(), 1)
    await env.step(tool('search_corpus', { query: 'Putrera Puvard' }))
    const before = data(env)
    const bad: Action[] = [
      tool('launch_rocket', {}),
      { kind: 'text', text: '{"name": "search_corpus", "arguments": {"query": }' },
      { kind: 'text', text: 'I think the answer is Paris.' },
      tool('search_corpus', {}),
      tool('fan_out_search', { queries: ['a', 'b', 'c', 'd', 'e', 'f'] }),
      tool('read_document', { doc_id: 'D99999999' }),
      tool('read_document', { doc_id: 'the first one' }),
      tool('review_docs', { doc_ids: ['D90'] }),
      tool('curate', { add_ids: ['D90'], importance: 'high' }),
      tool('curate', { remove_ids: ['D2'] }),
      tool('curate', { add_ids: ['D64'], importance: 'urgent' }),
      tool('verify', { doc_ids: [], claim: 'x' }),
      tool('grep_corpus', { pattern: '(unclosed' }),
      tool('end_search', 'not an object'),
      { kind: 'menu', id: 'S1' },
    ]
    for (const [i, action] of bad.entries()) {
      const r = await env.step(action)
      expect(r.info.valid, JSON.stringify(action)).toBe(false)
      expect(r.info.formatError).toEqual(expect.any(String))
      expect(r.observation.text).toContain('Format error')
      expect(env.outcome().formatErrors).toBe(i + 1)
    }
    const after = data(env)
    expect(after.curated).toEqual(before.curated)
    expect(after.seen).toEqual(before.seen)
    expect(after.toolCounts).toEqual(before.toolCounts)
    expect(after.lastResult?.ok).toBe(false)
    expect(env.done).toBe(false)
  })

  it('reads, reviews and curates by id, with a capacity message when full', async () => {
    const env = make({ curatedCap: 2, autoSeed: false })
    await env.reset(putrera(), 1)
    const read = await env.step(tool('read_document', { doc_id: 'D64' }))
    expect(read.info.added?.chunkIds).toEqual([64])
    expect(read.observation.text).toContain('Putrera Puvard is a Golian novelist')
    const review = await env.step(tool('review_docs', { doc_ids: ['D64', 64] }))
    expect(review.info.valid).toBe(true)
    await env.step(tool('search_corpus', { query: 'Vonernona Technical University' }))
    const ids = data(env).seen
    await env.step(tool('curate', { add_ids: [ids[0], ids[1]], importance: 'high' }))
    const full = await env.step(tool('curate', { add_ids: [ids[2]], importance: 'fair' }))
    expect(full.observation.text).toMatch(/Curated set is full \(2\/2\): D\d+ not added/)
    const evict = await env.step(tool('curate', { add_ids: [ids[2]], importance: 'very_high' }))
    expect(evict.observation.text).toMatch(/was evicted/)
    expect(data(env).curatedByTag.very_high).toEqual([ids[2]])
  })

  it('suppresses near-duplicates with MinHash (and keeps them with dedup off)', async () => {
    const on = make()
    await on.reset(questions[0]!, 1)
    await on.step(tool('search_corpus', { query: 'Kannarance' }))
    const s = data(on)
    expect(s.duplicates).toHaveLength(1)
    expect(s.duplicates[0]!.similarity).toBeGreaterThanOrEqual(0.85)
    const titles = (snap: StatefulSnapshot) => [...snap.curated, ...snap.pool].map((p) => p.title)
    expect(titles(s).filter((t) => t.startsWith('Kannarance'))).toHaveLength(1)
    const off = make({ dedup: false })
    await off.reset(questions[0]!, 1)
    await off.step(tool('search_corpus', { query: 'Kannarance' }))
    expect(titles(data(off)).filter((t) => t.startsWith('Kannarance'))).toHaveLength(2)
    // The suppressed chunk is excluded from later searches too.
    await on.step(tool('search_corpus', { query: 'Kannarance markets' }))
    expect(data(on).seen).not.toContain(s.duplicates[0]!.id)
  })

  it('builds the evidence graph from the mentions table', async () => {
    const env = make()
    await env.reset(putrera(), 1)
    await env.step(tool('fan_out_search', { queries: ['Putrera Puvard', 'Vonernona Technical University'] }))
    const s = data(env)
    const chunkIds = s.seen.map((id) => Number(id.slice(1)))
    // Independent count: named entities per chunk through sentence spans.
    const rows = db.raw
      .prepare(
        `select c.id as chunk, m.entity_id as entity from chunks c
         join sentences s on s.document_id = c.document_id and s.start_char < c.end_char and s.end_char > c.start_char
         join mentions m on m.sentence_id = s.id join entities e on e.id = m.entity_id
         where e.lookup_ok = 1 and c.id in (select value from json_each(?)) group by c.id, m.entity_id`,
      )
      .all(JSON.stringify(chunkIds)) as { chunk: number; entity: number }[]
    const docsPerEntity = new Map<number, number>()
    for (const r of rows) docsPerEntity.set(r.entity, (docsPerEntity.get(r.entity) ?? 0) + 1)
    const shared = [...docsPerEntity.values()].filter((n) => n >= 2).length
    const single = [...docsPerEntity.values()].filter((n) => n === 1).length
    expect(s.evidenceGraph).toMatchObject({ bridgeCount: shared, singleDocEntities: single, documents: chunkIds.length })
    expect(s.evidenceGraph!.bridges.length).toBe(Math.min(8, shared))
    expect(s.evidenceGraph!.bridges.every((b) => b.docIds.length >= 2)).toBe(true)
    expect(s.rendered.text).toContain(`Single-document entities: ${single}`)
  })

  it('verifies claims with a labelled lexical check, or an injected checker', async () => {
    const env = make()
    await env.reset(putrera(), 1)
    await env.step(tool('read_document', { doc_id: 'D32' }))
    const r = await env.step(tool('verify', { doc_ids: ['D32'], claim: 'Vonernona Technical University was established by Toulis Meley' }))
    expect(r.info.valid).toBe(true)
    const v = data(env).verifications![0]!
    expect(v).toMatchObject({ verdict: 'supported', lexical: true, checker: expect.stringContaining('lexical'), docIds: ['D32'] })
    expect(r.observation.text).toContain('lexical check')

    const seen: string[] = []
    const judged = new StatefulEnvironment(
      { ...ctx, claimChecker: { name: 'judge-model.gguf', check: async (claim, passages) => (seen.push(...passages.map((p) => p.docId)), { verdict: 'contradicted', score: 0.9, rationale: claim }) } },
      { ...STATEFUL_DEFAULTS },
    )
    await judged.reset(putrera(), 1)
    await judged.step(tool('read_document', { doc_id: 'D32' }))
    await judged.step(tool('verify', { doc_ids: ['D32'], claim: 'It was founded in 1990' }))
    expect(seen).toEqual(['D32'])
    expect(judged.snapshot().verifications![0]).toMatchObject({ verdict: 'contradicted', lexical: false, checker: 'judge-model.gguf' })

    // A checker that fails is replaced by the lexical check for that call, and the record says so.
    const broken = new StatefulEnvironment({ ...ctx, claimChecker: { name: 'judge', check: async () => Promise.reject(new Error('model crashed')) } }, { ...STATEFUL_DEFAULTS })
    await broken.reset(putrera(), 1)
    await broken.step(tool('read_document', { doc_id: 'D32' }))
    const b = await broken.step(tool('verify', { doc_ids: ['D32'], claim: 'Vonernona Technical University was established by Toulis Meley' }))
    expect(b.info.valid).toBe(true)
    expect(broken.snapshot().verifications![0]).toMatchObject({ verdict: 'supported', lexical: true, checker: expect.stringContaining('judge failed: model crashed') })
  })

  it('accepts arguments given as a JSON string', async () => {
    const env = make()
    await env.reset(putrera(), 1)
    const r = await env.step(tool('search_corpus', '{"query": "Putrera Puvard"}'))
    expect(r.info.valid).toBe(true)
    expect(r.info.added?.chunkIds?.length).toBeGreaterThan(0)
  })

  it('keeps the rendering within a small budget, counted by an injected tokenizer', async () => {
    const counter = { name: 'chars/4', count: (t: string) => Math.ceil(t.length / 4) }
    const env = new StatefulEnvironment({ ...ctx, tokenCounter: counter }, { ...STATEFUL_DEFAULTS, contextTokens: 400 })
    await env.reset(putrera(), 1)
    const levels: number[] = []
    for (const a of [
      tool('fan_out_search', { queries: ['Putrera Puvard', 'Vonernona Technical University', 'Toulis Meley'] }),
      tool('review_docs', { doc_ids: ['D64', 'D32'] }),
      tool('search_corpus', { query: 'university founded' }),
    ]) {
      const r = await env.step(a)
      const s = data(env)
      expect(counter.count(r.observation.text)).toBeLessThanOrEqual(400)
      expect(s.budget).toMatchObject({ limit: 400, tokenizer: 'chars/4' })
      expect(s.budget.used).toBe(counter.count(s.rendered.text))
      levels.push(s.budget.level)
    }
    expect(Math.max(...levels)).toBeGreaterThan(0)
  })

  it('snapshots what the policy saw and diffs consecutive snapshots', async () => {
    const env = make()
    await env.reset(putrera(), 1)
    const s0 = env.snapshot()
    const r1 = await env.step(tool('search_corpus', { query: 'Putrera Puvard' }))
    const s1 = env.snapshot()
    expect(s1.rendered.text).toBe(r1.observation.text)
    expect(s1.rendered.text).toBe(env.render())
    const d1 = diffSnapshots(s0, s1)
    expect(d1.seen.added).toEqual(s1.seen)
    expect(d1.curated.added.map((c) => c.id)).toEqual(s1.curated.map((c) => c.id))
    expect(d1.historyAdded).toHaveLength(1)
    expect(d1.sections).toEqual(expect.arrayContaining(['status', 'lastResult', 'curated', 'evidenceGraph', 'history', 'budget']))
    const target = s1.curated[0]!.id
    await env.step(tool('curate', { add_ids: [target], importance: 'very_high' }))
    await env.step(tool('verify', { doc_ids: [target], claim: 'Putrera Puvard is a novelist' }))
    const s3 = env.snapshot()
    expect(diffSnapshots(s1, s3).curated.retagged).toEqual([{ id: target, from: 'fair', to: 'very_high' }])
    expect(diffSnapshots(s1, s3).verificationsAdded).toHaveLength(1)
    expect(s3.curatedByTag.very_high).toEqual([target])
    // Snapshots are copies: editing one changes nothing in the environment.
    s3.curated.length = 0
    expect(env.snapshot().curated.length).toBeGreaterThan(0)
    // Observation data is the structured view of the same moment.
    const d = (await env.step(tool('grep_corpus', { pattern: 'Toulis' }))).observation.data as StatefulObservationData
    expect(d).toMatchObject({ mode: 'stateful', turn: 4 })
    expect(d.pool?.every((p) => !d.curated!.some((c) => c.id === p.id))).toBe(true)
  })

  it('previews without changing state', async () => {
    const env = make()
    await env.reset(putrera(), 1)
    const before = env.snapshot()
    const p = await env.preview(tool('search_corpus', { query: 'Putrera Puvard' }))
    expect(p?.chunkIds?.length).toBeGreaterThan(0)
    expect(await env.preview(tool('search_corpus', {}))).toMatchObject({ summary: expect.stringContaining('invalid') })
    expect(env.snapshot()).toEqual(before)
    const r = await env.step(tool('search_corpus', { query: 'Putrera Puvard' }))
    expect(r.info.added?.chunkIds).toEqual(p?.chunkIds)
  })

  it('searches bm25 by default, and hybrid in auto mode once dense vectors exist', async () => {
    const plain = make({ searchMode: 'auto' })
    await plain.reset(putrera(), 1)
    await plain.step(tool('search_corpus', { query: 'Putrera Puvard' }))
    expect(plain.snapshot().history[0]!.mode).toBe('bm25')
    const embedder = createHashedEmbedder(64)
    await embedMissingChunks(db.raw, embedder)
    const dense = new StatefulEnvironment(environmentContext(db.raw, createRetriever(db.raw, { embedder })), { ...STATEFUL_DEFAULTS, searchMode: 'auto' })
    await dense.reset(putrera(), 1)
    await dense.step(tool('search_corpus', { query: 'Putrera Puvard' }))
    expect(dense.snapshot().history[0]!.mode).toBe('hybrid')
    expect(dense.snapshot().seen.length).toBeGreaterThan(0)
  })

  describe('every switch changes only what it names', () => {
    // Fields and rendered sections each switch may touch: the state it names and views derived from it.
    const ALLOWED: Record<Mechanism, { fields: string[]; sections: string[]; primary: string }> = {
      autoSeed: { fields: ['curated', 'curatedByTag', 'pool', 'history', 'lastResult', 'evidenceGraph'], sections: ['curated', 'pool', 'history', 'lastResult', 'evidenceGraph'], primary: 'curated' },
      compression: { fields: ['pool', 'curated', 'lastResult'], sections: ['pool', 'curated'], primary: 'pool' },
      dedup: { fields: ['duplicates', 'seen', 'pool', 'curated', 'curatedByTag', 'history', 'lastResult', 'evidenceGraph'], sections: ['pool', 'curated', 'history', 'lastResult', 'evidenceGraph'], primary: 'duplicates' },
      importanceTags: { fields: ['curated', 'curatedByTag', 'lastResult'], sections: ['curated', 'lastResult'], primary: 'curatedByTag' },
      evidenceGraph: { fields: ['evidenceGraph'], sections: ['evidenceGraph'], primary: 'evidenceGraph' },
      verification: { fields: ['verifications', 'tools', 'lastResult', 'formatErrors', 'toolCounts'], sections: ['verifications', 'status', 'lastResult'], primary: 'verifications' },
      reviewDocs: { fields: ['tools', 'lastResult', 'formatErrors', 'toolCounts'], sections: ['status', 'lastResult'], primary: 'tools' },
      budgetMarkers: { fields: [], sections: [], primary: 'budget' },
    }
    // 'budget' (the token count) follows any change of text; 'rendered' and 'config' are not state.
    const ALWAYS = ['budget']

    async function script(env: StatefulEnvironment, q: EnvQuestion): Promise<StatefulSnapshot[]> {
      const snaps: StatefulSnapshot[] = []
      await env.reset(q, 1)
      snaps.push(env.snapshot())
      const s = () => snaps[snaps.length - 1]!
      const steps: ((last: StatefulSnapshot) => Action)[] = [
        () => tool('fan_out_search', { queries: ['Kannarance', 'Putrera Puvard worked'] }),
        (l) => tool('curate', { add_ids: [idOf(l, 'Putrera Puvard'), idOf(l, 'Kannarance')].filter(Boolean), importance: 'high' }),
        (l) => tool('verify', { doc_ids: [idOf(l, 'Putrera Puvard')], claim: 'Putrera Puvard worked for Vonernona Technical University' }),
        (l) => tool('review_docs', { doc_ids: [idOf(l, 'Kannarance')] }),
        () => tool('search_corpus', { query: 'Vonernona Technical University founded' }),
        () => tool('grep_corpus', { pattern: 'Toulis Meley' }),
        (l) => tool('read_document', { doc_id: idOf(l, 'Vonernona Technical University') ?? 'D32' }),
        (l) => tool('curate', { add_ids: [idOf(l, 'Vonernona Technical University')], importance: 'low' }),
        () => tool('end_search', { reasoning: 'done' }),
      ]
      for (const next of steps) {
        await env.step(next(s()))
        snaps.push(env.snapshot())
      }
      return snaps
    }

    for (const mechanism of MECHANISMS) {
      it(`${mechanism}`, async () => {
        const big = { contextTokens: 1_000_000 }
        const a = await script(make(big), questions[0]!)
        const b = await script(make({ ...big, [mechanism]: false }), questions[0]!)
        expect(b).toHaveLength(a.length)
        const allowed = ALLOWED[mechanism]
        const touchedFields = new Set<string>()
        const touchedSections = new Set<string>()
        for (const [i, sa] of a.entries()) {
          const sb = b[i]!
          const fields = diffSnapshots(sa, sb).fields
          const sections = changedSections(sa.rendered.sections, sb.rendered.sections)
          fields.forEach((f) => touchedFields.add(f))
          sections.forEach((x) => touchedSections.add(x))
          expect(fields.filter((f) => !allowed.fields.includes(f) && !ALWAYS.includes(f)), `turn ${i} fields`).toEqual([])
          expect(sections.filter((x) => !allowed.sections.includes(x) && !ALWAYS.includes(x)), `turn ${i} sections`).toEqual([])
        }
        // And the switch does something.
        expect([...touchedFields, ...touchedSections]).toContain(allowed.primary)
      })
    }
  })

  describe('append-only transcript baseline', () => {
    it('appends raw observations and keeps no rendered working memory', async () => {
      const env = createEnvironment('transcript', ctx, { contextTokens: 100_000 })
      await env.reset(putrera(), 1)
      const r1 = await env.step(tool('search_corpus', { query: 'Putrera Puvard' }))
      expect(r1.observation.text).toContain('## Turn 1')
      expect(r1.observation.text).toContain('Putrera Puvard is a Golian novelist')
      expect(r1.observation.text).not.toContain('# Curated set')
      expect(r1.observation.text).not.toContain('[Context:')
      const d = r1.observation.data as StatefulObservationData
      expect(d.mode).toBe('transcript')
      expect(d.pool).toBeUndefined()
      const r2 = await env.step(tool('curate', { add_ids: ['D64'] }))
      expect(r2.observation.text.startsWith(r1.observation.text.slice(0, 200))).toBe(true)
      expect(r2.observation.text).toContain('## Turn 2')
      expect(r2.observation.text.length).toBeGreaterThan(r1.observation.text.length)
      expect(env.outcome().evidence.chunkIds).toEqual([64])
    })

    it('ends with "budget" once the transcript no longer fits, never rendering over the limit', async () => {
      const env = new StatefulEnvironment(ctx, { ...STATEFUL_DEFAULTS, transcript: true, compression: false, contextTokens: 1500 })
      await env.reset(putrera(), 1)
      let r = await env.step(tool('fan_out_search', { queries: ['Putrera Puvard', 'Vonernona Technical University', 'Toulis Meley'] }))
      for (let i = 0; !r.done && i < 10; i++) r = await env.step(tool('search_corpus', { query: `university ${i}` }))
      expect(r.done).toBe(true)
      expect(env.outcome().endReason).toBe('budget')
      expect(env.snapshot().budget.used).toBeLessThanOrEqual(1500)
    })
  })
})
