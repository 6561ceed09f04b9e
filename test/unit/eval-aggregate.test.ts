import { describe, expect, it } from 'vitest'
import {
  aggregate,
  bootstrapMeanCI,
  comparePaired,
  documentRecalls,
  questionResult,
  scoreAnswer,
  seededRandom,
  supportingFactScore,
  jointScore,
  type QuestionResult,
} from '../../main/eval'

const rec = (questionId: string, metrics: QuestionResult['metrics'], variant: QuestionResult['variant'] = 'official'): QuestionResult => ({
  questionId,
  variant,
  metrics,
})

describe('seeded bootstrap', () => {
  it('draws reproducible numbers in [0, 1)', () => {
    const a = seededRandom(42)
    const b = seededRandom(42)
    const xs = Array.from({ length: 1000 }, () => a())
    expect(xs).toEqual(Array.from({ length: 1000 }, () => b()))
    expect(xs.every((x) => x >= 0 && x < 1)).toBe(true)
    expect(Math.abs(xs.reduce((s, x) => s + x, 0) / xs.length - 0.5)).toBeLessThan(0.05)
    expect(seededRandom(43)()).not.toBe(seededRandom(42)())
  })

  it('is deterministic by seed and contains the mean', () => {
    const values = [0, 1, 1, 0.5, 0.25, 1, 0, 0.75, 1, 0.2]
    const mean = values.reduce((s, x) => s + x, 0) / values.length
    const a = bootstrapMeanCI(values, { seed: 7 })!
    expect(bootstrapMeanCI(values, { seed: 7 })).toEqual(a)
    expect(bootstrapMeanCI(values, { seed: 8 })).not.toEqual(a)
    expect(a.lower).toBeLessThanOrEqual(mean)
    expect(a.upper).toBeGreaterThanOrEqual(mean)
    expect(a).toMatchObject({ confidence: 0.95, resamples: 2000, seed: 7 })
    expect(a.lower).toBeGreaterThanOrEqual(0)
    expect(a.upper).toBeLessThanOrEqual(1)
  })

  it('agrees with the normal approximation on a large balanced sample', () => {
    // 100 values of 0/1 with mean 0.5: standard error 0.05, so about [0.40, 0.60].
    const values = Array.from({ length: 100 }, (_, i) => i % 2)
    const ci = bootstrapMeanCI(values, { seed: 1, resamples: 4000 })!
    expect(ci.lower).toBeCloseTo(0.4, 1)
    expect(ci.upper).toBeCloseTo(0.6, 1)
    const narrow = bootstrapMeanCI(values, { seed: 1, resamples: 4000, confidence: 0.5 })!
    expect(narrow.upper - narrow.lower).toBeLessThan(ci.upper - ci.lower)
  })

  it('handles degenerate samples and rejects bad options', () => {
    expect(bootstrapMeanCI([])).toBeNull()
    expect(bootstrapMeanCI([0.3, 0.3, 0.3])).toMatchObject({ lower: 0.3, upper: 0.3 })
    expect(bootstrapMeanCI([0.7])).toMatchObject({ lower: 0.7, upper: 0.7 })
    expect(() => bootstrapMeanCI([1], { resamples: 0 })).toThrow(RangeError)
    expect(() => bootstrapMeanCI([1], { confidence: 1 })).toThrow(RangeError)
    expect(() => bootstrapMeanCI([1], { seed: 0.5 })).toThrow(RangeError)
  })
})

describe('per-question records', () => {
  it('flattens score objects under prefixed names and carries the variant', () => {
    const answer = scoreAnswer('yes it is', 'yes', 'graphr1')
    const sp = supportingFactScore([['A', 0]], [['A', 0], ['B', 1]])
    const r = questionResult('q1', {
      answer,
      supportingFacts: sp,
      joint: jointScore(answer, sp),
      harness1: documentRecalls({ curated: ['g1'], seen: [], gold: [{ id: 'g1', text: 'x' }], answers: ['yes'] }),
      extra: { 'retrieval.recall@5': 0.5 },
    })
    expect(r.questionId).toBe('q1')
    expect(r.variant).toBe('graphr1')
    expect(r.metrics['answer.f1']).toBe(0.5)
    expect(r.metrics['answer.em']).toBe(0)
    expect(r.metrics['sp.recall']).toBe(0.5)
    expect(r.metrics['joint.recall']).toBe(0.5)
    expect(r.metrics['harness1.curatedRecall']).toBe(1)
    expect(r.metrics['harness1.answerRecall']).toBeNull()
    expect(r.metrics['retrieval.recall@5']).toBe(0.5)
    expect(questionResult('q2', { extra: { reward: 1 } }).variant).toBeNull()
  })
})

