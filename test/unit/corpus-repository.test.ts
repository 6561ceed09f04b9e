/**
 * The corpus repositories and the reader the environments take instead of the database
 * (main/corpus/repository), and the runs repository (main/experiments/runs/store.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { corpusRepositories, workspaceCorpus, type CorpusReader } from '../../main/corpus/repository'
import { compareRuns, metricNames } from '../../main/experiments/runs/compare'
import { getEpisode, listEpisodes, listRuns } from '../../main/experiments/runs/read-model'
import { RunStore, runStore } from '../../main/experiments/runs/store'
import { createEnvironment, environmentFactory, environmentNames, runEpisode } from '../../main/harness'
import { environmentContext, type EnvContext } from '../../main/harness/types'
import { createScriptedPolicy, scriptedPolicies } from '../../main/policy/scripted'
import { createRetriever } from '../../main/retrieval'
import { evaluationConfig, snapshotsOf } from '../helpers/episodes'
import { openDemoWorkspace, type DemoWorkspace } from '../helpers/corpus'

let demo: DemoWorkspace
let corpus: CorpusReader

beforeAll(async () => {
  demo = await openDemoWorkspace(5, 0.6)
  corpus = workspaceCorpus(demo.db.raw)
})

afterAll(async () => {
  await demo.close()
})

const all = <T>(sql: string, ...params: unknown[]): T[] => demo.db.raw.prepare(sql).all(...params) as T[]

describe('the corpus reader', () => {
  it('is one per database handle, and the one environmentContext() gives', () => {
    expect(workspaceCorpus(demo.db.raw)).toBe(corpus)
    expect(corpusRepositories(demo.db.raw)).toBe(corpusRepositories(demo.db.raw))
    const ctx = environmentContext(demo.db.raw)
    expect(ctx.corpus).toBe(corpus)
    expect(ctx.retriever.vectorCount()).toBe(0)
  })

  it('reads a sentence with its document title, and undefined for a sentence that is not there', () => {
    const rows = all<{ id: number; document_id: number; chunk_id: number; ord: number; text: string; title: string }>(
      'select s.*, d.title from sentences s join documents d on d.id = s.document_id order by s.id limit 50',
    )
    expect(rows.length).toBe(50)
    for (const r of rows) {
      expect(corpus.sentence(r.id)).toEqual({ id: r.id, documentId: r.document_id, chunkId: r.chunk_id, ord: r.ord, title: r.title, text: r.text })
    }
    expect(corpus.sentence(10_000_000)).toBeUndefined()
  })

  it('reads the sentences of a chunk by character span, in document order', () => {
    for (const c of all<{ id: number; document_id: number; start_char: number; end_char: number }>('select id, document_id, start_char, end_char from chunks order by id limit 20')) {
      const got = corpus.chunkSentences(c.id)
      const want = all<{ id: number }>('select id from sentences where document_id = ? and start_char < ? and end_char > ? order by ord', c.document_id, c.end_char, c.start_char)
      expect(got.map((s) => s.id)).toEqual(want.map((s) => s.id))
      expect(got.every((s) => s.documentId === c.document_id)).toBe(true)
    }
    expect(corpus.chunkSentences(10_000_000)).toEqual([])
  })

  it('reads chunk membership', () => {
    const doc = all<{ document_id: number }>('select document_id from chunks order by id limit 1')[0]!.document_id
    const ids = corpus.documentChunkIds(doc)
    expect(ids.length).toBeGreaterThan(0)
    expect(ids).toEqual(all<{ id: number }>('select id from chunks where document_id = ? order by ord', doc).map((r) => r.id))
    expect(ids.every((id) => corpus.hasChunk(id))).toBe(true)
    expect(corpus.hasChunk(10_000_000)).toBe(false)
  })

  it('reads entities, mentions in order of first mention, degrees, links both ways and the documents about an entity', () => {
    const sentence = all<{ sentence_id: number }>('select sentence_id from mentions group by sentence_id having count(distinct entity_id) > 1 order by sentence_id limit 1')[0]!.sentence_id
    const entities = corpus.sentenceEntities(sentence)
    expect(entities.length).toBeGreaterThan(1)
    const first = (id: number) => Math.min(...all<{ start: number }>('select start from mentions where sentence_id = ? and entity_id = ?', sentence, id).map((m) => m.start))
    for (let i = 1; i < entities.length; i++) expect(first(entities[i - 1]!.id)).toBeLessThanOrEqual(first(entities[i]!.id))
    for (const e of entities) {
      expect(corpus.entity(e.id)).toEqual({ id: e.id, canonical: e.canonical, name: e.name, type: e.type, lookupOk: e.lookupOk })
      expect(corpus.entitiesByCanonical(e.canonical).map((x) => x.id)).toContain(e.id)
      expect(corpus.entityDegree(e.id)).toBe(all<{ s: number }>('select distinct sentence_id as s from mentions where entity_id = ?', e.id).length)
    }
    expect(corpus.entity(10_000_000)).toBeUndefined()

    const link = all<{ source_id: number; target_id: number; score: number }>('select * from entity_links order by source_id, target_id limit 1')[0]
    expect(link).toBeDefined()
    expect(corpus.entityLinks(link!.source_id)).toContainEqual({ id: link!.target_id, score: link!.score })
    expect(corpus.entityLinks(link!.target_id)).toContainEqual({ id: link!.source_id, score: link!.score })
    const scores = corpus.entityLinks(link!.source_id).map((l) => l.score)
    expect([...scores].sort((a, b) => b - a)).toEqual(scores)

    const named = corpus.namedEntities([sentence])
    expect(named.map((e) => e.id)).toEqual(entities.filter((e) => e.lookupOk === 1).map((e) => e.id).sort((a, b) => a - b))

    const titled = all<{ id: number; title: string }>('select id, title from documents order by id limit 1')[0]!
    const docs = corpus.entityDocuments(titled.title.toUpperCase(), [entities[0]!.id])
    expect(docs).toContainEqual({ id: titled.id, titled: 1 })
    const mentioning = all<{ document_id: number }>('select distinct s.document_id from mentions m join sentences s on s.id = m.sentence_id where m.entity_id = ?', entities[0]!.id)
    for (const m of mentioning) expect(docs).toContainEqual({ id: m.document_id, titled: 0 })
  })
})

describe('environments over the corpus reader', () => {
  it('every built-in environment plays whole episodes from ctx.corpus alone (the context holds no database handle)', async () => {
    expect(environmentNames()).toEqual(expect.arrayContaining(['free-query', 'graph-menu', 'stateful', 'transcript']))
    for (const name of environmentNames()) {
      const protocol = environmentFactory(name).protocol
      const policyName = scriptedPolicies().find((p) => p.protocols.includes(protocol))!.name
      const ctx = { corpus: workspaceCorpus(demo.db.raw), retriever: createRetriever(demo.db.raw) }
      expect(Object.keys(ctx).sort()).toEqual(['corpus', 'retriever'])
      const env = createEnvironment(name, ctx)
      for (const [i, q] of demo.questions.slice(0, 4).entries()) {
        const a = await runEpisode(env, createScriptedPolicy(policyName, protocol), q, 11 + i, { previews: true })
        const b = await runEpisode(createEnvironment(name, environmentContext(demo.db.raw)), createScriptedPolicy(policyName, protocol), q, 11 + i, { previews: true })
        expect(a.steps.length, `${name} on question ${q.id}`).toBeGreaterThan(0)
        expect(snapshotsOf(b), `${name} on question ${q.id}`).toEqual(snapshotsOf(a))
        expect(b.outcome).toEqual(a.outcome)
      }
    }
  })
})

describe('the runs repository', () => {
  it('stores a run with its episodes and reads them back for listing, paging, comparing and replaying', async () => {
    const raw = demo.db.raw
    const store = new RunStore(raw)
    const env = createEnvironment('graph-menu', environmentContext(raw))
    const runIds: number[] = []
    for (const [r, seed] of [3, 4].entries()) {
      const runId = store.createRun({ kind: 'eval', name: `repo-${r}`, config: evaluationConfig('graph-menu'), seed, appVersion: 'test', corpusSignature: 'sig', jobId: null })
      runIds.push(runId)
      for (const [i, q] of demo.questions.slice(0, 3).entries()) {
        const t = await runEpisode(env, createScriptedPolicy('greedy', 'sentence-menu'), q, seed + i, { previews: true })
        t.metrics = { turns: t.outcome.turns, score: r + i }
        store.saveEpisode(runId, Number(q.id), t)
      }
      store.finishRun(runId, 'done', { aggregates: { turns: { mean: 1, count: 3, ci: null } } })
    }
    const [first, second] = runIds as [number, number]

    expect(runStore(raw)).toBe(runStore(raw))
    const runs = runStore(raw).runsWithEpisodeCounts()
    expect(runs.slice(0, 2).map((r) => [r.id, r.status, r.episodes])).toEqual([
      [second, 'done', 3],
      [first, 'done', 3],
    ])
    expect(store.trainRunStatus(first)).toBeUndefined()
    expect(store.doneQuestions(first)).toEqual(new Set(demo.questions.slice(0, 3).map((q, i) => `${q.id}:${3 + i}`)))
    expect(store.metricsOf(first).map((m) => m.metrics.score)).toEqual([0, 1, 2])
    expect(store.questionMetrics(second).map((m) => m.question_id)).toEqual(demo.questions.slice(0, 3).map((q) => Number(q.id)))

    const listed = listRuns(raw).find((r) => r.id === first)!
    expect(listed).toMatchObject({ kind: 'eval', name: 'repo-0', status: 'done', seed: 3, episodes: 3, metrics: { turns: { mean: 1, count: 3, lower: null, upper: null } } })
    const page = listEpisodes(raw, first, 1, 1)
    expect(page.total).toBe(3)
    expect(page.episodes.map((e) => e.questionId)).toEqual([Number(demo.questions[1]!.id)])

    expect(metricNames(raw, [first, second])).toEqual(['score', 'turns'])
    const [c] = compareRuns(raw, first, [second], 'score')
    expect(c).toMatchObject({ runId: second, count: 3, meanDifference: 1, wins: 3, ties: 0, losses: 0 })

    const episodeId = store.episodePage(first, 0, 1)[0]!.id
    const episode = (await getEpisode(raw, episodeId))!
    expect(episode.replay).toBeNull()
    expect(episode.environment).toBe('graph-menu')
    expect(episode.steps.map((s) => s.t)).toEqual(store.episodeSteps(episodeId).map((s) => s.t))
    expect(episode.steps.length).toBeGreaterThan(0)
    expect(await getEpisode(raw, 10_000_000)).toBeNull()
  })
})
