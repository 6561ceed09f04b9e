/**
 * Training rewards as weighted sums of registered terms, on hand-written episode metrics: the
 * supporting-fact terms (F1, EM, the all-gold bonus), costs, the missing-metric rule, and the refusal
 * of unknown terms and of a reward that weighs nothing.
 */
import { describe, expect, it } from 'vitest'
import { checkRewardConfig, computeReward, rewardConfigSchema } from '../../main/rl/reward-schemes'

const config = (weights: Record<string, number>) => rewardConfigSchema.parse({ weights })

describe('reward terms', () => {
  it('adds F1 and the all-gold bonus only when every gold sentence is committed', () => {
    const all = computeReward({ 'sp.f1': 0.8, 'sp.recall': 1, 'sp.em': 0 }, config({ 'sp.f1': 1, 'sp.allGold': 0.5 }))
    expect(all.total).toBeCloseTo(1.3, 12)
    expect(all.components).toEqual({ 'sp.f1': 0.8, 'sp.allGold': 0.5 })
    const half = computeReward({ 'sp.f1': 0.667, 'sp.recall': 0.5, 'sp.em': 0 }, config({ 'sp.f1': 1, 'sp.allGold': 0.5 }))
    expect(half.total).toBeCloseTo(0.667, 12)
    expect(half.missing).toEqual([])
  })

  it('reads SP EM, and costs as negative counts', () => {
    const r = computeReward({ 'sp.em': 1, turns: 4, 'evidence.count': 3 }, config({ 'sp.em': 1, 'cost.turn': 0.02, 'cost.item': 0.1 }))
    expect(r.total).toBeCloseTo(1 - 0.08 - 0.3, 12)
  })

  it('lists the terms whose metric an episode lacks and counts them as 0', () => {
    const r = computeReward({ turns: 2 }, config({ 'sp.f1': 1, 'sp.allGold': 0.5 }))
    expect(r.total).toBe(0)
    expect(r.missing.sort()).toEqual(['sp.allGold', 'sp.f1'])
  })

  it('refuses unknown terms and a reward with no weight', () => {
    expect(() => checkRewardConfig(config({ 'sp.f2': 1 }))).toThrow(/Unknown reward term "sp.f2"/)
    expect(() => checkRewardConfig(config({ 'sp.f1': 0 }))).toThrow(/weighs no term/)
  })
})
