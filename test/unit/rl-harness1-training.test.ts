/**
 * A tiny training run on Harness-1: the head drives the stateful harness through tool calls, with the
 * published Harness-1 reward and outcome credit; rollouts are stored with their reward, the diagnostics
 * list the tools used, and no rollout makes a format error.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { resolveTrainConfig, runTraining, TrainingStore } from '../../main/experiments/training'
import { decodeSteps } from '../../main/experiments/runs/rollout-codec'
import { HARNESS1_TOOLS } from '../../main/policy/head-policy'
import { LexicalAnswerer } from '../../main/policy/answerer/lexical-answerer'
import { openDemoWorkspace, type DemoWorkspace } from '../helpers/corpus'

describe('short RL runs on Harness-1', () => {
  let demo: DemoWorkspace
  let total = 0
  const deps = () => ({ answerer: new LexicalAnswerer(), appVersion: 'test', jobId: null, progress: () => {}, throwIfCancelled: () => {} })
  const config = (extra: Record<string, unknown> = {}) => ({
    environment: 'stateful',
    steps: 2,
    groupSize: 3,
    questionsPerStep: 2,
    evalInterval: 1,
    seed: 3,
    credit: { scheme: 'outcome', lambda: 0 },
    reward: { weights: { harness1: 1 } },
    train: { questionSetId: 1, offset: 0, limit: total - 6 },
    heldOut: { questionSetId: 1, offset: total - 6, limit: 6 },
    ...extra,
  })

  beforeAll(async () => {
    demo = await openDemoWorkspace(7, 0.6)
    total = Number(demo.db.raw.prepare('select count(*) from questions').pluck().get())
  })
  afterAll(async () => demo?.close())

  it('trains the head on the stateful harness with the published reward and outcome credit', async () => {
    const steps: number[] = []
    const r = await runTraining(demo.db.raw, config(), { ...deps(), onStep: (s) => steps.push(s) })
    expect(steps).toEqual([0, 1])
    expect(demo.db.raw.prepare('select status from runs where id = ?').pluck().get(r.runId)).toBe('done')

    const rows = demo.db.raw.prepare('select metrics_json, format_errors, steps_blob from episodes where run_id = ? and train_step is not null').all(r.runId) as { metrics_json: string; format_errors: number; steps_blob: Buffer }[]
    expect(rows).toHaveLength(2 * 3 * 2)
    for (const row of rows) {
      const m = JSON.parse(row.metrics_json) as Record<string, number | null>
      expect(typeof m['reward.total']).toBe('number')
      expect(m['train.reward']).toBeCloseTo(m['reward.total']!, 12)
      expect(m['train.reward.harness1']).toBeCloseTo(m['reward.total']!, 12)
      expect(m['harness1.curatedRecall'] === null || typeof m['harness1.curatedRecall'] === 'number').toBe(true)
      expect(row.format_errors).toBe(0)
      const s = decodeSteps(row.steps_blob)
      expect(s.length).toBeGreaterThan(0)
      for (const x of s) {
        expect(x.action.kind).toBe('tool')
        expect(x.index).not.toBeNull()
        expect(x.candidates).toBeGreaterThan(0)
        expect(x.candidates).toBeLessThanOrEqual(24)
        expect(x.logprob).toBeLessThanOrEqual(0)
        expect(Number.isFinite(x.advantage)).toBe(true)
        // Outcome credit: no per-step credit.
        expect(x.credit.total).toBe(0)
      }
    }

    // The published reward pays for tool diversity.
    expect(rows.some((row) => (JSON.parse(row.metrics_json) as Record<string, number>)['reward.toolDiversity']! > 0)).toBe(true)

    const diagnostics = new TrainingStore(demo.db.raw).diagnostics(r.runId).map((d) => d.diagnostics as { actionMix: Record<string, number>; reward: number; components: Record<string, number> })
    expect(diagnostics).toHaveLength(2)
    for (const d of diagnostics) {
      const tools = Object.keys(d.actionMix)
      expect(tools.length).toBeGreaterThan(1)
      for (const t of tools) expect(HARNESS1_TOOLS as readonly string[]).toContain(t)
      expect(Object.values(d.actionMix).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 9)
      expect(Number.isFinite(d.reward)).toBe(true)
      expect(Object.keys(d.components)).toEqual(['harness1'])
    }

    // Held-out: the greedy head before and after, scored with the Harness-1 metrics.
    for (const h of [r.before!, r.after!]) {
      expect(Object.keys(h.perQuestion)).toHaveLength(6)
      for (const m of Object.values(h.perQuestion)) {
        expect(m.formatErrors).toBe(0)
        expect(typeof m['harness1.curatedFBeta']).toBe('number')
        expect(typeof m['paragraph.recall']).toBe('number')
        // The environment's own reward is stored on the held-out split too: the run's headline (curated recall) has a value.
        expect(typeof m['harness1.curatedRecall']).toBe('number')
        expect(typeof m['reward.total']).toBe('number')
      }
    }
  })

  it('trains without the tool-diversity reward, and on the transcript baseline', async () => {
    const r = await runTraining(demo.db.raw, config({ steps: 1, reward: { weights: { harness1: 1 }, harness1Weights: { diversity: 0, toolShortfall: 0 } } }), deps())
    const m = (demo.db.raw.prepare('select metrics_json from episodes where run_id = ? and train_step is not null').all(r.runId) as { metrics_json: string }[]).map((x) => JSON.parse(x.metrics_json) as Record<string, number>)
    for (const x of m) {
      expect(x['reward.toolDiversity']).toBe(0)
      expect(Math.abs(x['reward.toolShortfall']!)).toBe(0)
    }
    const t = await runTraining(demo.db.raw, config({ environment: 'transcript', steps: 1 }), deps())
    expect(demo.db.raw.prepare('select sum(format_errors) from episodes where run_id = ?').pluck().get(t.runId)).toBe(0)
  })

  it('refuses credit that reads menu previews on a tool harness', () => {
    expect(() => resolveTrainConfig(demo.db.raw, config({ credit: { scheme: 'snc', lambda: 0.5 } }) as never)).toThrow(/reads menu previews; stateful has none/)
  })
})
