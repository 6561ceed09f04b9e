import { describe, expect, it } from 'vitest'
import { pairedEffect, verdictOf } from '../../main/experiments/findings'

/** The verdict logic on hand-made paired samples (keys `question:seed`; seeds are averaged within a question). */
describe('findings verdicts', () => {
  const keyed = (values: number[][]): Map<string, number> => new Map(values.flatMap((seeds, q) => seeds.map((v, s) => [`${q}:${s + 1}`, v] as [string, number])))
  const ref = keyed(Array.from({ length: 20 }, (_, q) => [0.3 + (q % 5) * 0.05, 0.32 + (q % 5) * 0.05]))

  it('reproduced when the CI excludes zero in the expected direction, contradicted the other way', () => {
    const better = keyed(Array.from({ length: 20 }, (_, q) => [0.5 + (q % 5) * 0.05 + (q % 3) * 0.01, 0.52 + (q % 5) * 0.05]))
    const up = pairedEffect(ref, better)
    expect(up.count).toBe(20)
    expect(up.lower!).toBeGreaterThan(0)
    expect(verdictOf(up, 'positive').verdict).toBe('reproduced')
    expect(verdictOf(up, 'negative').verdict).toBe('contradicted')
    const down = pairedEffect(better, ref)
    expect(down.mean!).toBeCloseTo(-up.mean!, 10)
    expect(verdictOf(down, 'negative').verdict).toBe('reproduced')
    expect(verdictOf(down, 'positive')).toEqual({ verdict: 'contradicted', reason: expect.stringMatching(/against the paper's direction/) })
  })

  it('inconclusive when the CI includes zero, with too few pairs, or with nothing to pair', () => {
    // Half the questions up by 0.1, half down by 0.1: the mean difference is 0 and the CI straddles it.
    const mixed = new Map([...ref].map(([k, v]) => [k, v + (Number(k.split(':')[0]) % 2 === 0 ? 0.1 : -0.1)]))
    const e = pairedEffect(ref, mixed)
    expect(e.lower!).toBeLessThan(0)
    expect(e.upper!).toBeGreaterThan(0)
    expect(verdictOf(e, 'positive')).toEqual({ verdict: 'inconclusive', reason: 'the 95% CI includes zero' })
    expect(verdictOf(pairedEffect(new Map([['1:1', 0]]), new Map([['1:1', 1]])), 'positive').verdict).toBe('inconclusive')
    expect(verdictOf(pairedEffect(ref, new Map([['99:1', 1]])), 'positive')).toEqual({ verdict: 'inconclusive', reason: 'no paired samples: nothing to compare' })
  })

  it('averages seeds within a question before resampling questions', () => {
    // Two questions, two seeds: differences (+1, -1) on q0 average to 0, (+2, +2) on q1 to 2; the mean over questions is 1.
    const a = new Map([['0:1', 0], ['0:2', 0], ['1:1', 0], ['1:2', 0]])
    const b = new Map([['0:1', 1], ['0:2', -1], ['1:1', 2], ['1:2', 2]])
    const e = pairedEffect(a, b)
    expect(e.count).toBe(2)
    expect(e.mean).toBe(1)
    expect(e.lower).toBe(0)
    expect(e.upper).toBe(2)
  })
})
