import { describe, expect, it } from 'vitest'
import { assignSplits, DEMO_SPLIT, splitSizes } from '../../main/questions'
import { startBackend, tempDir } from '../helpers/services'

describe('split sizes and assignment', () => {
  it('sizes add up exactly and follow the ratios', () => {
    expect(splitSizes(10, { train: 8, dev: 1, test: 1 })).toEqual({ train: 8, dev: 1, test: 1 })
    expect(splitSizes(7, { train: 1, dev: 1, test: 1 })).toEqual({ train: 3, dev: 2, test: 2 })
    expect(splitSizes(5, { train: 1, dev: 0, test: 1 })).toEqual({ train: 3, dev: 0, test: 2 })
  })

  it('a seeded shuffle: the same seed gives the same splits, another seed others', () => {
    const qs = Array.from({ length: 50 }, (_, i) => ({ id: i + 1, type: null, meta_json: null }))
    const spec = { method: 'ratio' as const, seed: 3, ratios: { train: 6, dev: 2, test: 2 } }
    const a = assignSplits(qs, spec)
    expect(assignSplits([...qs].reverse(), spec)).toEqual(a)
    expect([...a.values()].filter((s) => s === 'test')).toHaveLength(10)
    expect([...assignSplits(qs, { ...spec, seed: 4 }).entries()]).not.toEqual([...a.entries()])
  })
})

