/** Advantage estimators and zero-variance group handling against hand-computed groups. */
import { describe, expect, it } from 'vitest'
import {
  classifyGroups,
  dropZeroVarianceGroups,
  estimator,
  estimatorNames,
  grpo,
  groupStd,
  meanCentred,
  grpoDeclaration,
  reinforcePlusPlus,
  rloo,
  zeroAdvantageStats,
} from '../../main/rl/estimators'
import { namedRegistry } from '../../main/rl/named-registry'

const close = (actual: number[][], expected: number[][], digits = 12): void => {
  expect(actual.map((g) => g.length)).toEqual(expected.map((g) => g.length))
  actual.forEach((group, g) => group.forEach((a, i) => expect(a).toBeCloseTo(expected[g]![i]!, digits)))
}

// A: mean 0.5, population std 0.5. B: constant. C: a single rollout. D: mean 1.5, population std 1.5.
const groups = [[1, 0, 0, 1], [2, 2, 2], [5], [0, 3]]

describe('advantage estimators', () => {
  it('grpo divides by the population std plus 1e-6', () => {
    const a = 0.5 / (0.5 + 1e-6)
    const d = 1.5 / (1.5 + 1e-6)
    close(grpo(groups), [[a, -a, -a, a], [0, 0, 0], [0], [-d, d]])
    expect(groupStd([1, 0, 0, 1])).toBe(0.5)
    close(grpo([[0, 3]], { epsilon: 0 }), [[-1, 1]])
  })

  it('mean-centred subtracts the group mean only', () => {
    close(meanCentred(groups), [[0.5, -0.5, -0.5, 0.5], [0, 0, 0], [0], [-1.5, 1.5]])
  })

  it('rloo subtracts the mean of the other rollouts', () => {
    // 1 - (0 + 0 + 1) / 3 = 2/3; 0 - (1 + 0 + 1) / 3 = -2/3; 0 - 3 = -3; a group of one gets 0.
    close(rloo(groups), [[2 / 3, -2 / 3, -2 / 3, 2 / 3], [0, 0, 0], [0], [-3, 3]])
  })

  it('reinforce++ centres per group, then whitens over the whole batch', () => {
    // Centred: [0.5, -0.5, -0.5, 0.5] and [-1.5, 1.5]; batch mean 0, population variance (4 * 0.25 + 2 * 2.25) / 6 = 11/12.
    const s = Math.sqrt(11 / 12) + 1e-6
    close(reinforcePlusPlus([groups[0]!, groups[3]!]), [
      [0.5 / s, -0.5 / s, -0.5 / s, 0.5 / s],
      [-1.5 / s, 1.5 / s],
    ])
    // Unlike grpo (which gives both groups +-1), the group with the wider spread keeps larger advantages.
    const t = Math.sqrt((2 * 0.25 + 2 * 4) / 4) + 1e-6
    close(reinforcePlusPlus([[0, 1], [0, 4]]), [
      [-0.5 / t, 0.5 / t],
      [-2 / t, 2 / t],
    ])
    close(grpo([[0, 1], [0, 4]], { epsilon: 0 }), [
      [-1, 1],
      [-1, 1],
    ])
    expect(reinforcePlusPlus([[2, 2], [7]])).toEqual([[0, 0], [0]])
    expect(reinforcePlusPlus([])).toEqual([])
  })

  it('keep the batch shape and reject non-finite rewards', () => {
    for (const name of estimatorNames()) {
      expect(estimator(name)([[], [1]])).toEqual([[], [0]])
      expect(() => estimator(name)([[1, Number.NaN]])).toThrow(/group 0/)
    }
  })

  it('are registered by name, verl-style', () => {
    expect(estimatorNames()).toEqual(expect.arrayContaining(['grpo', 'mean-centred', 'rloo', 'reinforce++']))
    expect(estimator('grpo')).toBe(grpo)
    const raw = (g: readonly (readonly number[])[]) => g.map((r) => [...r])
    const decl = { name: 'raw-for-test', label: 'Raw', description: 'Rewards as advantages.', capabilities: {}, impl: raw }
    expect(namedRegistry('advantage estimator', [decl]).get('raw-for-test').impl([[3, 4]])).toEqual([[3, 4]])
    expect(() => namedRegistry('advantage estimator', [grpoDeclaration, { ...decl, name: 'grpo' }])).toThrow(/declared twice/)
    expect(() => estimator('nope')).toThrow(/unknown advantage estimator/)
  })
})

