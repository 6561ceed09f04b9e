/** Credit schemes (outcome, SNC, info-gain) and their combination with the outcome advantage, on hand-built episodes. */
import { describe, expect, it, vi } from 'vitest'
import {
  combineAdvantages,
  creditNames,
  creditScheme,
  infoGain,
  memoScorer,
  outcomeCredit,
  pickAlternatives,
  creditSchemes,
  sncDeclaration,
  snc,
  sncStop,
  type CreditScheme,
  type CreditStep,
  type EvidenceScorer,
  type StepCredit,
} from '../../main/rl/credit'
import { namedRegistry } from '../../main/rl/named-registry'

/** A fake answerer: a table from sorted id sets ('' for the empty set) to scores; unknown sets throw. */
const tableScorer = (table: Record<string, number>): { score: EvidenceScorer; calls: string[] } => {
  const calls: string[] = []
  const score: EvidenceScorer = (ids) => {
    const key = ids.join(',')
    calls.push(key)
    const value = table[key]
    if (value === undefined) return Promise.reject(new Error(`unexpected evidence set {${key}}`))
    return Promise.resolve(value)
  }
  return { score, calls }
}

const never: EvidenceScorer = () => Promise.reject(new Error('the scorer must not be called'))

const step = (s: Partial<CreditStep> & Pick<CreditStep, 'chosen'>): CreditStep => ({
  menu: [],
  previewOf: {},
  seenBefore: [],
  committedBefore: [],
  producers: [],
  ...s,
})

const ANSWER = { id: 'ans', type: 'ANSWER' }

/**
 * Appendix N.3: SELECT s1 (the bridge) gains ~0 but names entity B; LOOKUP B surfaces s5 (+0.61)
 * while every same-state alternative gains +0.02; then ANSWER.
 */
const bridgeTable = {
  '': -2.0,
  '1': -2.0,
  '2': -1.99,
  '3': -2.01,
  '4': -2.0,
  '1,5': -1.39,
  '1,4': -1.98,
  '1,2': -1.98,
  '1,3': -1.98,
}
const bridgeSteps = (): CreditStep[] => [
  step({
    chosen: { id: 's1', type: 'SELECT' },
    menu: [{ id: 's1', type: 'SELECT' }, { id: 's2', type: 'SELECT' }, { id: 's3', type: 'SELECT' }, { id: 'eA', type: 'LOOKUP' }, ANSWER],
    previewOf: { s1: [1], s2: [2], s3: [3], eA: [4] },
    seenBefore: [1, 2, 3],
  }),
  step({
    chosen: { id: 'eB', type: 'LOOKUP' },
    menu: [
      { id: 'eB', type: 'LOOKUP' },
      { id: 'eA', type: 'LOOKUP' },
      { id: 's2', type: 'SELECT' },
      { id: 's3', type: 'SELECT' },
      { id: 'w2', type: 'ANSWER_WITH' },
      { id: 'w3', type: 'ANSWER_WITH' },
      ANSWER,
    ],
    // eB re-surfaces s2 as well; only s5 is new.
    previewOf: { eB: [2, 5], eA: [4], s2: [2], s3: [3], w2: [2], w3: [3] },
    seenBefore: [1, 2, 3],
    committedBefore: [1],
    producers: [0],
  }),
  step({ chosen: { id: 'ans', type: 'ANSWER' }, menu: [ANSWER], seenBefore: [1, 2, 3, 5], committedBefore: [1] }),
]

