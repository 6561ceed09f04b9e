/** From rollout groups to the GGUF trainer's weighted sequences: prompts never in the loss, chosen tokens weighted token-mean (advantage / the batch's chosen tokens), the KL term alike. */
import { describe, expect, it } from 'vitest'
import { tokenBatch, type TokenRollout } from '../../main/rl/trainer'

const rollout = (reward: number, decisions: Array<{ prompt: number[]; chosen: number[] }>): TokenRollout => ({
  summary: { reward, components: {}, correct: reward > 0.5, evidence: [], queries: [], actions: [], turns: decisions.length },
  credit: decisions.map(() => ({ total: 0, frontier: 0, enablement: 0, gain: 0, alternatives: [] })),
  decisions: decisions.map((d, t) => ({ t, ...d })),
})

describe('tokenBatch', () => {
  const config = { estimator: 'grpo', dropZeroVariance: true, credit: { scheme: 'outcome', lambda: 0 } }

  it('weights the chosen tokens by the advantage over the batch\'s chosen tokens (token-mean) and leaves the prompt out', () => {
    const groups = [
      [rollout(1, [{ prompt: [1, 2, 3], chosen: [7, 8] }]), rollout(0, [{ prompt: [1, 2, 3], chosen: [9] }])],
      // all equal rewards: a zero-variance group, dropped
      [rollout(0, [{ prompt: [4], chosen: [5] }]), rollout(0, [{ prompt: [4], chosen: [6] }])],
    ]
    const b = tokenBatch(groups, config)
    expect(b.kept).toEqual([0])
    expect(b.items).toHaveLength(2)
    const [good, bad] = b.items
    expect(good!.tokens).toEqual([1, 2, 3, 7, 8])
    expect(good!.weights.slice(0, 3)).toEqual([0, 0, 0])
    expect(good!.weights[3]).toBeGreaterThan(0)
    // 3 chosen tokens in the kept group: each weighs its decision's advantage / 3
    expect(good!.weights[3]).toBeCloseTo(b.outcomeAdvantages[0]![0]! / 3, 12)
    expect(good!.weights[4]).toBe(good!.weights[3])
    expect(bad!.weights[3]).toBeCloseTo(b.outcomeAdvantages[0]![1]! / 3, 12)
    expect(bad!.weights[3]).toBeLessThan(0)
    expect(good!.klWeights).toEqual([0, 0, 0, 0, 0])
    expect(b.tokens).toBe(3)
    expect(b.stepAdvantages[1]).toEqual([[0], [0]])
  })

  it('does not grow the update with the batch: the summed weights of twice the groups are the same', () => {
    const group = () => [rollout(1, [{ prompt: [1], chosen: [7, 8] }]), rollout(0, [{ prompt: [1], chosen: [9, 9] }])]
    const total = (b: ReturnType<typeof tokenBatch>) => b.items.reduce((s, i) => s + i.weights.reduce((a, w) => a + Math.abs(w), 0), 0)
    expect(total(tokenBatch([group(), group()], config))).toBeCloseTo(total(tokenBatch([group()], config)), 12)
  })

  it('puts klCoef / chosen tokens on every chosen token of the kept groups, zero-advantage decisions included', () => {
    const groups = [[rollout(1, [{ prompt: [1], chosen: [7] }, { prompt: [2], chosen: [8] }]), rollout(0, [{ prompt: [1], chosen: [9] }])]]
    const b = tokenBatch(groups, config, 0.3)
    expect(b.tokens).toBe(3)
    for (const item of b.items) {
      expect(item.klWeights[0]).toBe(0)
      expect(item.klWeights[1]).toBeCloseTo(0.1, 12)
    }
    expect(b.items).toHaveLength(3)
  })

  it('gives nothing to train when every group agrees', () => {
    const b = tokenBatch([[rollout(0, [{ prompt: [1], chosen: [2] }]), rollout(0, [{ prompt: [1], chosen: [3] }])]], config)
    expect(b.items).toEqual([])
    expect(b.decisions).toBe(0)
  })
})
