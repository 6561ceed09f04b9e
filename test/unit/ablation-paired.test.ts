import { describe, expect, it } from 'vitest'
import { alignKeys, estimate, pairedDifference, questionMeans } from '../../main/experiments/ablation'

const values = (entries: Record<string, number | null>) => new Map(Object.entries(entries))
const opts = { resamples: 2000, confidence: 0.95, seed: 7 }

describe('ablation statistics', () => {
  it('averages seeds within a question before resampling questions', () => {
    // q1: seeds 0 and 1 -> mean 0.5; q2: 1 -> 1; a null is skipped, not read as 0.
    expect(questionMeans(values({ '1:1': 0, '1:2': 1, '2:1': 1, '2:2': null }), ['1:1', '1:2', '2:1', '2:2'])).toEqual([0.5, 1])
  })

  it('matches a hand-computed bootstrap: differences {0, 1} give means 0, 0.5, 1 and the CI [0, 1] that does not exclude zero', () => {
    // Two questions, differences 0 and 1. A resample of two is {0,0}, {0,1}/{1,0} or {1,1}: means 0 (p 1/4), 0.5 (1/2), 1 (1/4).
    // With 2000 resamples about 500 are 0 and 500 are 1, so the 2.5% and 97.5% quantiles are exactly 0 and 1.
    const base = values({ '1:1': 0.5, '2:1': 0 })
    const row = values({ '1:1': 0.5, '2:1': 1 })
    const d = pairedDifference(base, row, ['1:1', '2:1'], opts)
    expect(d).toMatchObject({ mean: 0.5, lower: 0, upper: 1, count: 2, excludesZero: false })
  })

  it('marks an interval that excludes zero: every question gains 0.25 so every resample does', () => {
    const base = values({ '1:1': 0, '2:1': 0.5, '3:1': 0.25 })
    const row = values({ '1:1': 0.25, '2:1': 0.75, '3:1': 0.5 })
    const d = pairedDifference(base, row, ['1:1', '2:1', '3:1'], opts)
    expect(d.mean).toBeCloseTo(0.25, 12)
    expect(d.lower).toBeCloseTo(0.25, 12)
    expect(d.upper).toBeCloseTo(0.25, 12)
    expect(d.excludesZero).toBe(true)
    // A loss everywhere excludes zero from the other side.
    expect(pairedDifference(row, base, ['1:1', '2:1', '3:1'], opts).excludesZero).toBe(true)
  })

  it('resamples questions, not seeds: two seeds of one question are one unit', () => {
    // q1 differences over seeds: +1, -1 (mean 0); q2: +1, +1 (mean 1). Per question: {0, 1} -> the hand-computed case above.
    const base = values({ '1:1': 0, '1:2': 1, '2:1': 0, '2:2': 0 })
    const row = values({ '1:1': 1, '1:2': 0, '2:1': 1, '2:2': 1 })
    expect(pairedDifference(base, row, ['1:1', '1:2', '2:1', '2:2'], opts)).toMatchObject({ mean: 0.5, lower: 0, upper: 1, count: 2 })
    expect(estimate(row, ['1:1', '1:2', '2:1', '2:2'], opts)).toMatchObject({ mean: 0.75, count: 2 })
  })

  it('aligns rows with the base by question and seed, reporting what a row lacks', () => {
    const a = alignKeys(['1:1', '2:1', '3:1', '1:2'], ['1:1', '3:1', '4:1'])
    expect(a).toEqual({ paired: ['1:1', '3:1'], missing: ['2:1', '1:2'], extra: ['4:1'] })
  })

  it('has no difference where nothing pairs (and says so by count 0)', () => {
    expect(pairedDifference(values({ '1:1': 1 }), values({ '1:1': null }), ['1:1'], opts)).toMatchObject({ mean: null, lower: null, upper: null, count: 0, excludesZero: false })
  })
})