describe('snc', () => {
  it('passes the LOOKUP credit back to the bridge SELECT that enabled it (appendix N.3)', async () => {
    const { score, calls } = tableScorer(bridgeTable)
    const credit = await snc({ steps: bridgeSteps(), score, seed: 7 })

    const lookup = credit[1]!
    expect(lookup.gain).toBeCloseTo(0.61, 12)
    expect(lookup.frontier).toBeCloseTo(0.59, 12)
    expect(lookup.enablement).toBe(0)
    expect(lookup.total).toBeCloseTo(0.59, 12)
    expect(lookup.alternatives).toHaveLength(4)
    expect(new Set(lookup.alternatives.map((a) => a.type))).toEqual(new Set(['LOOKUP', 'SELECT', 'ANSWER_WITH']))
    lookup.alternatives.forEach((a) => expect(a.gain).toBeCloseTo(0.02, 12))

    const bridge = credit[0]!
    expect(bridge.gain).toBe(0)
    expect(bridge.frontier).toBeCloseTo(0, 12) // alternatives +0.01, -0.01, 0
    expect(bridge.enablement).toBeCloseTo(0.59, 12)
    expect(bridge.total).toBeCloseTo(0.59, 12)

    expect(credit[2]).toEqual({ total: 0, frontier: 0, enablement: 0, gain: 0, alternatives: [] })
    // Memoised: every distinct set scored exactly once (the empty set and {1} serve several gains).
    expect(calls.length).toBe(new Set(calls).size)
    expect(calls).toContain('')
    expect(calls).toContain('1,5')
  })

  it('sends credit one hop only, splits it across producers and clamps the total', async () => {
    const steps = bridgeSteps().slice(0, 2)
    // SELECT s5, surfaced by the LOOKUP: no alternatives, so frontier = gain = 0.61, all to step 1.
    steps.push(step({ chosen: { id: 's5', type: 'SELECT' }, menu: [{ id: 's5', type: 'SELECT' }, ANSWER], previewOf: { s5: [5] }, seenBefore: [1, 2, 3, 5], committedBefore: [1], producers: [1] }))
    const { score } = tableScorer(bridgeTable)
    const credit = await snc({ steps, score, seed: 7 })
    expect(credit[2]!.frontier).toBeCloseTo(0.61, 12)
    expect(credit[2]!.alternatives).toEqual([])
    expect(credit[1]!.enablement).toBeCloseTo(0.61, 12)
    expect(credit[1]!.total).toBe(1) // 0.59 + 0.61, clamped to the default 1
    expect(credit[0]!.enablement).toBeCloseTo(0.59, 12) // nothing from step 2: it is two hops away

    const tight = await snc({ steps, score, seed: 7 }, { clamp: 0.5 })
    expect(tight.map((c) => c.total)).toEqual([0.5, 0.5, 0.5])
    expect(tight[1]!.frontier).toBeCloseTo(0.59, 12) // components stay raw
  })

  it('splits positive credit evenly over several producers and never sends negative credit back', async () => {
    const { score } = tableScorer({ '': -3, '7': -2.6, '8': -3.5 })
    const lookups = [
      step({ chosen: { id: 'eA', type: 'LOOKUP' }, menu: [{ id: 'eA', type: 'LOOKUP' }], previewOf: { eA: [] } }),
      step({ chosen: { id: 'eB', type: 'LOOKUP' }, menu: [{ id: 'eB', type: 'LOOKUP' }], previewOf: { eB: [] } }),
    ]
    const good = await snc({ steps: [...lookups, step({ chosen: { id: 's7', type: 'SELECT' }, previewOf: { s7: [7] }, producers: [0, 1, 1] })], score, seed: 0 })
    expect(good[2]!.frontier).toBeCloseTo(0.4, 12)
    expect(good[0]!.enablement).toBeCloseTo(0.2, 12)
    expect(good[1]!.enablement).toBeCloseTo(0.2, 12)

    const bad = await snc({ steps: [...lookups, step({ chosen: { id: 's8', type: 'SELECT' }, previewOf: { s8: [8] }, producers: [0, 1] })], score, seed: 0 })
    expect(bad[2]!.total).toBeCloseTo(-0.5, 12)
    expect(bad[0]!.enablement).toBe(0)
    expect(bad[1]!.enablement).toBe(0)
  })

  it('gives re-surfaced text exactly zero gain without calling the scorer', async () => {
    const score = vi.fn(never)
    const steps = [
      // LOOKUP whose preview is all seen; its only alternative re-commits a committed sentence.
      step({
        chosen: { id: 'eA', type: 'LOOKUP' },
        menu: [{ id: 'eA', type: 'LOOKUP' }, { id: 's1', type: 'SELECT' }, ANSWER],
        previewOf: { eA: [2, 3], s1: [1] },
        seenBefore: [1, 2, 3],
        committedBefore: [1],
      }),
      // Free query: a SEARCH returning only seen text (committed counts as seen).
      step({ chosen: { id: 'q', type: 'SEARCH' }, menu: [{ id: 'q', type: 'SEARCH' }], previewOf: { q: [1, 2] }, seenBefore: [2], committedBefore: [1] }),
      // ANSWER_WITH an already committed sentence adds nothing either.
      step({ chosen: { id: 'w1', type: 'ANSWER_WITH' }, previewOf: { w1: [1] }, seenBefore: [1], committedBefore: [1] }),
      // Invalid step and ANSWER are not information actions.
      step({ chosen: { id: 'zz', type: null }, previewOf: { zz: [9] } }),
      step({ chosen: { id: 'ans', type: 'ANSWER' }, previewOf: { ans: [9] } }),
    ]
    const credit = await snc({ steps, score, seed: 1 })
    expect(score).not.toHaveBeenCalled()
    for (const c of credit) {
      expect(Object.is(c.gain, 0)).toBe(true)
      expect(Object.is(c.total, 0)).toBe(true)
    }
    expect(credit[0]!.alternatives).toEqual([{ id: 's1', type: 'SELECT', gain: 0 }])

    // Contrast: committing a seen but uncommitted sentence is new evidence and is scored.
    const { score: table, calls } = tableScorer({ '1': -2, '1,2': -1.5 })
    const sel = await snc({ steps: [step({ chosen: { id: 's2', type: 'SELECT' }, previewOf: { s2: [2] }, seenBefore: [1, 2], committedBefore: [1] })], score: table, seed: 1 })
    expect(sel[0]!.gain).toBeCloseTo(0.5, 12)
    expect(calls.sort()).toEqual(['1', '1,2'])
  })

  it('snc-stop: an ANSWER is measured against continuing (minus the mean gain of its alternatives); other steps as snc', async () => {
    // Stopping while s2 and s3 would still raise the score: charged their mean gain; plain snc gives ANSWER nothing.
    const early = step({ chosen: ANSWER, menu: [ANSWER, { id: 's2', type: 'SELECT' }, { id: 's3', type: 'SELECT' }], previewOf: { s2: [2], s3: [3] }, seenBefore: [1, 2, 3], committedBefore: [1] })
    const { score } = tableScorer({ '1': -2, '1,2': -1, '1,3': -1.5 })
    const [c] = await sncStop({ steps: [early], score, seed: 0 })
    expect(c!.gain).toBe(0)
    expect(c!.frontier).toBeCloseTo(-0.75, 12)
    expect(c!.total).toBeCloseTo(-0.75, 12)
    expect(c!.alternatives.map((a) => a.id).sort()).toEqual(['s2', 's3'])
    expect((await snc({ steps: [early], score, seed: 0 }))[0]).toEqual({ total: 0, frontier: 0, enablement: 0, gain: 0, alternatives: [] })
    // Stopping when every move would lower the score (a precision-aware scorer) is paid; when none is on offer, free.
    const late = step({ ...early, previewOf: { s2: [2], s3: [3] } })
    const [paid] = await sncStop({ steps: [late], score: tableScorer({ '1': -1, '1,2': -1.2, '1,3': -1.4 }).score, seed: 0 })
    expect(paid!.frontier).toBeCloseTo(0.3, 12)
    const [free] = await sncStop({ steps: [step({ chosen: ANSWER, menu: [ANSWER] })], score: never, seed: 0 })
    expect(free!.total).toBe(0)
    // The other steps are credited exactly as snc credits them.
    const withoutAnswer = bridgeSteps().slice(0, 2)
    expect(await sncStop({ steps: withoutAnswer, score: tableScorer(bridgeTable).score, seed: 3 })).toEqual(await snc({ steps: withoutAnswer, score: tableScorer(bridgeTable).score, seed: 3 }))
    expect(creditScheme('snc-stop')).toBe(sncStop)
  })

  it('gives a chosen item without a preview no frontier credit', async () => {
    const s = step({ chosen: { id: 'eX', type: 'LOOKUP' }, menu: [{ id: 'eX', type: 'LOOKUP' }, { id: 's1', type: 'SELECT' }], previewOf: { s1: [1] } })
    const [c] = await snc({ steps: [s], score: never, seed: 0 })
    expect(c).toEqual({ total: 0, frontier: 0, enablement: 0, gain: 0, alternatives: [] })
  })

  it('rejects producers that are not earlier steps, and non-finite scores', async () => {
    await expect(snc({ steps: [step({ chosen: { id: 'a', type: 'ANSWER' }, producers: [0] })], score: never, seed: 0 })).rejects.toThrow(/producer 0/)
    const nan: EvidenceScorer = () => Promise.resolve(Number.NaN)
    await expect(snc({ steps: [step({ chosen: { id: 's1', type: 'SELECT' }, previewOf: { s1: [1] } })], score: nan, seed: 0 })).rejects.toThrow(/NaN/)
  })
})

