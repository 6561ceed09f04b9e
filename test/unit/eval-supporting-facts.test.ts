import { describe, expect, it } from 'vitest'
import { jointScore, scoreAnswer, supportingFactScore } from '../../main/eval'

describe('supporting-fact metrics (official HotpotQA rule)', () => {
  it('scores sets of [title, sentence] pairs, counting duplicates once', () => {
    // pred set {A0, B1, C2}, gold {A0, B1, B2}: tp 2, fp 1, fn 1
    const r = supportingFactScore(
      [['A', 0], ['A', 0], ['B', 1], ['C', 2]],
      [['A', 0], ['B', 1], ['B', 2], ['B', 2]],
    )
    expect(r.em).toBe(0)
    expect(r.precision).toBeCloseTo(2 / 3, 12)
    expect(r.recall).toBeCloseTo(2 / 3, 12)
    expect(r.f1).toBeCloseTo(2 / 3, 12)
  })

  it('accepts the object form and gives EM 1 only without false positives or negatives', () => {
    const gold = [{ title: 'Paris', sentence: 0 }, { title: 'France', sentence: 3 }]
    expect(supportingFactScore([['France', 3], { title: 'Paris', sentence: 0 }], gold)).toEqual({ em: 1, f1: 1, precision: 1, recall: 1 })
    // Subset: P 1, R 1/2, F1 2/3
    const partial = supportingFactScore([['Paris', 0]], gold)
    expect(partial).toMatchObject({ em: 0, precision: 1, recall: 0.5 })
    expect(partial.f1).toBeCloseTo(2 / 3, 12)
  })

  it('keeps titles and sentence ids apart', () => {
    expect(supportingFactScore([['A1', 0]], [['A', 10]]).f1).toBe(0)
    expect(supportingFactScore([['A', 1]], [['A', 0]]).f1).toBe(0)
  })

  it('handles empty sides like the script', () => {
    expect(supportingFactScore([], [['A', 0]])).toEqual({ em: 0, f1: 0, precision: 0, recall: 0 })
    expect(supportingFactScore([['A', 0]], [])).toEqual({ em: 0, f1: 0, precision: 0, recall: 0 })
    expect(supportingFactScore([], [])).toEqual({ em: 1, f1: 0, precision: 0, recall: 0 })
  })
})

describe('joint metrics', () => {
  it('multiplies answer and supporting-fact precision and recall', () => {
    // answer: P 1, R 2/3; SP: P 2/3, R 2/3 -> joint P 2/3, R 4/9, F1 = 2(8/27)/(10/9) = 8/15
    const answer = scoreAnswer('Barack Obama', 'Barack Hussein Obama', 'official')
    const sp = supportingFactScore([['A', 0], ['B', 1], ['C', 2]], [['A', 0], ['B', 1], ['B', 2]])
    const joint = jointScore(answer, sp)
    expect(joint.em).toBe(0)
    expect(joint.precision).toBeCloseTo(2 / 3, 12)
    expect(joint.recall).toBeCloseTo(4 / 9, 12)
    expect(joint.f1).toBeCloseTo(8 / 15, 12)
  })

  it('is 1 when both parts are exact and 0 when either side has nothing', () => {
    const exact = jointScore(scoreAnswer('Paris', 'paris', 'official'), supportingFactScore([['P', 0]], [['P', 0]]))
    expect(exact).toEqual({ em: 1, f1: 1, precision: 1, recall: 1 })
    const wrong = jointScore(scoreAnswer('yes', 'no', 'official'), supportingFactScore([['P', 0]], [['P', 0]]))
    expect(wrong).toEqual({ em: 0, f1: 0, precision: 0, recall: 0 })
  })
})
