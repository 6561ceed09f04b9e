import { describe, expect, it } from 'vitest'
import type { CreditStep, StepCredit } from '../../main/rl/credit'
import { creditSignals, goldPathLabels, rankAuc, signalQuality, type QualityGroup, type StepLabel } from '../../main/rl/credit-quality'

const step = (type: string | null, id: string, preview: number[], seen: number[], committed: number[], producers: number[] = []): CreditStep => ({
  chosen: { id, type },
  menu: [{ id, type: type ?? 'SELECT' }],
  previewOf: { [id]: preview },
  seenBefore: seen,
  committedBefore: committed,
  producers,
})
const L = (gold: boolean, ranked = true): StepLabel => ({ ranked, gold })
const credit = (total: number, parts: Partial<StepCredit> = {}): StepCredit => ({ total, frontier: 0, enablement: 0, gain: 0, alternatives: [], ...parts })
const group = (questionId: string, rollouts: { labels: StepLabel[]; values: number[] }[], questionType: string | null = 'bridge', hops = 2): QualityGroup => ({ questionId, questionType, hops, rollouts })

describe('rankAuc', () => {
  it('counts every positive-negative pair, ties one half', () => {
    expect(rankAuc([3, 2], [1, 0])).toBe(1)
    expect(rankAuc([0, 1], [2, 3])).toBe(0)
    // Pairs: (2>1) (2>0) (1=1: 1/2) (1>0) -> 3.5 / 4.
    expect(rankAuc([2, 1], [1, 0])).toBe(0.875)
    expect(rankAuc([5, 5], [5])).toBe(0.5)
    expect(rankAuc([], [1])).toBeNull()
    expect(rankAuc([1], [])).toBeNull()
  })
})

describe('goldPathLabels', () => {
  it('marks steps that commit or surface new gold and the bridges that produced them; ANSWER is not ranked', () => {
    const steps = [
      step('LOOKUP', 'L1', [10, 11], [], []), // surfaces 11 (not gold) and 10 (not gold) but produces step 1
      step('SELECT', 'S1', [11], [10, 11], [], [0]), // commits 11: not gold, but it is the bridge of step 2
      step('LOOKUP', 'L2', [20, 21], [10, 11], [11], [1]), // surfaces gold 20
      step('SELECT', 'S2', [30], [10, 11, 20, 21, 30], [11]), // commits non-gold 30, no producers
      step('SELECT', 'S3', [20], [10, 11, 20, 21, 30], [11, 30], [2]), // commits gold 20
      step('ANSWER', 'A', [], [], [11, 20, 30]),
    ]
    expect(goldPathLabels(steps, [20, 99])).toEqual([L(true), L(true), L(true), L(false), L(true), L(false, false)])
  })

  it('re-surfacing or re-committing gold already held is not a gold step', () => {
    const steps = [step('LOOKUP', 'L1', [20], [20], []), step('SELECT', 'S1', [20], [20], [20]), step(null, 'x', [], [], [])]
    expect(goldPathLabels(steps, [20])).toEqual([L(false), L(false), L(false, false)])
  })
})

