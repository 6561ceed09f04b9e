import { describe, expect, it } from 'vitest'
import { allClaims, BUDGETS } from '../../main/experiments/findings'
import type { PlanContext } from '../../main/experiments/findings/claims'
import { CLAIM_LIMITS } from '../../main/experiments/findings/claims/harness-1'

/**
 * The budgets and the experiments the claims declare, without a database: the full budget keeps what the
 * verdicts need, and no training arm is trained twice across experiments (claims with the same arm share it).
 */
describe('findings budgets and shared experiments', () => {
  const plan = (budget: PlanContext['budget']): PlanContext => ({
    questionSetId: 1,
    heldOut: { split: 'test', offset: 0, limit: budget.heldOut },
    train: { split: 'train', offset: 0, limit: budget.train },
    budget,
    seeds: Array.from({ length: budget.seeds }, (_, i) => i + 1),
    answerer: { kind: 'lexical' },
    evidenceMetric: 'sp.f1',
    gguf: null,
  })

  /** Every experiment once (claims naming the same key share it), as saveFindings saves them. */
  const experiments = (p: PlanContext) => {
    const byKey = new Map<string, { config: ReturnType<ReturnType<typeof allClaims>[number]['experiment']>['config']; claims: number[] }>()
    for (const c of allClaims()) {
      const e = c.experiment(p)
      const known = byKey.get(e.key)
      if (known) known.claims.push(c.number)
      else byKey.set(e.key, { config: e.config, claims: [c.number] })
    }
    return byKey
  }

  /** What a training arm trains: environment, its config or preset, credit and reward (the ablation's base or a training row over it). */
  const trainedArms = (p: PlanContext) =>
    [...experiments(p).values()].flatMap(({ config }) => {
      const { base } = config
      const arm = (r: { environment?: string; preset?: string; envConfig?: Record<string, unknown>; training?: Record<string, unknown> }) =>
        JSON.stringify({
          environment: r.environment ?? base.environment,
          preset: r.preset ?? null,
          envConfig: r.envConfig ?? {},
          credit: r.training?.['credit'] ?? base.training?.credit,
          reward: r.training?.['reward'] ?? base.training?.reward ?? null,
        })
      return [arm({ environment: base.environment, training: base.training as Record<string, unknown> }), ...config.rows.filter((r) => r.training !== undefined).map((r) => arm(r as never))]
    })

  it('the full budget runs at least 3 seeds, groups of 8, every held-out question up to 128', () => {
    expect(BUDGETS.full.seeds).toBeGreaterThanOrEqual(3)
    expect(BUDGETS.full.groupSize).toBe(8)
    expect(BUDGETS.full.heldOut).toBeGreaterThanOrEqual(128)
    expect(BUDGETS.full.departures.join(' ')).toMatch(/30 steps of 4 questions x 8 rollouts/)
  })

  it('claims 1-3 share one Harness-G experiment and claims 4-5 one Harness-1 experiment: no arm is trained twice per seed', () => {
    const byKey = experiments(plan(BUDGETS.full))
    expect([...byKey.entries()].map(([key, e]) => [key, e.claims])).toEqual([
      ['harness-g', [1, 2, 3]],
      ['harness-1', [4, 5]],
    ])
    const arms = trainedArms(plan(BUDGETS.full))
    expect(new Set(arms).size).toBe(arms.length)
    // free query, menu (outcome), SNC, info gain; full harness (= diversity reward on), all off, diversity reward off.
    expect(arms).toHaveLength(7)
  })

  it("claim 4 trains with Harness-1's published reward (the set's default, SP F1, is never scored by a chunk environment)", () => {
    const { base, rows } = experiments(plan(BUDGETS.full)).get('harness-1')!.config
    expect(base.environment).toBe('stateful')
    expect(base.training?.reward).toEqual({ weights: { harness1: 1 }, normalisation: 'official', harness1Weights: {} })
    expect(rows.find((r) => r.label === 'all mechanisms off')!.training).toEqual({})
    // Every arm (the scripted reference too) runs at the limits where each switch can act (harness1-switch-trajectories.test.ts).
    expect(base.envConfig).toEqual(CLAIM_LIMITS)
    expect(rows.every((r) => r.envConfig === undefined)).toBe(true)
  })

  it('claim 4 trains the single switches only when asked (8 more Harness-1 arms)', () => {
    const rows = (singleMechanisms: boolean) => experiments(plan({ ...BUDGETS.full, singleMechanisms })).get('harness-1')!.config.rows.map((r) => r.label)
    expect(rows(false)).toEqual(['all mechanisms off', 'no tool-diversity reward', 'scripted tools (reference)'])
    expect(rows(true)).toHaveLength(11)
    expect(new Set(trainedArms(plan({ ...BUDGETS.full, singleMechanisms: true }))).size).toBe(15)
  })
})