describe('type-stratified alternatives', () => {
  const menu = [
    ...['s1', 's2', 's3', 's4', 's5', 's6'].map((id) => ({ id, type: 'SELECT' })),
    { id: 'L1', type: 'LOOKUP' },
    { id: 'L2', type: 'LOOKUP' },
    { id: 'L3', type: 'LOOKUP' }, // no preview: cannot be scored, never picked
    { id: 'W1', type: 'ANSWER_WITH' },
    ANSWER,
  ]
  const previewOf: Record<string, number[]> = { s1: [1], s2: [2], s3: [3], s4: [4], s5: [5], s6: [6], L1: [7], L2: [8], W1: [1], ans: [] }
  const s = step({ chosen: { id: 'L1', type: 'LOOKUP' }, menu, previewOf })

  it('covers every other type present before repeating one, never ANSWER or the chosen item', () => {
    for (let seed = 0; seed < 20; seed++) {
      const picked = pickAlternatives(s, seed, 3, 4)
      expect(picked).toHaveLength(4)
      const ids = picked.map((p) => p.id)
      expect(ids).toContain('L2')
      expect(ids).toContain('W1')
      expect(ids.filter((id) => id.startsWith('s'))).toHaveLength(2) // LOOKUP and ANSWER_WITH run out first
      expect(ids).not.toContain('L1')
      expect(ids).not.toContain('L3')
      expect(ids).not.toContain('ans')
      // Two slots: two different types.
      expect(new Set(pickAlternatives(s, seed, 3, 2).map((p) => p.type)).size).toBe(2)
    }
  })

  it('is deterministic in (seed, step index), ignores menu order, and varies with the seed', () => {
    const a = pickAlternatives(s, 42, 3, 4)
    expect(pickAlternatives(s, 42, 3, 4)).toEqual(a)
    expect(pickAlternatives({ ...s, menu: [...menu].reverse() }, 42, 3, 4)).toEqual(a)
    const picks = new Set<string>()
    for (let seed = 0; seed < 20; seed++) picks.add(pickAlternatives(s, seed, 3, 4).map((p) => p.id).sort().join(' '))
    for (let t = 0; t < 20; t++) picks.add(pickAlternatives(s, 42, t, 4).map((p) => p.id).sort().join(' '))
    expect(picks.size).toBeGreaterThan(1)
    expect(pickAlternatives(s, 42, 3, 0)).toEqual([])
  })

  it('is what snc measures against', async () => {
    const table: Record<string, number> = { '': 0 }
    for (let i = 1; i <= 8; i++) table[String(i)] = i / 100
    const { score } = tableScorer(table)
    const [c] = await snc({ steps: [s], score, seed: 5 }, { maxAlternatives: 4 })
    const picked = pickAlternatives(s, 5, 0, 4)
    expect(c!.alternatives.map((a) => a.id)).toEqual(picked.map((p) => p.id))
    const mean = picked.reduce((sum, p) => sum + table[previewOf[p.id]!.join(',')]!, 0) / 4
    expect(c!.frontier).toBeCloseTo(0.07 - mean, 12)
  })
})