describe('signalQuality', () => {
  it('gives the hand-computed AUC, per-type and per-hop slices, group variance and zero-group share', () => {
    const groups = [
      group('q1', [{ labels: [L(true), L(false), L(false, false)], values: [2, 1, 99] }, { labels: [L(false)], values: [0] }], 'bridge', 2),
      group('q2', [{ labels: [L(true), L(false)], values: [1, 1] }], 'comparison', 3),
      group('q3', [{ labels: [L(false)], values: [0] }], 'comparison', 2),
    ]
    const q = signalQuality(groups, { resamples: 200, seed: 3 })
    // Positives {2, 1}, negatives {1, 0, 1, 0}: pairs 2>all (4), 1 vs {1,0,1,0} = 0.5+1+0.5+1 = 3 -> 7/8.
    expect(q.auc).toBe(0.875)
    expect([q.positives, q.negatives, q.questions]).toEqual([2, 4, 3])
    expect(q.constant).toBe(false)
    expect(q.mean).toBeCloseTo(5 / 6, 12)
    expect(q.ci!.lower).toBeLessThanOrEqual(0.875)
    expect(q.ci!.upper).toBeGreaterThanOrEqual(0.875)
    expect(q.ci!.upper).toBeLessThanOrEqual(1)
    expect(q.byType.bridge).toEqual({ auc: 1, positives: 1, negatives: 2, questions: 1 })
    // comparison: positive {1} against {1, 0}: (0.5 + 1) / 2.
    expect(q.byType.comparison).toEqual({ auc: 0.75, positives: 1, negatives: 2, questions: 2 })
    expect(q.byHops['3-hop']!.auc).toBe(0.5)
    expect(q.byHops['2-hop']!.auc).toBe(1)
    // q1 ranked values {2, 1, 0}: variance 2/3; q2 {1, 1}: 0; q3 {0}: 0.
    expect(q.groupVariance).toBeCloseTo(2 / 9, 12)
    expect(q.zeroGroupShare).toBeCloseTo(1 / 3, 12)
  })

  it('an all-zero signal scores 0.5, is flagged constant, and every group is zero-advantage', () => {
    const groups = [group('q1', [{ labels: [L(true), L(false)], values: [0, 0] }]), group('q2', [{ labels: [L(false), L(true)], values: [0, 0] }])]
    const q = signalQuality(groups)
    expect(q.auc).toBe(0.5)
    expect(q.constant).toBe(true)
    expect(q.ci).toEqual({ lower: 0.5, upper: 0.5 })
    expect(q.zeroGroupShare).toBe(1)
    expect(q.groupVariance).toBe(0)
  })

  it('has no AUC without positives, and rejects mismatched or non-finite input', () => {
    expect(signalQuality([group('q', [{ labels: [L(false)], values: [1] }])]).auc).toBeNull()
    expect(() => signalQuality([group('q', [{ labels: [L(true)], values: [1, 2] }])])).toThrow(/1 step labels but 2 values/)
    expect(() => signalQuality([group('q', [{ labels: [L(true)], values: [Number.NaN] }])])).toThrow(/non-finite/)
    expect(() => signalQuality([], { resamples: 0 })).toThrow(/resamples/)
  })
})

describe('creditSignals', () => {
  it('builds raw credit, SNC parts and the combined advantage from the same rollouts', () => {
    const groups = [
      {
        questionId: 'q',
        questionType: null,
        hops: 2,
        rollouts: [
          { labels: [L(true), L(false)], reward: 1, credits: { outcome: [credit(0), credit(0)], snc: [credit(0.5, { frontier: 0.2, enablement: 0.3, gain: 1 }), credit(-0.5, { frontier: -0.5 })] } },
          { labels: [L(false)], reward: 0, credits: { outcome: [credit(0)], snc: [credit(0)] } },
        ],
      },
    ]
    const s = creditSignals(groups, { schemes: ['outcome', 'snc'], lambda: 0.5 })
    expect(Object.keys(s).sort()).toEqual(['outcome', 'outcome:credit', 'snc', 'snc:credit', 'snc:enablement', 'snc:frontier', 'snc:gain'])
    // GRPO over rewards {1, 0}: +1 / -1 (up to the 1e-6 epsilon).
    expect(s.outcome![0]!.rollouts[0]!.values[0]).toBeCloseTo(1, 5)
    expect(s.outcome![0]!.rollouts[1]!.values[0]).toBeCloseTo(-1, 5)
    expect(s['snc:enablement']![0]!.rollouts[0]!.values).toEqual([0.3, 0])
    // Non-zero credits {0.5, -0.5}: std 0.5, so the scaled credits are +1 / -1, times lambda 0.5.
    expect(s.snc![0]!.rollouts[0]!.values[0]).toBeCloseTo(1.5, 5)
    expect(s.snc![0]!.rollouts[0]!.values[1]).toBeCloseTo(0.5, 5)
    expect(signalQuality(s['outcome:credit']!).constant).toBe(true)
    expect(signalQuality(s['snc:credit']!).auc).toBe(1)
    expect(() => creditSignals(groups, { schemes: ['info-gain'] })).toThrow(/no "info-gain" credit/)
  })
})
