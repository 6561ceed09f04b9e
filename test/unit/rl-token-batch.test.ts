/** From rollout groups to the GGUF trainer's weighted sequences: prompts never in the loss, chosen tokens weighted by advantage / decisions. */
import { describe, expect, it } from 'vitest'
import { tokenBatch, type TokenRollout } from '../../main/rl/trainer'

const rollout = (reward: number, decisions: Array<{ prompt: number[]; chosen: number[] }>): TokenRollout => ({
  summary: { reward, components: {}, correct: reward > 0.5, evidence: [], queries: [], actions: [], turns: decisions.length },
  credit: decisions.map(() => ({ total: 0, frontier: 0, enablement: 0, gain: 0, alternatives: [] })),
  decisions: decisions.map((d, t) => ({ t, ...d })),
})

describe('tokenBatch', () => {
  const config = { estimator: 'grpo', dropZeroVariance: true, credit: { scheme: 'outcome', lambda: 0 } }

  it('weights the chosen tokens by the advantage over the decision count and leaves the prompt out', () => {
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
    expect(good!.weights[3]).toBeCloseTo(b.outcomeAdvantages[0]![0]! / 2, 12)
    expect(bad!.weights[3]).toBeLessThan(0)
    expect(b.tokens).toBe(3)
    expect(b.stepAdvantages[1]).toEqual([[0], [0]])
  })

  it('gives nothing to train when every group agrees', () => {
    const b = tokenBatch([[rollout(0, [{ prompt: [1], chosen: [2] }]), rollout(0, [{ prompt: [1], chosen: [3] }])]], config)
    expect(b.items).toEqual([])
    expect(b.decisions).toBe(0)
  })
})
