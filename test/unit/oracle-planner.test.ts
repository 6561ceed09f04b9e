/**
 * The oracle is never below the ceiling: on the demo world with one sentence visible at reset, its
 * one-step rules give up on gold that only appears after several LOOKUPs (question 19: the rules fetch
 * once and answer; question 36: they miss the second hop), while the bounded search of the environment's
 * transitions reaches it. The oracle plans through a twin environment and commits that gold.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ceilingReport, committedUnitCount, goldUnits, oraclePlanner } from '../../main/experiments/ceiling'
import { createEnvironment, runEpisode } from '../../main/harness'
import { createScriptedPolicy } from '../../main/policy/scripted'
import { openDemoWorkspace, type DemoWorkspace } from '../helpers/corpus'

// Found with bench:ceiling's report on the demo world (seed 7, size 0.3) under this budget.
const CONFIG = { initialK: 1, initialSentences: 1 }
// Question 36's gold is all reachable, so the searches stop early; 19's is not (the search runs its whole budget), so it is checked once below.
const SHORT = ['36']

describe('the oracle plans where its one-step rules fall short', () => {
  let w: DemoWorkspace
  beforeAll(async () => {
    w = await openDemoWorkspace(7, 0.3)
  }, 600_000)
  afterAll(() => w.close())

  it('commits all reachable gold on questions where the rules alone do not', async () => {
    const questions = SHORT.map((id) => w.questions.find((q) => q.id === id)!)
    const row = await ceilingReport(w.ctx, questions, 'graph-menu', CONFIG)
    expect(row.rulesShort).toEqual(SHORT)
    expect(row.oracleShort).toEqual([])
    for (const q of row.perQuestion) {
      expect(q.oracleRules, `q${q.questionId}`).toBeLessThan(q.reachable)
      expect(q.oracle, `q${q.questionId}`).toBe(q.reachable)
    }
    expect(row.oracle).toBe(row.reachable)
    expect(row.oracleRules).toBeLessThan(row.reachable)
  }, 600_000)

  it('takes the longer path: several LOOKUPs before the gold is on the menu, where the rules answer after one', async () => {
    const i = w.questions.findIndex((q) => q.id === '19')
    const q = w.questions[i]!
    const env = createEnvironment('graph-menu', w.ctx, CONFIG)
    // Its gold is not all reachable, so the search runs its whole budget: half the default keeps the test short and still finds the path.
    const planner = oraclePlanner(createEnvironment('graph-menu', w.ctx, CONFIG), w.ctx, { maxSteps: 1500 })
    const lookups = (t: Awaited<ReturnType<typeof runEpisode>>) => t.steps.filter((s) => s.action.kind === 'menu' && s.action.id.startsWith('L')).length
    const rules = await runEpisode(env, createScriptedPolicy('oracle', 'sentence-menu'), q, 100 + i, { snapshots: false })
    const planned = await runEpisode(env, createScriptedPolicy('oracle', 'sentence-menu', { planner }), q, 100 + i, { snapshots: false })
    const units = goldUnits(q)
    expect(committedUnitCount(w.ctx, units, planned.outcome.evidence.sentenceIds ?? [])).toBeGreaterThan(committedUnitCount(w.ctx, units, rules.outcome.evidence.sentenceIds ?? []))
    expect(lookups(planned)).toBeGreaterThanOrEqual(3)
    expect(lookups(rules)).toBeLessThan(lookups(planned))
  }, 600_000)
})