describe('zero-variance groups', () => {
  const batch = [[1, 1, 1], [0, 0], [1, 0], [0.5, 0.5], [1], [0.3, 0.3 + 1e-8]]
  const correct = (r: number) => r >= 1

  it('classify by std < 1e-6 with at least two rollouts, split by correctness', () => {
    expect(classifyGroups(batch, { correct })).toEqual(['all-correct', 'all-wrong', 'informative', 'all-wrong', 'too-small', 'all-wrong'])
    expect(classifyGroups(batch)).toEqual(['zero-unlabelled', 'zero-unlabelled', 'informative', 'zero-unlabelled', 'too-small', 'zero-unlabelled'])
    const correctFlags = [[true, true, true], [false, false], [true, false], [true, false], [true], [false, false]]
    expect(classifyGroups(batch, { correctFlags })).toEqual(['all-correct', 'all-wrong', 'informative', 'zero-mixed', 'too-small', 'all-wrong'])
    expect(classifyGroups([[0.3, 0.3 + 1e-8]], { tolerance: 1e-9 })).toEqual(['informative'])
  })

  it('reject ambiguous or misshapen correctness', () => {
    expect(() => classifyGroups(batch, { correct, correctFlags: batch.map((g) => g.map(() => true)) })).toThrow(/either/)
    expect(() => classifyGroups([[1, 1]], { correctFlags: [[true]] })).toThrow(RangeError)
    expect(() => classifyGroups([[1, 1]], { correctFlags: [] })).toThrow(RangeError)
  })

  it('report the zero-advantage rate over all groups and its split', () => {
    expect(zeroAdvantageStats(batch, { correct })).toEqual({
      groups: 6,
      zeroAdvantage: 4,
      allCorrect: 1,
      allWrong: 3,
      mixed: 0,
      unlabelled: 0,
      tooSmall: 1,
      rate: 4 / 6,
      allCorrectRate: 1 / 6,
      allWrongRate: 3 / 6,
    })
    expect(zeroAdvantageStats([]).rate).toBe(0)
  })

  it('drop zero-variance groups DAPO-style, returning the kept indices', () => {
    const { kept, dropped } = dropZeroVarianceGroups(batch, { correct })
    expect(kept).toEqual([2, 4])
    expect(dropped).toEqual([0, 1, 3, 5])
    expect(dropZeroVarianceGroups(batch, { dropTooSmall: true }).kept).toEqual([2])
  })

  it('agree with the estimators: exactly tied groups get exactly zero advantage, near ties only approximately under grpo', () => {
    const kinds = classifyGroups(batch)
    for (const name of estimatorNames()) {
      const adv = estimator(name)(batch)
      for (const g of [0, 1, 3]) expect(adv[g]!.every((a) => a === 0)).toBe(true)
    }
    // [0.3, 0.3 + 1e-8] counts as zero-advantage (std 5e-9 < 1e-6), but grpo divides 5e-9 by 5e-9 + 1e-6:
    // a small, not zero, advantage. Dropping such groups is what dropZeroVarianceGroups is for.
    expect(kinds[5]).toBe('zero-unlabelled')
    expect(Math.abs(grpo(batch)[5]![0]!)).toBeCloseTo(5e-9 / (5e-9 + 1e-6), 6)
    expect(Math.abs(meanCentred(batch)[5]![0]!)).toBeLessThan(1e-8)
  })
})
