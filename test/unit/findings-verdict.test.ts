import { describe, expect, it } from 'vitest'
import { judge, MIN_QUESTIONS, pairedEffect, signTest, verdictLine, verdictOf, type ArmEvidence, type Preconditions } from '../../main/experiments/findings'
import type { ClaimResult } from '../../preload/contract'

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

  describe('preconditions: no evidence with its reason', () => {
    // 12 questions x 1 seed; the reference varies, the treatment lies 0.2 above it (again varying): a clean positive effect.
    const n = 12
    const values = (f: (q: number) => number): Map<string, number> => new Map(Array.from({ length: n }, (_, q) => [`${q}:1`, f(q)] as [string, number]))
    const refValues = values((q) => 0.3 + (q % 4) * 0.1)
    const treatValues = values((q) => 0.5 + (q % 4) * 0.1 + (q % 3) * 0.02)
    const healthy = { turns: [3, 4, 2, 5, 3, 4, 3, 2, 4, 3, 5, 4], evidence: [2, 3, 1, 2, 4, 2, 3, 2, 1, 3, 2, 2], tools: [2, 3, 2, 1, 3, 2, 2, 3, 2, 2, 1, 2] }
    const arm = (label: string, v: Map<string, number>, over: Partial<ArmEvidence> = {}): ArmEvidence => ({ label, values: v, behaviour: healthy, trend: [0.1, 0.3, 0.4], ...over })
    const pre: Preconditions = { collapse: ['turns', 'evidence', 'tools'], moves: { diagnostic: 'reward', label: 'training reward' } }
    const line = (verdict: { verdict: ClaimResult['verdict']; reason: string; exact?: ClaimResult['exact'] }, effect = pairedEffect(refValues, treatValues)): string =>
      verdictLine({ number: 5, name: 'tool-diversity', verdict: verdict.verdict, reason: verdict.reason, exact: verdict.exact ?? null, effect } as ClaimResult)

    it('judges by the CI when every precondition holds', () => {
      const e = pairedEffect(refValues, treatValues)
      const v = judge(e, [arm('off', refValues), arm('on', treatValues)], pre, 'distinct tools', 'positive')
      expect(v.verdict).toBe('reproduced')
      expect(line(v)).toMatch(/^claim 5 tool-diversity: reproduced effect 0\.\d{3} CI \[/)
    })

    it(`too few questions: fewer than ${MIN_QUESTIONS} paired questions`, () => {
      const few = (v: Map<string, number>) => new Map([...v].slice(0, MIN_QUESTIONS - 1))
      const e = pairedEffect(few(refValues), few(treatValues))
      expect(e.count).toBe(MIN_QUESTIONS - 1)
      const v = judge(e, [arm('off', few(refValues)), arm('on', few(treatValues))], pre, 'distinct tools', 'positive')
      expect(line(v, e)).toBe(`claim 5 tool-diversity: no evidence (9 paired questions, fewer than ${MIN_QUESTIONS} for an informative 95% CI)`)
    })

    it('a complete effect (arms constant but different): decided by the exact sign test, printed "complete" with its p-value', () => {
      // Claim 5 as measured on the held-out set: 1 tool on every question without the diversity term, 3 with it.
      const ones = values(() => 1)
      const threes = values(() => 3)
      const e = pairedEffect(ones, threes)
      expect([e.mean, e.lower, e.upper]).toEqual([2, 2, 2])
      const v = judge(e, [arm('off', ones), arm('on', threes)], pre, 'distinct tools', 'positive')
      expect(v.verdict).toBe('reproduced')
      // 12 of 12 in one direction: two-sided p = 2 / 2^12.
      expect(v.exact).toEqual({ test: 'sign', questions: 12, agree: 12, p: expect.closeTo(2 / 4096, 15) })
      expect(line(v, e)).toBe("claim 5 tool-diversity: reproduced (complete effect: 12 of 12 paired questions differ in the paper's direction (exact sign test, two-sided p = 0.00049)) effect 2.000")
      // The other way round: complete, against the paper.
      const against = judge(pairedEffect(threes, ones), [arm('off', threes), arm('on', ones)], pre, 'distinct tools', 'positive')
      expect(against.verdict).toBe('contradicted')
      expect(against.reason).toMatch(/^complete effect: 12 of 12 paired questions differ against the paper's direction \(exact sign test, two-sided p = 0\.00049\)$/)
      // Both arms vary but the treatment is the reference shifted by a constant: zero-width CI, and a complete effect too.
      const shifted = new Map([...refValues].map(([k, x]) => [k, x + 0.25]))
      const z = pairedEffect(refValues, shifted)
      expect(z.upper! - z.lower!).toBeCloseTo(0, 12)
      expect(judge(z, [arm('off', refValues), arm('on', shifted)], pre, 'distinct tools', 'positive').reason).toMatch(/^complete effect: 12 of 12/)
    })

    it('a zero-width CI with equal arms, or constant arms that tie on some questions, stays no evidence', () => {
      const ones = values(() => 1)
      const same = judge(pairedEffect(ones, values(() => 1)), [arm('off', ones), arm('on', values(() => 1))], pre, 'distinct tools', 'positive')
      expect(same).toEqual({ verdict: 'no evidence', reason: 'no variance: every question has distinct tools 1 in "off"' })
      const equal = judge(pairedEffect(refValues, refValues), [arm('off', refValues), arm('on', new Map(refValues))], pre, 'distinct tools', 'positive')
      expect(line(equal, pairedEffect(refValues, refValues))).toBe('claim 5 tool-diversity: no evidence (the 95% CI has zero width (every paired difference is 0))')
      // 11 questions up, one tied: not complete, and the reference has no variance: no evidence.
      const mostly = values((q) => (q === 0 ? 1 : 3))
      const partial = judge(pairedEffect(ones, mostly), [arm('off', ones), arm('on', mostly)], pre, 'distinct tools', 'positive')
      expect(partial.verdict).toBe('no evidence')
      expect(partial.exact).toBeUndefined()
    })

    it('a complete effect on fewer paired questions than a verdict needs, or in a collapsed arm, stays no evidence', () => {
      const few = (f: () => number) => new Map(Array.from({ length: MIN_QUESTIONS - 1 }, (_, q) => [`${q}:1`, f()] as [string, number]))
      const e = pairedEffect(few(() => 1), few(() => 3))
      expect(judge(e, [arm('off', few(() => 1)), arm('on', few(() => 3))], pre, 'distinct tools', 'positive').verdict).toBe('no evidence')
      const ones = values(() => 1)
      const threes = values(() => 3)
      const oneTurn = judge(pairedEffect(ones, threes), [arm('off', ones, { behaviour: { ...healthy, turns: Array(n).fill(1) } }), arm('on', threes)], pre, 'distinct tools', 'positive')
      expect(oneTurn.verdict).toBe('no evidence')
      // The behaviour the effect measures (tools, claim 5) constant in one arm is the effect itself, not a collapse.
      const oneTool = arm('off', ones, { behaviour: { ...healthy, tools: Array(n).fill(1) } })
      expect(judge(pairedEffect(ones, threes), [oneTool, arm('on', threes)], { ...pre, measures: 'tools' }, 'distinct tools', 'positive').verdict).toBe('reproduced')
      expect(judge(pairedEffect(ones, threes), [oneTool, arm('on', threes)], pre, 'distinct tools', 'positive').verdict).toBe('no evidence')
    })

    it('the sign test: two-sided p of a lopsided split, ties left out', () => {
      
      const ref10 = new Map(Array.from({ length: 10 }, (_, q) => [`${q}:1`, 0] as [string, number]))
      // 8 up, 2 down: P(X <= 2) for Binomial(10, 1/2) = 56/1024, two-sided 112/1024.
      const t = signTest(ref10, new Map([...ref10.keys()].map((k, i) => [k, i < 8 ? 1 : -1])), 'positive')
      expect(t.questions).toBe(10)
      expect(t.agree).toBe(8)
      expect(t.p).toBeCloseTo(112 / 1024, 12)
      const tied = signTest(ref10, new Map([...ref10.keys()].map((k, i) => [k, i < 3 ? 0 : 1])), 'positive')
      expect([tied.questions, tied.agree, tied.ties]).toEqual([7, 7, 3])
      expect(tied.p).toBeCloseTo(2 / 128, 12)
    })

    it('a collapsed arm: every episode after one turn, or a constant evidence or tool count', () => {
      const e = pairedEffect(refValues, treatValues)
      const judged = (over: Partial<ArmEvidence>) => line(judge(e, [arm('full harness', refValues, over), arm('all off', treatValues)], pre, 'paragraph.recall', 'positive'))
      expect(judged({ behaviour: { ...healthy, turns: Array(n).fill(1) } })).toBe('claim 5 tool-diversity: no evidence (policy collapsed in "full harness": every held-out episode ended after one turn)')
      expect(judged({ behaviour: { ...healthy, evidence: Array(n).fill(2) } })).toBe('claim 5 tool-diversity: no evidence (policy collapsed in "full harness": every held-out episode gathered 2 evidence items)')
      expect(judged({ behaviour: { ...healthy, tools: Array(n).fill(1) } })).toBe('claim 5 tool-diversity: no evidence (policy collapsed in "full harness": every held-out episode used 1 distinct tool)')
      // Only the declared behaviours are read: a claim that does not declare tools is judged by its CI.
      const v = judge(e, [arm('a', refValues, { behaviour: { ...healthy, tools: Array(n).fill(1) } }), arm('b', treatValues)], { ...pre, collapse: ['turns', 'evidence'] }, 'm', 'positive')
      expect(v.verdict).toBe('reproduced')
    })

    it('a metric that did not move over training in any arm, or was never recorded', () => {
      const e = pairedEffect(refValues, treatValues)
      const flat = judge(e, [arm('free query', refValues, { trend: [1, 1, 1] }), arm('menu', treatValues, { trend: [1, 1] })], { collapse: [], moves: { diagnostic: 'spanningGroups', label: 'D_ret' } }, 'D_ret', 'positive')
      expect(line(flat)).toBe('claim 5 tool-diversity: no evidence (D_ret did not move over training in any arm ("free query" 1, "menu" 1 at the first and last step))')
      const one = judge(e, [arm('a', refValues, { trend: [0.2] }), arm('b', treatValues)], pre, 'm', 'positive')
      expect(line(one)).toBe('claim 5 tool-diversity: no evidence (training reward recorded at fewer than 2 training steps: training cannot have moved it)')
      // One arm moving is enough: the claim compares the arms, not each arm with itself.
      expect(judge(e, [arm('a', refValues, { trend: [0.2, 0.2] }), arm('b', treatValues)], pre, 'm', 'positive').verdict).toBe('reproduced')
    })
  })
})