describe('outcome', () => {
  it('gives every step zero credit and never scores', async () => {
    const score = vi.fn(never)
    const credit = await outcomeCredit({ steps: bridgeSteps(), score, seed: 0 })
    expect(credit).toEqual(bridgeSteps().map(() => ({ total: 0, frontier: 0, enablement: 0, gain: 0, alternatives: [] })))
    expect(score).not.toHaveBeenCalled()
  })
})

describe('info-gain', () => {
  // Before-sets (seen ∪ committed): {1,2}, {1,2,3}, {1,2,3}; the last LOOKUP's preview adds 4.
  const steps = [
    step({ chosen: { id: 'eA', type: 'LOOKUP' }, previewOf: { eA: [3] }, seenBefore: [1, 2] }),
    step({ chosen: { id: 's3', type: 'SELECT' }, previewOf: { s3: [3] }, seenBefore: [1, 2, 3] }),
    step({ chosen: { id: 'eB', type: 'LOOKUP' }, previewOf: { eB: [4, 1] }, seenBefore: [1, 2, 3], committedBefore: [3] }),
  ]
  const table = { '1,2': -3.0, '1,2,3': -2.2, '1,2,3,4': -1.5 }

  it('is the score after each turn minus the score before it', async () => {
    const { score, calls } = tableScorer(table)
    const credit = await infoGain({ steps, score, seed: 0 })
    expect(credit.map((c) => c.gain)).toEqual([-2.2 - -3.0, 0, -1.5 - -2.2])
    expect(credit.map((c) => c.total)).toEqual([-2.2 - -3.0, 0, -1.5 - -2.2])
    expect(credit.every((c) => c.frontier === 0 && c.enablement === 0 && c.alternatives.length === 0)).toBe(true)
    expect(calls.sort()).toEqual(['1,2', '1,2,3', '1,2,3,4'])

    const clamped = await infoGain({ steps, score, seed: 0 }, { clamp: 0.5 })
    expect(clamped.map((c) => c.total)).toEqual([0.5, 0, 0.5])
  })

  it('gives a final ANSWER zero without scoring', async () => {
    const score = vi.fn(never)
    const credit = await infoGain({ steps: [step({ chosen: { id: 'ans', type: 'ANSWER' }, previewOf: { ans: [9] }, seenBefore: [1] })], score, seed: 0 })
    expect(credit[0]!.total).toBe(0)
    expect(score).not.toHaveBeenCalled()
  })
})

