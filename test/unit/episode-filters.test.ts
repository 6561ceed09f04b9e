/**
 * The Run page's reads over a real workspace database: runs.episodes filtered in SQL (question text,
 * correct / wrong by answer F1 or SP F1 at 0.5, the run's reward in a range, format errors, end reason,
 * training step) agree with the same filters applied to the whole run by hand; runs.comparable offers
 * other runs' episodes on the question and a rollout's group; runs.episode carries resolved gold, the
 * path on the graph and the credit of a training rollout's steps.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runTraining } from '../../main/experiments/training'
import { defaultIngestOptions, runIngest } from '../../main/ingest/run'
import { LexicalAnswerer } from '../../main/policy/answerer/lexical-answerer'
import { CORRECT_METRICS, type EpisodeFilterInput, type EpisodeRow } from '../../preload/contract'
import { quiet } from '../helpers/corpus'
import { startBackend, type TestBackend } from '../helpers/services'

describe('episode filters, comparable episodes, gold and path', () => {
  let backend: TestBackend
  let workspaceId: string
  let greedyRunId: number
  let oracleRunId: number
  let harness1RunId: number
  let trainRunId: number

  beforeAll(async () => {
    backend = await startBackend()
    workspaceId = (await backend.call('workspace.create', { name: 'episode filters' })).id
    const { raw } = await backend.services.workspaces.handle(workspaceId)
    await runIngest(raw, { kind: 'demo', seed: 2, size: 0.5 }, defaultIngestOptions(), quiet)
    const setId = (await backend.call('questions.sets', { workspaceId }))[0]!.id
    const total = Number(raw.prepare('select count(*) from questions').pluck().get())
    const evaluate = async (environment: string, policy: string, limit: number): Promise<number> => {
      const job = await backend.call('job.start', { kind: 'eval.run', workspaceId, params: { environment, policy: { kind: 'scripted', name: policy }, questionSetId: setId, limit } })
      const done = await backend.services.jobs.waitFor(job.id)
      if (done.kind !== 'eval.run' || done.status !== 'done' || !done.result) throw new Error(`evaluation ${done.status}: ${done.error}`)
      return done.result.runId
    }
    greedyRunId = await evaluate('graph-menu', 'greedy', 12)
    oracleRunId = await evaluate('graph-menu', 'oracle', 12)
    harness1RunId = await evaluate('stateful', 'scripted-tools', 5)
    trainRunId = (
      await runTraining(
        raw,
        {
          environment: 'graph-menu', steps: 3, groupSize: 2, questionsPerStep: 2, evalInterval: 10, seed: 4,
          train: { questionSetId: setId, offset: 0, limit: total - 4 }, heldOut: { questionSetId: setId, offset: total - 4, limit: 4 },
        },
        { answerer: new LexicalAnswerer(), appVersion: 'test', jobId: null, progress: () => {}, throwIfCancelled: () => {}, onStep: () => {} },
      )
    ).runId
  }, 600_000)
  afterAll(() => backend?.close())

  const page = (runId: number, filter?: EpisodeFilterInput, offset = 0, limit = 1000) => backend.call('runs.episodes', { workspaceId, runId, offset, limit, ...(filter ? { filter } : {}) })
  const ids = (rows: EpisodeRow[]) => rows.map((e) => e.id)
  const refusal = async (runId: number, filter: EpisodeFilterInput): Promise<{ code: string; message: string }> => {
    try {
      await page(runId, filter)
    } catch (err) {
      return (err as { body: { code: string; message: string } }).body
    }
    throw new Error(`accepted ${JSON.stringify(filter)}`)
  }

  it('lists every episode unfiltered, with its run, end reason and training step, and says what the filters read', async () => {
    const all = await page(greedyRunId)
    expect(all.total).toBe(12)
    expect(all.runTotal).toBe(12)
    expect(all).toMatchObject({ runKind: 'eval', rewardMetric: null, correctMetric: 'answer.f1.official', correctThreshold: 0.5, trainSteps: null })
    for (const e of all.episodes) expect(e).toMatchObject({ runId: greedyRunId, trainStep: null, endReason: expect.any(String) })
    expect(all.episodes.every((e) => e.endReason.length > 0)).toBe(true)
    expect(all.endReasons.reduce((n, r) => n + r.count, 0)).toBe(12)
    expect((await page(harness1RunId)).rewardMetric).toBe('reward.total')
    const train = await page(trainRunId)
    expect(train).toMatchObject({ runKind: 'train', rewardMetric: 'train.reward', trainSteps: { min: 0, max: 2 }, total: 12 })
    await expect(page(999_999)).rejects.toMatchObject({ body: { code: 'NOT_FOUND' } })
  })

  it('filters by question text (case-insensitive substring, % and _ literal) and pages the filtered rows', async () => {
    const all = (await page(greedyRunId)).episodes
    const word = all[0]!.question.split(/\s+/).find((w) => w.length > 4)!.replace(/[^\p{L}\p{N}]/gu, '')
    const expected = all.filter((e) => e.question.toLowerCase().includes(word.toLowerCase()))
    const found = await page(greedyRunId, { question: word.toUpperCase() })
    expect(found.total).toBe(expected.length)
    expect(ids(found.episodes)).toEqual(ids(expected))
    expect(found.runTotal).toBe(12)
    expect((await page(greedyRunId, { question: '%' })).total).toBe(all.filter((e) => e.question.includes('%')).length)
    expect((await page(greedyRunId, { question: '_' })).total).toBe(all.filter((e) => e.question.includes('_')).length)
    const second = await page(greedyRunId, {}, 3, 4)
    expect(ids(second.episodes)).toEqual(ids(all.slice(3, 7)))
  })

  it('splits episodes into correct and wrong by answer F1 or SP F1 at 0.5; an episode without the metric is neither', async () => {
    for (const runId of [greedyRunId, oracleRunId, trainRunId]) {
      const all = (await page(runId)).episodes
      for (const by of ['answer', 'sp'] as const) {
        const metric = CORRECT_METRICS[by]
        const correct = await page(runId, { correct: 'correct', correctBy: by })
        const wrong = await page(runId, { correct: 'wrong', correctBy: by })
        expect(correct.correctMetric).toBe(metric)
        expect(ids(correct.episodes)).toEqual(ids(all.filter((e) => (e.metrics[metric] ?? -1) >= 0.5)))
        expect(ids(wrong.episodes)).toEqual(ids(all.filter((e) => e.metrics[metric] !== null && e.metrics[metric] !== undefined && e.metrics[metric]! < 0.5)))
      }
    }
    // The oracle follows the gold: most of its episodes are correct by SP F1.
    expect((await page(oracleRunId, { correct: 'correct', correctBy: 'sp' })).total).toBeGreaterThan(6)
  })

  it("filters by the run's own reward in a range, and refuses a reward filter on a run without one or an empty range", async () => {
    for (const [runId, metric] of [[harness1RunId, 'reward.total'], [trainRunId, 'train.reward']] as const) {
      const all = (await page(runId)).episodes
      const rewards = all.map((e) => e.metrics[metric]!).sort((a, b) => a - b)
      const mid = rewards[Math.floor(rewards.length / 2)]!
      const atLeast = await page(runId, { rewardMin: mid })
      expect(ids(atLeast.episodes)).toEqual(ids(all.filter((e) => e.metrics[metric]! >= mid)))
      const upTo = await page(runId, { rewardMax: mid })
      expect(ids(upTo.episodes)).toEqual(ids(all.filter((e) => e.metrics[metric]! <= mid)))
      const exact = await page(runId, { rewardMin: mid, rewardMax: mid })
      expect(exact.total).toBe(all.filter((e) => e.metrics[metric] === mid).length)
    }
    expect(await refusal(greedyRunId, { rewardMin: 0 })).toMatchObject({ code: 'VALIDATION', message: expect.stringMatching(/stores no reward/) })
    expect(await refusal(harness1RunId, { rewardMin: 1, rewardMax: 0 })).toMatchObject({ code: 'VALIDATION', message: expect.stringMatching(/reward range is empty/) })
    expect(await refusal(harness1RunId, { rewardMin: Number.NaN })).toMatchObject({ code: 'VALIDATION' })
  })

  it('filters by format errors, end reason and training step, and combines filters', async () => {
    for (const runId of [greedyRunId, harness1RunId, trainRunId]) {
      const all = await page(runId)
      expect(ids((await page(runId, { formatErrors: 'none' })).episodes)).toEqual(ids(all.episodes.filter((e) => e.formatErrors === 0)))
      expect(ids((await page(runId, { formatErrors: 'some' })).episodes)).toEqual(ids(all.episodes.filter((e) => e.formatErrors > 0)))
      for (const { reason, count } of all.endReasons) {
        const ended = await page(runId, { endReason: reason })
        expect(ended.total).toBe(count)
        expect(ended.episodes.every((e) => e.endReason === reason)).toBe(true)
      }
      expect((await page(runId, { endReason: 'never-a-reason' })).total).toBe(0)
    }
    const all = (await page(trainRunId)).episodes
    for (const step of [0, 1, 2]) {
      const rows = await page(trainRunId, { trainStep: step })
      expect(rows.total).toBe(4)
      expect(rows.episodes.every((e) => e.trainStep === step)).toBe(true)
    }
    const combined = await page(trainRunId, { trainStep: 1, correct: 'wrong', correctBy: 'sp', formatErrors: 'none' })
    expect(ids(combined.episodes)).toEqual(ids(all.filter((e) => e.trainStep === 1 && e.formatErrors === 0 && e.metrics['sp.f1'] !== null && e.metrics['sp.f1']! < 0.5)))
  })

  it("offers other runs' episodes on the same question, and a training rollout's group", async () => {
    const greedy = (await page(greedyRunId)).episodes[0]!
    const comparable = await backend.call('runs.comparable', { workspaceId, episodeId: greedy.id })
    expect(comparable.group).toEqual([])
    const runs = new Set(comparable.sameQuestion.map((c) => c.runId))
    expect(runs.has(oracleRunId)).toBe(true)
    expect(runs.has(greedyRunId)).toBe(false)
    for (const c of comparable.sameQuestion) expect(c.trainStep).toBeNull()
    const oracle = comparable.sameQuestion.find((c) => c.runId === oracleRunId)!
    expect(oracle).toMatchObject({ runKind: 'eval', runName: expect.any(String), endReason: expect.any(String) })
    const sameQuestion = (await page(oracleRunId)).episodes.find((e) => e.id === oracle.id)!
    expect(sameQuestion.questionId).toBe(greedy.questionId)

    const rollout = (await page(trainRunId, { trainStep: 2 })).episodes[0]!
    const group = await backend.call('runs.comparable', { workspaceId, episodeId: rollout.id })
    expect(group.group.length).toBe(1)
    expect(group.group[0]).toMatchObject({ runId: trainRunId, trainStep: 2, runKind: 'train' })
    expect(group.group[0]!.id).not.toBe(rollout.id)
    await expect(backend.call('runs.comparable', { workspaceId, episodeId: 999_999 })).rejects.toMatchObject({ body: { code: 'NOT_FOUND' } })
  })

  it('runs.episode: gold resolved to sentences and documents with what the episode did with them, the path on the graph in order, credit on training steps', async () => {
    const oracleEpisodes = (await page(oracleRunId, { correct: 'correct', correctBy: 'sp' })).episodes
    const episode = await backend.call('runs.episode', { workspaceId, episodeId: oracleEpisodes[0]!.id })
    expect(episode).toMatchObject({ runId: oracleRunId, runKind: 'eval', trainStep: null })
    const gold = episode.goldEvidence
    expect(gold.sentences.length).toBeGreaterThan(0)
    for (const s of gold.sentences) {
      expect(s.sentenceId).toEqual(expect.any(Number))
      expect(s.text).toEqual(expect.any(String))
    }
    const committed = new Set(episode.outcome.evidence.sentenceIds)
    for (const s of gold.sentences) expect(s.status === 'committed').toBe(committed.has(s.sentenceId!))
    expect(gold.documents.length).toBeGreaterThan(0)
    // The path: the committed sentences in commit order, gold ones marked; looked-up entities as entity nodes.
    const sentencesOnPath = episode.path.filter((p) => p.role === 'committed')
    expect(sentencesOnPath.map((p) => p.node)).toEqual(episode.outcome.evidence.sentenceIds!.map((id) => `s:${id}`))
    const goldIds = new Set(gold.sentences.map((s) => `s:${s.sentenceId}`))
    for (const p of sentencesOnPath) expect(p.gold === 'sentence').toBe(goldIds.has(p.node))
    for (const p of episode.path) expect(p.node).toMatch(/^[spe]:\d+$/)
    const ts = episode.path.map((p) => p.t)
    expect(ts).toEqual([...ts].sort((a, b) => a - b))
    const lookups = episode.steps.filter((s) => s.action.kind === 'menu' && s.action.id.startsWith('L') && s.info.valid)
    expect(episode.path.filter((p) => p.role === 'looked-up').length).toBe(lookups.length)
    for (const s of episode.steps) expect(s.credit).toBeNull()

    // Harness-1: the curated documents as paragraph nodes.
    const h1 = await backend.call('runs.episode', { workspaceId, episodeId: (await page(harness1RunId)).episodes[0]!.id })
    const curated = h1.path.filter((p) => p.role === 'curated')
    expect(curated.length).toBeGreaterThan(0)
    for (const p of curated) expect(p).toMatchObject({ kind: 'paragraph', node: expect.stringMatching(/^p:\d+$/), title: expect.any(String) })
    expect(h1.goldEvidence.documents.length).toBeGreaterThan(0)

    // A training rollout: every replayed step carries the credit it received and its advantage.
    const rollout = await backend.call('runs.episode', { workspaceId, episodeId: (await page(trainRunId, { trainStep: 1 })).episodes[0]!.id })
    expect(rollout).toMatchObject({ runKind: 'train', trainStep: 1 })
    expect(rollout.steps.length).toBeGreaterThan(0)
    for (const s of rollout.steps) {
      expect(s.credit).toMatchObject({ total: expect.any(Number), frontier: expect.any(Number), enablement: expect.any(Number), gain: expect.any(Number), advantage: expect.any(Number) })
    }
    expect(rollout.steps.some((s) => s.credit!.advantage !== 0)).toBe(true)
  })
})
