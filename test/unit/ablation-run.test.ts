import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startBackend, type TestBackend } from '../helpers/services'

/**
 * An ablation through the API on the demo world, on a real workspace database and real job workers: the
 * base (graph-menu, greedy) against the oracle, the free-query environment, a LoRA row and a training row;
 * two seeds on the same four questions.
 */
describe('ablation matrix', () => {
  let backend: TestBackend
  let workspaceId: string
  let setId: number
  let ablationId: number

  beforeAll(async () => {
    backend = await startBackend()
    workspaceId = (await backend.call('workspace.create', { name: 'ablation' })).id
    const ingest = await backend.call('job.start', { kind: 'corpus.ingest', workspaceId, params: { source: { kind: 'demo', seed: 3, size: 0.5 } } })
    expect((await backend.services.jobs.waitFor(ingest.id)).status).toBe('done')
    setId = (await backend.call('questions.sets', { workspaceId }))[0]!.id
  }, 600_000)
  afterAll(() => backend.close())

  const base = () => ({ environment: 'graph-menu', policy: { kind: 'scripted' as const, name: 'greedy' }, questionSetId: setId, offset: 0, limit: 4, seeds: [1, 2], training: { offset: 10, limit: 6, steps: 2, groupSize: 2, questionsPerStep: 2, evalInterval: 1 } })

  it('refuses bad rows at once with a clear message, and keeps nothing', async () => {
    await expect(backend.call('ablations.save', { workspaceId, name: 'bad', config: { base: base(), rows: [{ label: 'typo', preset: 'no-such-preset' }] } })).rejects.toThrow(/no preset "no-such-preset"/)
    await expect(backend.call('ablations.save', { workspaceId, name: 'bad', config: { base: base(), rows: [{ label: 'typo', envConfig: { nope: 1 } }] } })).rejects.toThrow(/has no option "nope"/)
    expect(await backend.call('ablations.list', { workspaceId })).toEqual([])
  })

  it('runs every row and seed on the same questions as one job and stores paired results', async () => {
    const saved = await backend.call('ablations.save', {
      workspaceId,
      name: 'menu ablation',
      config: {
        base: base(),
        rows: [
          { label: 'oracle', group: 'policy', policy: { kind: 'scripted', name: 'oracle' } },
          { label: 'free query', group: 'menu vs free query', environment: 'free-query' },
          { label: 'GGUF + LoRA', group: 'policy', policy: { kind: 'llm-lora', modelPath: '/nowhere/m.gguf', loraPath: '/nowhere/a.gguf' } },
          { label: 'credit: outcome', group: 'credit', training: { credit: { scheme: 'outcome', lambda: 0.5 } } },
        ],
      },
    })
    ablationId = saved.id
    expect(saved.resolved.map((r) => [r.label, r.kind])).toEqual([['base', 'eval'], ['oracle', 'eval'], ['free query', 'eval'], ['GGUF + LoRA', 'eval'], ['credit: outcome', 'train']])
    expect(saved.resolved[3]!.unavailable).toMatch(/LoRA|No model file/)
    expect(saved.cells).toHaveLength(10)

    const job = await backend.call('job.start', { kind: 'ablation.run', workspaceId, params: { ablationId } })
    const done = await backend.services.jobs.waitFor(job.id)
    expect(done.status, done.error ?? '').toBe('done')

    const detail = await backend.call('ablations.get', { workspaceId, id: ablationId })
    expect(detail.status).toBe('done')
    expect(detail.ranOn?.corpusSignature).toBe(detail.corpusSignatureNow)
    const r = detail.results!
    // Same questions, same order, same seeds in every cell: 4 questions x 2 seeds.
    expect(r.keys).toHaveLength(8)
    expect(new Set(r.keys.map((k) => k.seed))).toEqual(new Set([1, 2]))
    const [b, oracle, free, lora, trained] = r.rows
    for (const row of [b!, oracle!, free!, trained!]) expect(Object.keys(row.episodes).sort()).toEqual(r.keys.map((k) => k.key).sort())
    expect(b!.cells['sp.recall']!.difference.count).toBe(0)
    // The oracle follows the gold: SP recall rises, and the interval says whether it excludes zero.
    const sp = oracle!.cells['sp.recall']!
    expect(sp.difference.mean!).toBeCloseTo(sp.value.mean! - b!.cells['sp.recall']!.value.mean!, 10)
    expect(sp.difference.count).toBe(4)
    expect(sp.difference.lower!).toBeLessThanOrEqual(sp.difference.mean!)
    expect(sp.difference.excludesZero).toBe(sp.difference.lower! > 0 || sp.difference.upper! < 0)
    // Every metric column, time and tokens included; an unavailable row says why in every cell.
    expect(r.metrics).toEqual(expect.arrayContaining(['answer.em.official', 'answer.f1.official', 'sp.recall', 'paragraph.recall', 'turns', 'episode.ms', 'episode.observationTokens']))
    expect(lora!.unavailable).toBeTruthy()
    expect(lora!.cells['sp.recall']!.reason).toMatch(/^Unavailable: /)
    expect(lora!.runIds).toEqual([])
    // Policy tokens: scripted policies report none, so the cell is empty with its reason.
    expect(b!.cells['episode.policyTokens']!.reason).toMatch(/Not measured/)
    expect(Object.keys(b!.toolMix).length).toBeGreaterThan(0)
    // The training row trained for each seed, then evaluated its head on the held-out split; its learning curves are stored.
    expect(trained!.trainRunIds).toHaveLength(2)
    expect(trained!.curves.map((c) => c.points.length)).toEqual([2, 2])
    expect(trained!.curves[0]!.points[0]!.heldOut).not.toBeNull()
  }, 600_000)

  it('reports a row that lacks some of the base questions instead of pairing silently', async () => {
    const detail = await backend.call('ablations.get', { workspaceId, id: ablationId })
    const oracleRunId = detail.results!.rows[1]!.runIds[0]!
    // Take two questions out of one of the oracle's runs, then compute the results again from what is stored.
    const { computeResults, storedAblation } = await import('../../main/experiments/ablation')
    const handle = await backend.services.workspaces.handle(workspaceId)
    const raw = handle.raw
    const victims = raw.prepare('select id from episodes where run_id = ? order by id limit 2').pluck().all(oracleRunId) as number[]
    for (const id of victims) raw.prepare('delete from episodes where id = ?').run(id)
    const { config, resolved } = storedAblation(raw, ablationId)
    const fresh = computeResults(raw, ablationId, config, resolved)
    const oracle = fresh.rows[1]!
    expect(oracle.missing.count).toBe(2)
    expect(oracle.missing.questions).toHaveLength(2)
    expect(oracle.cells['sp.recall']!.difference.count).toBe(4) // the other seed still pairs every question
    // The stored ablation is not that recomputation: it is what was stored when it finished.
    expect((await backend.call('ablations.get', { workspaceId, id: ablationId })).results!.rows[1]!.missing.count).toBe(0)
  })

  it('a finished ablation is unchanged after the corpus changes; re-running makes a copy', async () => {
    const before = await backend.call('ablations.get', { workspaceId, id: ablationId })
    const handle = await backend.services.workspaces.handle(workspaceId)
    // The corpus changes: a file's content hash changes and a question of the split disappears.
    handle.raw.prepare("update source_files set sha256 = 'changed' where id = (select min(id) from source_files)").run()
    handle.raw.prepare('delete from questions where id = (select min(id) from questions where set_id = ?)').run(setId)
    const after = await backend.call('ablations.get', { workspaceId, id: ablationId })
    expect(after.corpusSignatureNow).not.toBe(before.corpusSignatureNow)
    expect(after.ranOn).toEqual(before.ranOn)
    expect(after.results).toEqual(before.results)
    expect(after.config).toEqual(before.config)
    await expect(backend.call('job.start', { kind: 'ablation.run', workspaceId, params: { ablationId } })).rejects.toThrow(/is finished; re-run it/)
    const copy = await backend.call('ablations.rerun', { workspaceId, id: ablationId })
    expect(copy).toMatchObject({ name: 'menu ablation', status: 'saved', rerunOf: ablationId, results: null })
    expect((await backend.call('ablations.list', { workspaceId })).map((a) => a.id)).toEqual([copy.id, ablationId])
  })

  it('survives a cancel: finished cells stay, and running it again resumes the training run from its last step', async () => {
    const saved = await backend.call('ablations.save', {
      workspaceId,
      name: 'cancel and resume',
      config: { base: { ...base(), offset: 1, seeds: [1], training: { ...base().training, steps: 30, evalInterval: 10 } }, rows: [{ label: 'estimator: rloo', training: { estimator: 'rloo' } }], parallel: 1 },
    })
    const job = await backend.call('job.start', { kind: 'ablation.run', workspaceId, params: { ablationId: saved.id } })
    // A second job on the same ablation would write the same cells: refused while the first is queued or running.
    await expect(backend.call('job.start', { kind: 'ablation.run', workspaceId, params: { ablationId: saved.id } })).rejects.toThrow(/is already (queued|running)/)
    // Cancel once the training row has stored a step (its progress says step 2 or later is under way). Progress
    // events are throttled, so any later step counts; the job ending first fails here instead of hanging.
    await new Promise<void>((resolve, reject) => {
      const off = backend.services.events.subscribe((name, p) => {
        const progress = p as { jobId?: string; id?: string; status?: string; message?: string }
        const step = name === 'job.progress' && progress.jobId === job.id ? /training Step (\d+)\//.exec(progress.message ?? '') : null
        if (step && Number(step[1]) >= 2) {
          off()
          resolve()
        } else if (name === 'job.status' && progress.id === job.id && ['done', 'failed', 'cancelled'].includes(progress.status ?? '')) {
          off()
          reject(new Error(`the job ended (${progress.status}) before its training row reported step 2`))
        }
      })
    })
    await backend.call('job.cancel', { id: job.id })
    expect((await backend.services.jobs.waitFor(job.id)).status).toBe('cancelled')
    const stopped = await backend.call('ablations.get', { workspaceId, id: saved.id })
    expect(stopped.status).toBe('cancelled')
    expect(stopped.results).toBeNull()
    expect(stopped.cells.find((c) => c.row === 0)!.status).toBe('done')
    const training = stopped.cells.find((c) => c.row === 1)!
    expect(training.status).toBe('pending')
    expect(training.trainRunId).not.toBeNull()

    const again = await backend.call('job.start', { kind: 'ablation.run', workspaceId, params: { ablationId: saved.id } })
    const done = await backend.services.jobs.waitFor(again.id)
    expect(done.status, done.error ?? '').toBe('done')
    const finished = await backend.call('ablations.get', { workspaceId, id: saved.id })
    expect(finished.status).toBe('done')
    const row = finished.results!.rows[1]!
    // The same training run, continued: one run, every step once.
    expect(row.trainRunIds).toEqual([training.trainRunId])
    expect(row.curves[0]!.points.map((p) => p.step)).toEqual(Array.from({ length: 30 }, (_, i) => i))
    // The base cell was not run twice.
    expect(finished.cells.find((c) => c.row === 0)!.runId).toBe(stopped.cells.find((c) => c.row === 0)!.runId)
  }, 600_000)

  it('runs Harness-1 switches as rows, keeps the reward terms as columns, and says why SNC credit cannot run there', async () => {
    const saved = await backend.call('ablations.save', {
      workspaceId,
      name: 'harness-1 switches',
      config: {
        base: { environment: 'stateful', policy: { kind: 'scripted', name: 'scripted-tools' }, questionSetId: setId, offset: 2, limit: 3, seeds: [1] },
        rows: [
          { label: 'w/o auto-seeding', group: 'Harness-1 switches', preset: 'no-auto-seed' },
          { label: 'all off', group: 'Harness-1 switches', preset: 'all-off' },
          { label: 'transcript', group: 'Environment', environment: 'transcript' },
          { label: 'head before training', group: 'Policy', policy: { kind: 'head', stage: 'before' } },
          { label: 'credit: SNC', group: 'Credit', training: { credit: { scheme: 'snc', lambda: 0.5 } } },
          { label: 'w/o tool diversity', group: 'Reward weights', rewardWeights: { diversity: 0, toolShortfall: 0 } },
        ],
      },
    })
    expect(saved.resolved[1]!.envConfig).toMatchObject({ autoSeed: false })
    expect(saved.resolved[5]!.unavailable).toMatch(/reads menu previews/)
    const job = await backend.call('job.start', { kind: 'ablation.run', workspaceId, params: { ablationId: saved.id } })
    const done = await backend.services.jobs.waitFor(job.id)
    expect(done.status, done.error ?? '').toBe('done')
    const r = (await backend.call('ablations.get', { workspaceId, id: saved.id })).results!
    expect(r.metrics).toEqual(expect.arrayContaining(['reward.total', 'reward.curatedFBeta', 'harness1.answerRecall', 'paragraph.recall']))
    // Harness-1 stores no supporting-fact metrics (it curates documents): the column is not there rather than empty.
    expect(r.metrics).not.toContain('sp.recall')
    for (const row of r.rows.slice(0, 5)) {
      expect(row.error).toBeNull()
      expect(Object.keys(row.episodes)).toHaveLength(3)
      expect(row.cells['reward.total']!.difference.count).toBe(row.index === 0 ? 0 : 3)
    }
    expect(Object.keys(r.rows[0]!.toolMix)).toEqual(expect.arrayContaining(['end_search']))
    // The transcript shows the policy more observation tokens than the working memory does, on the same questions.
    expect(r.rows[3]!.cells['episode.observationTokens']!.difference.mean!).toBeGreaterThan(0)
    expect(r.rows[5]!.cells['reward.total']!.reason).toMatch(/^Unavailable: .*reads menu previews/)
    // Reward weights change the score of the same behaviour: the same turns, no diversity term.
    const weights = r.rows[6]!
    expect(weights.cells['turns']!.difference).toMatchObject({ mean: 0, count: 3 })
    expect(weights.cells['reward.toolDiversity']!.value.mean).toBe(0)
    expect(r.rows[0]!.cells['reward.toolDiversity']!.value.mean!).toBeGreaterThan(0)
  }, 600_000)

  it('runs on a stored split of the set: every cell evaluates exactly that split', async () => {
    const onSplit = { ...base(), split: 'test', limit: 100, seeds: [1] }
    // The demo arrives split: start this set from no split.
    const { raw } = await backend.services.workspaces.handle(workspaceId)
    raw.prepare('update questions set split = null where set_id = ?').run(setId)
    await expect(backend.call('ablations.save', { workspaceId, name: 'no split yet', config: { base: onSplit, rows: [{ label: 'oracle', policy: { kind: 'scripted', name: 'oracle' } }] } })).rejects.toThrow(/split test/)
    const detail = await backend.call('questions.split', { workspaceId, setId, spec: { method: 'ratio', seed: 1, ratios: { train: 8, dev: 1, test: 1 } } })
    const test = detail.splits.find((x) => x.name === 'test')!.count
    expect(test).toBeGreaterThan(0)
    const saved = await backend.call('ablations.save', { workspaceId, name: 'on the test split', config: { base: onSplit, rows: [{ label: 'oracle', policy: { kind: 'scripted', name: 'oracle' } }] } })
    const job = await backend.call('job.start', { kind: 'ablation.run', workspaceId, params: { ablationId: saved.id } })
    const done = await backend.services.jobs.waitFor(job.id)
    expect(done.status, done.error ?? '').toBe('done')
    const results = (await backend.call('ablations.get', { workspaceId, id: saved.id })).results!
    expect(results.keys).toHaveLength(test)
    // The split is now frozen: the cells' runs used it.
    await expect(backend.call('questions.split', { workspaceId, setId, spec: { method: 'ratio', seed: 2, ratios: { train: 1, dev: 1, test: 1 } } })).rejects.toThrow(/used by runs/)
  }, 600_000)
})