describe('combineAdvantages', () => {
  const c = (total: number): StepCredit => ({ total, frontier: total, enablement: 0, gain: total, alternatives: [] })
  const credits = [[c(0.2), c(0), c(-0.1)], [c(0.4)], []]
  const outcome = [1, -0, 0.5]

  it('with lambda 0 is exactly the outcome advantage at every step', () => {
    const { perStep } = combineAdvantages(outcome, credits, { lambda: 0 })
    expect(perStep).toEqual([[1, 1, 1], [-0], []])
    expect(Object.is(perStep[1]![0], -0)).toBe(true)
  })

  it('with lambda > 0 matches a hand computation (std of the non-zero credits)', () => {
    const m = (0.2 - 0.1 + 0.4) / 3
    const s = Math.sqrt(((0.2 - m) ** 2 + (-0.1 - m) ** 2 + (0.4 - m) ** 2) / 3)
    const { perStep, scale } = combineAdvantages(outcome, credits, { lambda: 0.5, clamp: 1.5 })
    expect(scale).toBeCloseTo(s, 12)
    expect(0.4 / s).toBeGreaterThan(1.5) // so the second rollout's step is clamped
    const expected = [[1 + 0.5 * (0.2 / s), 1, 1 + 0.5 * (-0.1 / s)], [-0 + 0.5 * 1.5], []]
    expected.forEach((row, i) => row.forEach((v, t) => expect(perStep[i]![t]).toBeCloseTo(v, 12)))
    expect(perStep[2]).toEqual([])
  })

  it('supports the mean-abs scale and floors the scale at sMin', () => {
    expect(combineAdvantages(outcome, credits, { lambda: 1, scale: 'mean-abs' }).scale).toBeCloseTo(0.7 / 3, 12)
    const tiny = combineAdvantages([0, 0], [[c(1e-5)], [c(3e-5)]], { lambda: 1 })
    expect(tiny.scale).toBe(5e-4)
    expect(tiny.perStep[0]![0]).toBeCloseTo(1e-5 / 5e-4, 12)
    expect(combineAdvantages([0.3], [[c(0)]], { lambda: 1, sMin: 1e-3 })).toEqual({ perStep: [[0.3]], scale: 1e-3 })
    // Two non-zero credits, 0.01 and 1: std 0.495; the default clamp is 3.
    expect(combineAdvantages([0, 0], [[c(0.01)], [c(1)]], { lambda: 1 }).perStep[1]![0]).toBeCloseTo(1 / 0.495, 12)
    expect(combineAdvantages([0], [[c(10)]], { lambda: 2, sMin: 1 }).perStep[0]![0]).toBe(6)
  })

  it('rejects mismatched batches and bad options', () => {
    expect(() => combineAdvantages([1], credits, { lambda: 1 })).toThrow(/1 outcome advantages but 3/)
    expect(() => combineAdvantages(outcome, credits, { lambda: -1 })).toThrow(/lambda/)
    expect(() => combineAdvantages([Number.NaN], [[]], { lambda: 1 })).toThrow(/not finite/)
  })
})

