/**
 * The training routes over the real dispatcher and a real workspace database: the catalogue, saved
 * configs (round trip, bad configs refused with a clear message), and one tiny real training run read
 * back through training.runs / training.run / training.rollouts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dispatch } from '../../main/api/dispatch'
import { createHandlers } from '../../main/api/handlers'
import { trainingHandlers } from '../../main/api/handlers/training'
import { defaultIngestOptions, runIngest } from '../../main/ingest/run'
import { runTraining } from '../../main/experiments/training'
import { LexicalAnswerer } from '../../main/policy/answerer/lexical-answerer'
import { environmentCatalog } from '../../main/harness'
import { HEAD_PROTOCOLS } from '../../main/policy/head-policy'
import { creditNames } from '../../main/rl/credit'
import { estimatorNames } from '../../main/rl/estimators'
import { lossNames } from '../../main/rl/losses'
import { REWARD_PRESETS, rewardTermNames } from '../../main/rl/reward-schemes'
import { PUBLISHED_HARNESS1_WEIGHTS } from '../../main/rl/rewards'
import { PROTOCOL_TRAINING_DEFAULTS, SavedTrainConfigSchema, trainingRoutes, type Envelope, type RouteOutput } from '../../preload/contract'
import { quiet } from '../helpers/corpus'
import { startBackend, type TestBackend } from '../helpers/services'

describe('training API', () => {
  let backend: TestBackend
  let handlers: ReturnType<typeof createHandlers>
  let workspaceId: string
  let total = 0
  const call = (route: string, input: unknown): Promise<Envelope<unknown>> => dispatch(handlers, route, input)
  const failure = async (route: string, input: unknown) => {
    const env = await call(route, input)
    expect(env.ok, `${route} should refuse ${JSON.stringify(input).slice(0, 200)}`).toBe(false)
    if (env.ok) throw new Error('unreachable')
    return { ...env.error, text: `${env.error.message} ${(env.error.issues ?? []).join('; ')}` }
  }

  beforeAll(async () => {
    backend = await startBackend()
    handlers = createHandlers(backend.services, { mode: 'cli' })
    workspaceId = (await backend.call('workspace.create', { name: 'training api' })).id
    const { raw } = await backend.services.workspaces.handle(workspaceId)
    await runIngest(raw, { kind: 'demo', seed: 2, size: 0.5 }, defaultIngestOptions(), quiet)
    total = Number(raw.prepare('select count(*) from questions').pluck().get())
  }, 600_000)
  afterAll(() => backend?.close())

  it('answers exactly the training routes from its handler group', () => {
    expect(Object.keys(trainingHandlers(backend.services)).sort()).toEqual(Object.keys(trainingRoutes).sort())
  })

  it('serves a catalogue of every registered term, scheme, estimator and loss, with the defaults and the environments the head drives', async () => {
    const c = await backend.call('training.catalog', {})
    expect(c.rewardTerms.map((t) => t.name).sort()).toEqual(rewardTermNames().sort())
    expect(c.rewardTerms.find((t) => t.name === 'sp.f1')).toMatchObject({ label: 'Supporting-fact F1', defaultWeight: 1, warning: null })
    for (const name of ['sp.recall', 'paragraph.recall']) expect(c.rewardTerms.find((t) => t.name === name)!.warning).toMatch(/recall/i)
    expect(c.rewardPresets.map((p) => p.name)).toEqual(REWARD_PRESETS.map((p) => p.name))
    expect(Object.fromEntries(c.harness1Weights.map((w) => [w.name, w.published]))).toEqual({ ...PUBLISHED_HARNESS1_WEIGHTS })
    for (const w of c.harness1Weights) expect(w.description.length, w.name).toBeGreaterThan(5)
    expect(c.credit.map((x) => x.name)).toEqual(creditNames())
    expect(c.estimators.map((x) => x.name)).toEqual(estimatorNames())
    expect(c.losses.map((x) => x.name)).toEqual(lossNames())
    for (const list of [c.credit, c.estimators, c.losses]) for (const x of list) expect(x.description, x.name).not.toMatch(/no description/)
    expect(c.losses.find((l) => l.name === 'ppo-clip')!.params.map((p) => [p.key, p.default])).toEqual([['clipEps', 0.2], ['dualClip', 3]])
    expect(c.losses.find((l) => l.name === 'cispo')!.params.map((p) => [p.key, p.default])).toEqual([['cispoLow', 0], ['cispoHigh', 5]])
    expect(c.losses.find((l) => l.name === 'reinforce')!.params).toEqual([])
    // Bounds and capabilities come from the declarations: the dual clip must exceed 1 or be off; outcome credit needs no menu.
    expect(c.losses.find((l) => l.name === 'ppo-clip')!.params[1]).toMatchObject({ key: 'dualClip', min: 1, minExclusive: true, max: null, nullable: true })
    expect(c.credit.find((x) => x.name === 'outcome')).toMatchObject({ needsPreviews: false, usesLambda: false })
    expect(c.credit.find((x) => x.name === 'snc')).toMatchObject({ needsPreviews: true, usesLambda: true })
    // The defaults name the first head-driven environment's protocol's credit and estimator (the contract's one table).
    expect(c.defaults).toEqual(SavedTrainConfigSchema.parse({ environment: 'graph-menu', credit: { scheme: PROTOCOL_TRAINING_DEFAULTS['sentence-menu'].credit }, estimator: PROTOCOL_TRAINING_DEFAULTS['sentence-menu'].estimator }))
    const driven = environmentCatalog().filter((e) => (HEAD_PROTOCOLS as string[]).includes(e.protocol)).map((e) => e.name)
    expect(c.environments.filter((e) => e.headDriven).map((e) => e.name)).toEqual(driven)
    expect(driven).toEqual(expect.arrayContaining(['graph-menu', 'free-query']))
    expect(c.headProtocols).toEqual(HEAD_PROTOCOLS)
    expect(c.metrics.find((m) => m.name === 'sp.allGold')).toMatchObject({ format: 'fraction', direction: 'higher' })
  })

  it('saves, lists, replaces and deletes named configs', async () => {
    const config = { environment: 'graph-menu', groupSize: 2, questionsPerStep: 2, steps: 3, credit: { scheme: 'outcome', lambda: 0 }, reward: { weights: { 'sp.f1': 1, 'cost.turn': 0.02 } } }
    const saved = await backend.call('training.configs.save', { workspaceId, name: '  tiny  ', config })
    expect(saved.name).toBe('tiny')
    expect(saved.config).toMatchObject({ groupSize: 2, loss: { name: 'cispo', cispoHigh: 5 }, reward: { weights: { 'sp.f1': 1, 'cost.turn': 0.02 }, normalisation: 'official' } })
    // Credit and estimator left out are the protocol's (free query has no previews: outcome), stored resolved.
    const another = await backend.call('training.configs.save', { workspaceId, name: 'another', config: { environment: 'free-query' } })
    expect(another.config).toMatchObject({ credit: { scheme: PROTOCOL_TRAINING_DEFAULTS['sentence-search'].credit }, estimator: PROTOCOL_TRAINING_DEFAULTS['sentence-search'].estimator })
    expect(another.config!.credit.scheme).toBe('outcome')
    expect((await backend.call('training.configs.list', { workspaceId })).map((r) => r.name)).toEqual(['another', 'tiny'])
    const replaced = await backend.call('training.configs.save', { workspaceId, name: 'tiny', config: { ...config, steps: 7 } })
    expect(replaced.config!.steps).toBe(7)
    expect(replaced.createdAt).toBe(saved.createdAt)
    expect((await backend.call('training.configs.list', { workspaceId })).length).toBe(2)
    expect(await backend.call('training.configs.delete', { workspaceId, name: 'another' })).toEqual({ deleted: 'another' })
    expect((await backend.call('training.configs.list', { workspaceId })).map((r) => r.name)).toEqual(['tiny'])
    expect(await failure('training.configs.delete', { workspaceId, name: 'another' })).toMatchObject({ code: 'NOT_FOUND', message: 'No saved training config named "another"' })
  })

  it('refuses bad input and bad configs with messages that name the problem', async () => {
    const base = { environment: 'graph-menu' }
    const bad = async (config: unknown, pattern: RegExp, code = 'VALIDATION') => {
      const e = await failure('training.configs.save', { workspaceId, name: 'bad', config })
      expect(e.code).toBe(code)
      expect(e.text).toMatch(pattern)
    }
    await bad({ ...base, groupSize: 0 }, /config\.groupSize: .*>=1/)
    await bad({ ...base, train: { questionSetId: 1, limit: 5 } }, /Unrecognized key.*train/)
    await bad({ ...base, learningRate: -1 }, /config\.learningRate/)
    await bad({ ...base, reward: { weights: { 'sp.f2': 1 } } }, /Reward: Unknown reward term "sp\.f2"; known: .*sp\.f1/)
    await bad({ ...base, reward: { weights: { 'sp.f1': 0 } } }, /Reward: The reward weighs no term/)
    await bad({ ...base, reward: { weights: { harness1: 1 }, harness1Weights: { beta: -2 } } }, /Reward: Invalid Harness-1 reward weights: beta/)
    await bad({ ...base, credit: { scheme: 'magic', lambda: 1 } }, /Credit: unknown credit scheme "magic"/)
    await bad({ environment: 'free-query', credit: { scheme: 'snc', lambda: 0.5 } }, /Credit: "snc" reads menu previews; free-query has none: use "outcome"/)
    const undriven = environmentCatalog().find((e) => !(HEAD_PROTOCOLS as string[]).includes(e.protocol))
    if (undriven) await bad({ environment: undriven.name, credit: { scheme: 'outcome', lambda: 0 } }, new RegExp(`Environment: The policy head does not drive ${undriven.protocol} environments`))
    await bad({ environment: 'nowhere' }, /Environment: Unknown environment "nowhere"/)
    await bad({ ...base, envConfig: { bogus: 1 } }, /Environment: Environment graph-menu has no option "bogus"/)
    await bad({ ...base, estimator: 'nope' }, /Estimator: unknown advantage estimator "nope"/)
    await bad({ ...base, loss: { name: 'ppo-clip', dualClip: 1 } }, /Loss: the dual clip C must exceed 1/)
    await bad({ ...base, loss: { name: 'cispo', cispoLow: 3, cispoHigh: 2 } }, /Loss: the CISPO clip needs lo <= hi, got \[3, 2\]/)
    expect((await failure('training.configs.save', { workspaceId, name: '   ', config: base })).text).toMatch(/name: give the config a name/)
    expect((await failure('training.configs.list', { workspaceId: 'missing' })).code).toBe('NOT_FOUND')
    expect((await failure('training.run', { workspaceId, runId: 0 })).code).toBe('VALIDATION')
    expect(await failure('training.run', { workspaceId, runId: 999 })).toMatchObject({ code: 'NOT_FOUND', message: 'No training run #999' })
    expect((await failure('training.rollouts', { workspaceId, runId: 1, step: -1 })).code).toBe('VALIDATION')
    expect((await backend.call('training.configs.list', { workspaceId })).map((r) => r.name)).not.toContain('bad')
  })

  it('job.start refuses overlapping train and held-out ranges with a clear message', async () => {
    const config = { environment: 'graph-menu', train: { questionSetId: 1, offset: 0, limit: 20 }, heldOut: { questionSetId: 1, offset: 15, limit: 10 } }
    const e = await failure('job.start', { kind: 'train.run', workspaceId, params: { mode: 'new', config } })
    expect(e).toMatchObject({ code: 'VALIDATION' })
    expect(e.message).toBe('The train split (questions 0..19) and the held-out split (15..24) of set 1 overlap by 5: held-out questions must never be trained on')
  })

  it('job.start (the API and the CLI) refuses a loss clip outside its declared bounds, as a saved config does', async () => {
    const splits = { train: { questionSetId: 1, offset: 0, limit: 10 }, heldOut: { questionSetId: 1, offset: 10, limit: 5 } }
    const start = (loss: Record<string, unknown>) => failure('job.start', { kind: 'train.run', workspaceId, params: { mode: 'new', config: { environment: 'graph-menu', loss, ...splits } } })
    expect(await start({ name: 'ppo-clip', dualClip: 1 })).toMatchObject({ code: 'VALIDATION', message: 'Loss: the dual clip C must exceed 1 (or be off), got 1' })
    expect(await start({ name: 'cispo', cispoLow: 3, cispoHigh: 2 })).toMatchObject({ code: 'VALIDATION', message: 'Loss: the CISPO clip needs lo <= hi, got [3, 2]' })
  })

  it('reads a tiny real run back: diagnostics per step, held-out before/after with CIs, paired comparison, rollouts per step', async () => {
    const { raw } = await backend.services.workspaces.handle(workspaceId)
    const steps: number[] = []
    const { runId } = await runTraining(
      raw,
      {
        environment: 'graph-menu', steps: 3, groupSize: 2, questionsPerStep: 2, evalInterval: 2, seed: 4,
        train: { questionSetId: 1, offset: 0, limit: total - 6 }, heldOut: { questionSetId: 1, offset: total - 6, limit: 6 },
      },
      { answerer: new LexicalAnswerer(), appVersion: 'test', jobId: null, progress: () => {}, throwIfCancelled: () => {}, onStep: (s) => steps.push(s) },
    )
    expect(steps).toEqual([0, 1, 2])

    const list = await backend.call('training.runs', { workspaceId })
    expect(list[0]).toMatchObject({ id: runId, status: 'done', environment: 'graph-menu', credit: 'snc', stepsDone: 3, steps: 3, lexicalAnswerer: true, learner: 'head', lastStep: 2 })
    // Its head is a policy; asked for as GGUF weights, the evaluation is refused before it is queued, saying how to ask.
    const asGguf = { environment: 'graph-menu', policy: { kind: 'gguf-run' as const, trainingRun: runId }, questionSetId: 1, limit: 2 }
    await expect(backend.call('job.start', { kind: 'eval.run', workspaceId, params: asGguf })).rejects.toThrow(`Training run #${runId} trained a head, not GGUF weights: evaluate it as policy {kind: 'head', trainingRun: ${runId}}`)
    expect(list[0]!.lastReward).toEqual(expect.any(Number))
    expect(list[0]!.heldOutBefore).toEqual(expect.any(Number))
    expect(list[0]!.heldOutAfter).toEqual(expect.any(Number))

    const run: RouteOutput<'training.run'> = await backend.call('training.run', { workspaceId, runId })
    expect(run.config).toMatchObject({ environment: 'graph-menu', groupSize: 2, questionsPerStep: 2, steps: 3 })
    expect(run.steps.map((s) => s.step)).toEqual([0, 1, 2])
    for (const s of run.steps) {
      expect(s.rollouts).toBe(4)
      expect(s.zeroAdvantageRate).toBeCloseTo(s.allCorrectRate + s.allWrongRate, 9)
      expect(s.equivalenceClasses).toBeGreaterThanOrEqual(1)
      expect(s.spanningGroups).toBeGreaterThanOrEqual(0)
      // Entropy is averaged over every decision of the step, dropped zero-variance groups included.
      expect(s.entropy).toBeGreaterThan(0)
      expect(Number.isFinite(s.gradNorm)).toBe(true)
      // The default reward: SP F1 plus the all-gold bonus.
      expect(Object.keys(s.components)).toEqual(['sp.f1', 'sp.allGold'])
      expect(s.components['sp.f1']! + s.components['sp.allGold']!).toBeCloseTo(s.reward, 12)
    }
    // Held-out at evaluation steps (0 and 2), never between.
    expect(run.steps.map((s) => s.heldOut !== null)).toEqual([true, false, true])
    expect(run.steps[0]!.heldOut!['sp.f1']).toBe(list[0]!.heldOutBefore)

    expect(run.heldOut.before).toMatchObject({ at: 'before training', questions: 6 })
    expect(run.heldOut.after).toMatchObject({ at: 'after training', questions: 6 })
    const f1 = run.heldOut.after!.metrics['sp.f1']!
    expect(f1.mean).toBe(list[0]!.heldOutAfter)
    expect(f1.count).toBe(6)
    if (f1.lower !== null) expect(f1.lower).toBeLessThanOrEqual(f1.mean!)
    expect(run.heldOut.comparison.map((c) => c.metric)).toEqual(['sp.f1', 'sp.recall', 'sp.precision', 'sp.allGold', 'evidence.count'])
    for (const c of run.heldOut.comparison) {
      expect(c.count).toBe(6)
      expect(c.wins + c.ties + c.losses).toBe(6)
      expect(c.meanDifference).toBeCloseTo(c.afterMean! - c.beforeMean!, 12)
    }
    expect(run.heldOut.comparison[0]!.beforeMean).toBe(run.heldOut.before!.metrics['sp.f1']!.mean)

    const rollouts = await backend.call('training.rollouts', { workspaceId, runId, step: 1 })
    expect(rollouts.total).toBe(4)
    expect(rollouts.rollouts.map((r) => r.reward)).toEqual(rollouts.rollouts.map((r) => r.metrics['sp.f1']! + (r.metrics['sp.recall'] === 1 ? 1 : 0)))
    const episode = await backend.call('runs.episode', { workspaceId, episodeId: rollouts.rollouts[0]!.id })
    expect(episode.environment).toBe('graph-menu')
    expect(episode.steps.length).toBe(rollouts.rollouts[0]!.turns)
    expect((await backend.call('training.rollouts', { workspaceId, runId, step: 9 })).total).toBe(0)
  })
})