describe('aggregate', () => {
  const records = [
    rec('q1', { em: 1, f1: 1, recall: 0.5 }),
    rec('q2', { em: 0, f1: 0.5, recall: null }),
    rec('q3', { em: 0, f1: 0.25 }),
    rec('q4', { em: 1, f1: 1, recall: 1 }),
  ]

  it('computes mean, count, missing and a CI per metric', () => {
    const out = aggregate(records, { seed: 3 })
    expect(Object.keys(out)).toEqual(['em', 'f1', 'recall'])
    expect(out.em).toMatchObject({ metric: 'em', mean: 0.5, count: 4, missing: 0, variant: 'official' })
    expect(out.f1!.mean).toBeCloseTo(2.75 / 4, 12)
    expect(out.recall).toMatchObject({ mean: 0.75, count: 2, missing: 2 })
    for (const a of Object.values(out)) {
      expect(a.ci!.lower).toBeLessThanOrEqual(a.mean!)
      expect(a.ci!.upper).toBeGreaterThanOrEqual(a.mean!)
    }
  })

  it('does not depend on record order', () => {
    const shuffled = [records[2]!, records[0]!, records[3]!, records[1]!]
    expect(aggregate(shuffled, { seed: 3 })).toEqual(aggregate(records, { seed: 3 }))
  })

  it('reports only named metrics, including ones nobody has', () => {
    const out = aggregate(records, { metrics: ['f1', 'sp.f1'] })
    expect(Object.keys(out)).toEqual(['f1', 'sp.f1'])
    expect(out['sp.f1']).toMatchObject({ mean: null, count: 0, missing: 4, ci: null })
    expect(aggregate([])).toEqual({})
  })

  it('refuses mixed rules, duplicate questions and non-finite values', () => {
    expect(() => aggregate([rec('q1', { f1: 1 }, 'official'), rec('q2', { f1: 1 }, 'graphr1')])).toThrow(/mix answer rules/)
    expect(aggregate([rec('q1', { f1: 1 }, null), rec('q2', { f1: 0 }, 'graphr1')]).f1!.variant).toBe('graphr1')
    expect(() => aggregate([rec('q1', { f1: 1 }), rec('q1', { f1: 0 })])).toThrow(/two results/)
    expect(() => aggregate([rec('q1', { f1: Number.NaN })])).toThrow(RangeError)
  })
})

describe('paired comparison', () => {
  const baseline = [
    rec('q1', { f1: 0.5 }),
    rec('q2', { f1: 1 }),
    rec('q3', { f1: 0 }),
    rec('q4', { f1: 0.2 }),
    rec('q5', { f1: 0.4 }),
    rec('q6', { f1: null }),
  ]
  const candidate = [
    rec('q5', { f1: 0.4 }),
    rec('q4', { f1: 0.6 }),
    rec('q3', { f1: 1 }),
    rec('q2', { f1: 0.5 }),
    rec('q1', { f1: 1 }),
    rec('q7', { f1: 1 }),
  ]

  it('pairs by question id and counts wins, ties and losses', () => {
    // differences: q1 +0.5, q2 -0.5, q3 +1, q4 +0.4, q5 0 -> mean 1.4 / 5 = 0.28
    const c = comparePaired(baseline, candidate, 'f1', { seed: 11 })
    expect(c).toMatchObject({ metric: 'f1', count: 5, wins: 3, ties: 1, losses: 1, unpaired: { baseline: 0, candidate: 1 }, variant: 'official' })
    expect(c.baselineMean).toBeCloseTo(2.1 / 5, 12)
    expect(c.candidateMean).toBeCloseTo(3.5 / 5, 12)
    expect(c.meanDifference).toBeCloseTo(0.28, 12)
    expect(c.ci!.lower).toBeLessThanOrEqual(0.28)
    expect(c.ci!.upper).toBeGreaterThanOrEqual(0.28)
    expect(comparePaired(baseline, candidate, 'f1', { seed: 11 })).toEqual(c)
    expect(comparePaired([...baseline].reverse(), candidate, 'f1', { seed: 11 })).toEqual(c)
  })

  it('gives a zero-width interval when every question moves by the same amount', () => {
    const a = [rec('q1', { em: 0 }), rec('q2', { em: 0.5 }), rec('q3', { em: 0.25 })]
    const b = a.map((r) => rec(r.questionId, { em: (r.metrics.em as number) + 0.25 }))
    const c = comparePaired(a, b, 'em')
    expect(c.meanDifference).toBeCloseTo(0.25, 12)
    expect(c.ci!.lower).toBeCloseTo(0.25, 12)
    expect(c.ci!.upper).toBeCloseTo(0.25, 12)
    expect(c).toMatchObject({ wins: 3, ties: 0, losses: 0 })
  })

  it('reports unpaired values and refuses to compare different rules', () => {
    const c = comparePaired([rec('q1', { f1: 1 }), rec('q2', { f1: 1 })], [rec('q3', { f1: 1 })], 'f1')
    expect(c).toMatchObject({ count: 0, meanDifference: null, ci: null, unpaired: { baseline: 2, candidate: 1 } })
    expect(() => comparePaired([rec('q1', { f1: 1 }, 'official')], [rec('q1', { f1: 1 }, 'graphr1')], 'f1')).toThrow(/cannot compare/)
  })
})