describe('registry and memo', () => {
  it('knows the built-in schemes and names them in errors', () => {
    expect(creditNames()).toEqual(expect.arrayContaining(['outcome', 'snc', 'info-gain']))
    expect(creditScheme('snc')).toBe(snc)
    expect(creditScheme('info-gain')).toBe(infoGain)
    expect(creditScheme('outcome')).toBe(outcomeCredit)
    expect(() => creditScheme('gae')).toThrow('unknown credit scheme "gae" (known: outcome, snc, info-gain')
  })

  it('builds a registry from declarations, refusing a name declared twice; capabilities are data', () => {
    const mine: CreditScheme = (input) => outcomeCredit(input)
    const decl = { name: 'test-credit', label: 'Test', description: 'A test scheme.', capabilities: { needsPreviews: false, usesLambda: false }, impl: mine }
    expect(namedRegistry('credit scheme', [decl]).get('test-credit').impl).toBe(mine)
    expect(() => namedRegistry('credit scheme', [sncDeclaration, { ...decl, name: 'snc' }])).toThrow(/declared twice/)
    expect(creditSchemes.get('outcome').capabilities).toEqual({ needsPreviews: false, usesLambda: false })
    expect(creditSchemes.get('snc').capabilities).toEqual({ needsPreviews: true, usesLambda: true })
  })

  it('memoises by sorted id set, concurrent calls included', async () => {
    const score = vi.fn((ids: readonly number[]) => Promise.resolve(ids.length))
    const memo = memoScorer(score)
    const values = await Promise.all([memo.score([3, 1]), memo.score([1, 3, 3]), memo.score([])])
    expect(values).toEqual([2, 2, 0])
    expect(score.mock.calls).toEqual([[[1, 3]], [[]]])
    expect(memo.calls).toBe(2)
  })
})
