/**
 * The routes over compact storage and the graph statistics, through the real dispatcher: an
 * evaluation job stores its episodes compactly, runs.storage reports their bytes, runs.prune asks
 * for the run's name and keeps per-question results, graph.stats validates its input.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startBackend, type TestBackend } from '../helpers/services'

let backend: TestBackend
let workspaceId: string
let runId: number

beforeAll(async () => {
  backend = await startBackend()
  workspaceId = (await backend.call('workspace.create', { name: 'storage' })).id
  const ingest = await backend.call('job.start', { kind: 'corpus.ingest', workspaceId, params: { source: { kind: 'demo', seed: 2, size: 0.3 } } })
  expect((await backend.services.jobs.waitFor(ingest.id)).status).toBe('done')
  const questionSetId = (await backend.call('questions.sets', { workspaceId }))[0]!.id
  const job = await backend.call('job.start', { kind: 'eval.run', workspaceId, params: { environment: 'graph-menu', policy: { kind: 'scripted', name: 'greedy' }, questionSetId, limit: 3 } })
  expect((await backend.services.jobs.waitFor(job.id)).status).toBe('done')
  runId = (await backend.call('runs.list', { workspaceId }))[0]!.id
}, 600_000)
afterAll(() => backend.close())

const failure = async (p: Promise<unknown>): Promise<{ code: string; message: string }> => {
  try {
    await p
  } catch (err) {
    return (err as { body: { code: string; message: string } }).body
  }
  throw new Error('expected the call to fail')
}

describe('runs.storage and runs.prune', () => {
  it('an evaluation stores its episodes compactly, and pruning keeps the per-question results', async () => {
    const [size] = (await backend.call('runs.storage', { workspaceId })).filter((s) => s.runId === runId)
    expect(size).toMatchObject({ runId, episodes: 3, pruned: 0 })
    expect(size!.bytes).toBeGreaterThan(0)
    const { episodes } = await backend.call('runs.episodes', { workspaceId, runId })
    const opened = await backend.call('runs.episode', { workspaceId, episodeId: episodes[0]!.id })
    expect(opened.steps.length).toBeGreaterThan(0)
    expect(opened.prunedAt).toBeNull()

    expect(await failure(backend.call('runs.prune', { workspaceId, runId, confirm: 'not its name' }))).toMatchObject({ code: 'VALIDATION' })
    expect(await failure(backend.call('runs.prune', { workspaceId, runId: 999_999, confirm: 'x' }))).toMatchObject({ code: 'NOT_FOUND' })
    expect(await failure(backend.call('runs.prune', { workspaceId, runId, confirm: 'x', extra: 1 } as never))).toMatchObject({ code: 'VALIDATION' })
    const run = (await backend.call('runs.list', { workspaceId })).find((r) => r.id === runId)!
    const pruned = await backend.call('runs.prune', { workspaceId, runId, confirm: run.name })
    expect(pruned).toMatchObject({ runId, pruned: 3, after: { episodes: 3, pruned: 3 } })
    expect(pruned.after.bytes).toBeLessThan(pruned.before.bytes)

    const after = await backend.call('runs.episodes', { workspaceId, runId })
    expect(after.episodes).toEqual(episodes)
    expect((await backend.call('runs.list', { workspaceId })).find((r) => r.id === runId)!.metrics).toEqual(run.metrics)
    const reopened = await backend.call('runs.episode', { workspaceId, episodeId: episodes[0]!.id })
    expect(reopened.steps).toEqual([])
    // The Trajectory view says why the steps are gone.
    expect(reopened.prunedAt).toEqual(expect.any(String))
  })
})

describe('graph.stats', () => {
  it('answers with counts, degrees, hubs and components, and refuses bad input', async () => {
    const stats = await backend.call('graph.stats', { workspaceId, top: 3 })
    expect(stats.counts.entities.total).toBeGreaterThan(0)
    expect(stats.components.length).toBeLessThanOrEqual(3)
    expect(stats.degrees.reduce((a, d) => a + d.entities, 0)).toBe(stats.counts.entities.total)
    expect(stats.hubMinDegree).toBeGreaterThan(0)
    expect(await failure(backend.call('graph.stats', { workspaceId, top: 0 }))).toMatchObject({ code: 'VALIDATION' })
    expect(await failure(backend.call('graph.stats', { workspaceId: 'no-such-workspace' } as never))).toMatchObject({ code: 'NOT_FOUND' })
  })
})