describe('splits stored with the set, chosen by evaluations, frozen once used', () => {
  it('splits survive a restart, an evaluation runs on exactly its split, and re-splitting is then refused naming the run', async () => {
    const tmp = tempDir('harness-lab-qsplit-')
    let backend = await startBackend(tmp.dir)
    try {
      const workspaceId = (await backend.call('workspace.create', { name: 'splits' })).id
      const ingest = await backend.call('job.start', { kind: 'corpus.ingest', workspaceId, params: { source: { kind: 'demo', seed: 2, size: 0.5 } } })
      expect((await backend.services.jobs.waitFor(ingest.id)).status).toBe('done')
      const setId = (await backend.call('questions.sets', { workspaceId }))[0]!.id

      // The demo arrives split 2:1:1, so its test and dev (held-out) sets are large enough for informative CIs.
      const arrived = await backend.call('questions.set', { workspaceId, setId })
      expect(arrived.splitSpec).toEqual(DEMO_SPLIT)
      const sizes = splitSizes(arrived.questions, { train: 2, dev: 1, test: 1 })
      expect(arrived.splits).toEqual([{ name: 'dev', count: sizes.dev }, { name: 'test', count: sizes.test }, { name: 'train', count: sizes.train }])
      expect(arrived.unassigned).toBe(0)

      const detail = await backend.call('questions.split', { workspaceId, setId, spec: { method: 'ratio', seed: 5, ratios: { train: 3, dev: 1, test: 1 } } })
      const total = detail.questions
      expect(detail.splits.reduce((a, s) => a + s.count, 0)).toBe(total)
      const testIds = async () => (await backend.call('questions.search', { workspaceId, setId, filter: { split: 'test' }, limit: 500 })).questions.map((q) => q.id)
      const before = await testIds()
      expect(before.length).toBe(detail.splits.find((s) => s.name === 'test')!.count)

      // Re-splitting with another seed before any run is allowed; the original seed gives back the same split.
      await backend.call('questions.split', { workspaceId, setId, spec: { method: 'ratio', seed: 6, ratios: { train: 3, dev: 1, test: 1 } } })
      expect(await testIds()).not.toEqual(before)
      await backend.call('questions.split', { workspaceId, setId, spec: { method: 'ratio', seed: 5, ratios: { train: 3, dev: 1, test: 1 } } })
      expect(await testIds()).toEqual(before)

      // Stable across a restart of the backend (a reload of the database).
      await backend.close()
      backend = await startBackend(tmp.dir)
      expect(await testIds()).toEqual(before)

      await expect(backend.call('job.start', { kind: 'eval.run', workspaceId, params: { environment: 'graph-menu', policy: { kind: 'scripted', name: 'greedy' }, questionSetId: setId, split: 'holdout' } })).rejects.toThrow(/no split "holdout" \(its splits: dev \d+, test \d+, train \d+\)/)
      const job = await backend.call('job.start', { kind: 'eval.run', workspaceId, params: { name: 'on test', environment: 'graph-menu', policy: { kind: 'scripted', name: 'greedy' }, questionSetId: setId, split: 'test', limit: 1000 } })
      const done = await backend.services.jobs.waitFor(job.id)
      expect(done.status, done.error ?? '').toBe('done')
      const runId = (await backend.call('runs.list', { workspaceId }))[0]!.id
      const episodes = await backend.call('runs.episodes', { workspaceId, runId, limit: 1000 })
      expect(episodes.episodes.map((e) => e.questionId).sort((a, b) => a! - b!)).toEqual([...before].sort((a, b) => a - b))

      // A training run chooses its train and held-out splits by name (same offsets, disjoint splits: no overlap).
      const train = await backend.call('job.start', {
        kind: 'train.run',
        workspaceId,
        params: { mode: 'new', config: { name: 'split run', environment: 'graph-menu', steps: 1, groupSize: 2, questionsPerStep: 2, evalInterval: 1, train: { questionSetId: setId, split: 'train', limit: 4 }, heldOut: { questionSetId: setId, split: 'test', limit: 3 } } },
      })
      const trained = await backend.services.jobs.waitFor(train.id)
      expect(trained.status, trained.error ?? '').toBe('done')
      const trainRunId = (await backend.call('runs.list', { workspaceId }))[0]!.id
      const trainIds = (await backend.call('questions.search', { workspaceId, setId, filter: { split: 'train' }, limit: 500 })).questions.map((q) => q.id)
      const rollouts = await backend.call('runs.episodes', { workspaceId, runId: trainRunId, limit: 1000 })
      expect(rollouts.episodes.length).toBeGreaterThan(0)
      for (const e of rollouts.episodes) expect(trainIds).toContain(e.questionId)

      // Frozen: the set names the runs, and re-splitting or deleting a split question is refused with the run's name.
      expect((await backend.call('questions.set', { workspaceId, setId })).usedBy).toEqual([
        { runId, name: 'on test', kind: 'eval', split: 'test' },
        { runId: trainRunId, name: 'split run', kind: 'train', split: 'test' },
        { runId: trainRunId, name: 'split run', kind: 'train', split: 'train' },
      ])
      await expect(backend.call('questions.split', { workspaceId, setId, spec: { method: 'ratio', seed: 9, ratios: { train: 1, dev: 1, test: 1 } } })).rejects.toThrow(`used by runs #${runId} on test (test); #${trainRunId} split run (test, train); a split never changes`)
      await expect(backend.call('questions.delete', { workspaceId, setId, questionId: before[0]! })).rejects.toThrow(/a split never changes once a run has used it/)
      expect(await testIds()).toEqual(before)

      // The question's episodes across runs, for the Questions page.
      const qe = await backend.call('questions.episodes', { workspaceId, questionId: before[0]! })
      expect(qe.map((e) => e.runId)).toEqual([runId])
    } finally {
      await backend.close()
      tmp.cleanup()
    }
  }, 600_000)

  it('splits by a field of the imported rows', async () => {
    const backend = await startBackend()
    try {
      const workspaceId = (await backend.call('workspace.create', { name: 'field' })).id
      const rows = [
        { question: 'a?', answer: 'x', split: 'train' },
        { question: 'b?', answer: 'y', split: 'test' },
        { question: 'c?', answer: 'z' },
      ]
      const { setId } = await backend.call('questions.import', { workspaceId, name: 'f', content: rows.map((r) => JSON.stringify(r)).join('\n'), fileName: 'f.jsonl' })
      // Before any split, every question is in no split, and the set says so.
      expect((await backend.call('questions.set', { workspaceId, setId })).unassigned).toBe(3)
      // Evaluating a split before the set has splits is a clear validation error.
      await expect(backend.call('job.start', { kind: 'eval.run', workspaceId, params: { environment: 'graph-menu', policy: { kind: 'scripted', name: 'greedy' }, questionSetId: setId, split: 'test' } })).rejects.toThrow(/has no splits yet/)
      const d = await backend.call('questions.split', { workspaceId, setId, spec: { method: 'field', field: 'split' } })
      expect(d.splits).toEqual([
        { name: 'test', count: 1 },
        { name: 'train', count: 1 },
      ])
      expect(d.unassigned).toBe(1)
      await expect(backend.call('questions.split', { workspaceId, setId, spec: { method: 'field', field: 'fold' } })).rejects.toThrow(/No question of set \d+ has a value in field "fold"/)
    } finally {
      await backend.close()
    }
  }, 600_000)
})
