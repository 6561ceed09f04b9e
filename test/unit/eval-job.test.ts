import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startBackend, type TestBackend } from '../helpers/services'

describe('evaluation job', () => {
  let backend: TestBackend
  let workspaceId: string
  let setId: number

  beforeAll(async () => {
    backend = await startBackend()
    workspaceId = (await backend.call('workspace.create', { name: 'eval' })).id
    const ingest = await backend.call('job.start', { kind: 'corpus.ingest', workspaceId, params: { source: { kind: 'demo', seed: 2, size: 0.5 } } })
    expect((await backend.services.jobs.waitFor(ingest.id)).status).toBe('done')
    setId = (await backend.call('questions.sets', { workspaceId }))[0]!.id
  }, 600_000)
  afterAll(() => backend.close())

  const evaluate = async (environment: string, policy: string, limit = 6) => {
    const job = await backend.call('job.start', { kind: 'eval.run', workspaceId, params: { environment, policy: { kind: 'scripted', name: policy }, questionSetId: setId, limit } })
    return backend.services.jobs.waitFor(job.id)
  }

  it('offers every registered environment and the scripted policies', async () => {
    const catalog = await backend.call('harness.catalog', {})
    expect(catalog.environments.map((e) => e.name)).toEqual(expect.arrayContaining(['graph-menu', 'free-query', 'stateful', 'transcript']))
    // Graph-menu comes first: the evaluation form's default, as it is training's.
    expect(catalog.environments[0]!.name).toBe('graph-menu')
    expect((await backend.call('training.catalog', {})).defaults.environment).toBe('graph-menu')
    expect(catalog.scriptedPolicies.map((p) => p.name)).toEqual(expect.arrayContaining(['greedy', 'random', 'oracle', 'scripted-tools']))
    // Environments declare themselves: no caller needs to know which name is which kind.
    const byName = new Map(catalog.environments.map((e) => [e.name, e]))
    expect(byName.get('graph-menu')).toMatchObject({ family: 'harness-g', actionKind: 'menu', protocol: 'sentence-menu', rewardScheme: null })
    expect(byName.get('free-query')).toMatchObject({ family: 'harness-g', actionKind: 'tools', protocol: 'sentence-search' })
    expect(byName.get('stateful')).toMatchObject({ family: 'harness-1', protocol: 'harness1-tools', rewardScheme: 'harness1' })
    expect(byName.get('stateful')!.presets.map((p) => p.name)).toEqual(expect.arrayContaining(['full', 'all-off']))
  })

  it('runs greedy and oracle in the menu environment, storing every episode with its steps and menus', async () => {
    for (const policy of ['greedy', 'oracle']) {
      const done = await evaluate('graph-menu', policy)
      expect(done.status, done.error ?? '').toBe('done')
    }
    const runs = await backend.call('runs.list', { workspaceId })
    const [oracle, greedy] = runs
    expect(oracle!.episodes).toBe(6)
    expect(oracle!.metrics['sp.recall']!.mean).toBeGreaterThan(greedy!.metrics['sp.recall']!.mean ?? 0)
    expect(oracle!.config).toMatchObject({ environment: 'graph-menu', answerer: { lexical: true, name: 'lexical stand-in' } })
    const episodes = await backend.call('runs.episodes', { workspaceId, runId: greedy!.id })
    expect(episodes.total).toBe(6)
    const episode = await backend.call('runs.episode', { workspaceId, episodeId: episodes.episodes[0]!.id })
    expect(episode.steps.length).toBe(episode.turns)
    const first = episode.steps[0]!
    expect(first.actions).toMatchObject({ kind: 'menu' })
    expect(Object.keys(first.previews as object).length).toBe((first.actions as { items: unknown[] }).items.length)

    // The oracle against greedy, paired by question: a positive difference on supporting-fact recall.
    const cmp = await backend.call('runs.compare', { workspaceId, baselineRunId: greedy!.id, runIds: [oracle!.id], metric: 'sp.recall' })
    expect(cmp.metrics).toContain('answer.f1.graphr1')
    const [c] = cmp.comparisons
    expect(c).toMatchObject({ runId: oracle!.id, count: 6 })
    expect(c!.meanDifference).toBeCloseTo((oracle!.metrics['sp.recall']!.mean ?? 0) - (greedy!.metrics['sp.recall']!.mean ?? 0), 10)
    expect(c!.lower!).toBeLessThanOrEqual(c!.meanDifference!)
    expect(c!.wins + c!.ties + c!.losses).toBe(6)
  })

  it('runs the scripted tool policy in Harness-1 and the free-query baseline', async () => {
    expect((await evaluate('stateful', 'scripted-tools', 4)).status).toBe('done')
    expect((await evaluate('free-query', 'greedy', 4)).status).toBe('done')
    const [freeQuery, stateful] = await backend.call('runs.list', { workspaceId })
    expect(stateful!.metrics['paragraph.recall']!.mean).toBeGreaterThan(0)
    // Harness-1's reward is stored term by term with the published weights.
    expect(stateful!.metrics['reward.total']!.mean).toBeGreaterThan(0)
    expect(Object.keys(stateful!.metrics).filter((k) => k.startsWith('reward.')).length).toBeGreaterThan(5)
    expect(freeQuery!.config).toMatchObject({ environment: 'free-query' })
  })

  it('can be cancelled mid-run: the run keeps its finished episodes and says it was cancelled', async () => {
    const job = await backend.call('job.start', { kind: 'eval.run', workspaceId, params: { environment: 'graph-menu', policy: { kind: 'scripted', name: 'random' }, questionSetId: setId, limit: 40 } })
    await new Promise<void>((resolve) => {
      const off = backend.services.events.subscribe((name, p) => {
        if (name === 'job.progress' && (p as { jobId: string; progress: number }).jobId === job.id && (p as { progress: number }).progress > 0.05) {
          off()
          resolve()
        }
      })
    })
    await backend.call('job.cancel', { id: job.id })
    expect((await backend.services.jobs.waitFor(job.id)).status).toBe('cancelled')
    const [run] = await backend.call('runs.list', { workspaceId })
    expect(run!.status).toBe('cancelled')
    expect(run!.episodes).toBeGreaterThan(0)
    expect(run!.episodes).toBeLessThan(40)
  })

  it('refuses a bad evaluation before queueing it, with a clear validation error', async () => {
    const start = (params: Record<string, unknown>) =>
      backend.call('job.start', { kind: 'eval.run', workspaceId, params: { environment: 'graph-menu', policy: { kind: 'scripted', name: 'greedy' }, questionSetId: setId, ...params } as never })
    const refused = async (params: Record<string, unknown>, message: RegExp) =>
      expect(start(params)).rejects.toMatchObject({ body: { code: 'VALIDATION', message: expect.stringMatching(message) } })
    const before = (await backend.call('job.list', { workspaceId })).length
    await refused({ environment: 'stateful' }, /greedy drives sentence-menu and sentence-search environments, not harness1-tools/)
    await refused({ environment: 'no-such-env' }, /Unknown environment/)
    await refused({ envConfig: { toString: 1 } }, /no option "toString"/)
    await refused({ envConfig: { turnLimit: -3 } }, /turnLimit/)
    await refused({ policy: { kind: 'scripted', name: 'clever' } }, /Unknown scripted policy/)
    await refused({ policy: { kind: 'llm', modelPath: '/nowhere/model.gguf' } }, /No model file/)
    await refused({ environment: 'stateful', policy: { kind: 'scripted', name: 'scripted-tools' }, rewardWeights: { beta: -1 } }, /reward weights/)
    await refused({ offset: 100_000 }, /no questions/)
    expect((await backend.call('job.list', { workspaceId })).length).toBe(before)
    expect((await backend.call('runs.list', { workspaceId })).every((r) => r.status !== 'failed')).toBe(true)
  })
})
