import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runTraining, resolveTrainConfig, TrainingStore } from '../../main/experiments/training'
import { decodeSteps } from '../../main/experiments/runs/rollout-codec'
import { getEpisode } from '../../main/experiments/runs/read-model'
import { LexicalAnswerer } from '../../main/policy/answerer/lexical-answerer'
import { openDemoWorkspace, type DemoWorkspace } from '../helpers/corpus'
import { withoutWallTime } from '../../common/run-time'

describe('short RL runs', () => {
  let demo: DemoWorkspace
  let total = 0
  const deps = (extra: Partial<Parameters<typeof runTraining>[2]> = {}) => ({
    answerer: new LexicalAnswerer(),
    appVersion: 'test',
    jobId: null,
    progress: () => {},
    throwIfCancelled: () => {},
    ...extra,
  })
  const config = () => ({
    environment: 'graph-menu',
    steps: 3,
    groupSize: 4,
    questionsPerStep: 3,
    evalInterval: 2,
    seed: 5,
    credit: { scheme: 'snc', lambda: 0.5 },
    train: { questionSetId: 1, offset: 0, limit: total - 10 },
    heldOut: { questionSetId: 1, offset: total - 10, limit: 10 },
  })

  beforeAll(async () => {
    demo = await openDemoWorkspace(7, 0.6)
    total = Number(demo.db.raw.prepare('select count(*) from questions').pluck().get())
  })
  afterAll(async () => demo?.close())

  const finalState = (runId: number) => {
    const store = new TrainingStore(demo.db.raw)
    const rollouts = demo.db.raw.prepare('select train_step, question_id, seed, metrics_json, steps_blob from episodes where run_id = ? order by train_step, id').all(runId) as { train_step: number; question_id: number; seed: number; metrics_json: string; steps_blob: Buffer }[]
    return {
      checkpoint: store.lastCheckpoint(runId),
      diagnostics: store.diagnostics(runId).map((d) => withoutWallTime(d.diagnostics as Record<string, unknown>)),
      rollouts: rollouts.map((r) => ({ step: r.train_step, q: r.question_id, seed: r.seed, metrics: r.metrics_json, steps: decodeSteps(r.steps_blob) })),
    }
  }

  it('resumes after a crash exactly where an uninterrupted run with the same seed would be', async () => {
    const whole = await runTraining(demo.db.raw, config(), deps())
    let crashAfter = 1
    const crashing = deps({
      onStep: (step) => {
        if (step === crashAfter) throw new Error('simulated crash')
      },
    })
    await expect(runTraining(demo.db.raw, config(), crashing)).rejects.toThrow(/simulated crash/)
    const runId = Number(demo.db.raw.prepare("select max(id) from runs where kind = 'train'").pluck().get())
    expect(demo.db.raw.prepare('select status from runs where id = ?').pluck().get(runId)).toBe('failed')
    // The crash came after step 1 was stored: steps 0 and 1 are kept, nothing of step 2.
    expect(new TrainingStore(demo.db.raw).diagnostics(runId).map((d) => d.step)).toEqual([0, 1])
    crashAfter = -1
    await runTraining(demo.db.raw, config(), crashing, runId)
    const a = finalState(whole.runId)
    const b = finalState(runId)
    expect(b.checkpoint).toEqual(a.checkpoint)
    expect(b.rollouts).toEqual(a.rollouts)
    expect(b.diagnostics).toEqual(a.diagnostics)
    expect(demo.db.raw.prepare('select status from runs where id = ?').pluck().get(runId)).toBe('done')
    // Every stored figure, the held-out "before" and "after" CIs included, equals the uninterrupted run's.
    const stored = (id: number) => JSON.parse(demo.db.raw.prepare('select summary_json from runs where id = ?').pluck().get(id) as string) as Record<string, unknown>
    expect(stored(runId).before).not.toBeNull()
    expect(stored(runId)).toEqual(stored(whole.runId))
  })

  it('stores every rollout with its reward, credit and advantage, compactly', async () => {
    const { runId } = await runTraining(demo.db.raw, { ...config(), steps: 1 }, deps())
    const store = new TrainingStore(demo.db.raw)
    const rows = demo.db.raw.prepare('select metrics_json, steps_blob from episodes where run_id = ?').all(runId) as { metrics_json: string; steps_blob: Buffer }[]
    expect(rows).toHaveLength(4 * 3)
    for (const r of rows) {
      const m = JSON.parse(r.metrics_json) as Record<string, number>
      // The default reward on sentence gold: SP F1 plus 1 when every gold sentence is committed.
      expect(m['train.reward']).toBeCloseTo(m['sp.f1']! + (m['sp.recall'] === 1 ? 1 : 0), 12)
      const steps = decodeSteps(r.steps_blob)
      expect(steps.length).toBeGreaterThan(0)
      for (const s of steps) {
        expect(Number.isFinite(s.advantage)).toBe(true)
        expect(Number.isFinite(s.credit.total)).toBe(true)
        expect(s.logprob).toBeLessThanOrEqual(0)
      }
    }
    expect(store.bytesPerRollout(runId)).toBeLessThan(20_000)
    // Any rollout opens in the Trajectory view: its steps are rebuilt by replaying the stored actions.
    const ids = demo.db.raw.prepare('select id, steps_blob from episodes where run_id = ? order by id limit 3').all(runId) as { id: number; steps_blob: Buffer }[]
    for (const { id, steps_blob } of ids) {
      const compact = decodeSteps(steps_blob)
      const episode = await getEpisode(demo.db.raw, id)
      expect(episode!.replay).toMatchObject({ faithful: true })
      expect(episode!.environment).toBe('graph-menu')
      expect(episode!.steps.map((s) => s.action)).toEqual(compact.map((c) => c.action))
      expect(episode!.steps.map((s) => s.decision.logprob)).toEqual(compact.map((c) => c.logprob))
      expect(episode!.steps.every((s) => s.previews !== null && s.view.committed !== null)).toBe(true)
      expect(episode!.steps[0]!.view.changes).not.toEqual(['initial state'])
      expect(episode!.steps.map((s) => (s.decision.trainer as { credit: { total: number } }).credit.total)).toEqual(compact.map((c) => c.credit.total))
    }
  })

  it('refuses invalid configs with clear errors before anything runs', () => {
    const bad = (delta: Record<string, unknown>) => () => resolveTrainConfig(demo.db.raw, { ...config(), ...delta } as never)
    expect(bad({ heldOut: { questionSetId: 1, offset: 0, limit: 10 } })).toThrow(/overlap by 10: held-out questions must never be trained on/)
    expect(bad({ credit: { scheme: 'magic', lambda: 1 } })).toThrow(/unknown credit scheme "magic"/)
    expect(bad({ environment: 'free-query' })).toThrow(/reads menu previews; free-query has none/)
    expect(bad({ environment: 'stateful', credit: { scheme: 'snc', lambda: 0.5 } })).toThrow(/reads menu previews; stateful has none/)
    expect(bad({ estimator: 'nope' })).toThrow(/nope/)
    expect(bad({ reward: { weights: { 'sp.f2': 1 } } })).toThrow(/Unknown reward term "sp.f2"/)
    expect(bad({ groupSize: 0 })).toThrow()
    expect(bad({ train: { questionSetId: 1, offset: 100_000, limit: 5 } })).toThrow(/train split .* has no questions/)
  })

  it('gives a config without credit its protocol\'s default: SNC where the environment previews its actions, outcome otherwise', () => {
    const { credit: _credit, ...withoutCredit } = config()
    expect(resolveTrainConfig(demo.db.raw, withoutCredit).credit).toEqual({ scheme: 'snc', lambda: 0.5 })
    expect(resolveTrainConfig(demo.db.raw, { ...withoutCredit, environment: 'free-query' }).credit).toEqual({ scheme: 'outcome', lambda: 0.5 })
    expect(resolveTrainConfig(demo.db.raw, { ...withoutCredit, environment: 'stateful' }).credit.scheme).toBe('outcome')
  })
})
