/** Policy-gradient losses: values and gradients by hand, finite differences, clipping regions, dual clip. */
import { describe, expect, it } from 'vitest'
import { seededRandom } from '../../main/eval'
import { createHead } from '../../main/policy/head'
import { checkLossConfig, cispoDeclaration, cispoLoss, lossNames, policyLoss, ppoClipLoss, reinforceDeclaration, reinforceLoss, type PolicyLoss, type PolicyLossOptions } from '../../main/rl/losses'
import { namedRegistry } from '../../main/rl/named-registry'

/** Samples with logpOld = -1 and the given ratios: logpNew = -1 + ln r. */
const samples = (ratios: number[], advantages: number[]) => ({
  logpNew: ratios.map((r) => -1 + Math.log(r)),
  logpOld: ratios.map(() => -1),
  advantages,
})

const expectArrayClose = (actual: ArrayLike<number>, expected: number[], digits = 12): void => {
  expect(actual.length).toBe(expected.length)
  expected.forEach((e, i) => expect(actual[i]).toBeCloseTo(e, digits))
}

const finiteDifference = (fn: PolicyLoss, input: ReturnType<typeof samples>, options: PolicyLossOptions, h = 1e-6): number[] =>
  input.logpNew.map((_, i) => {
    const shifted = (delta: number) => fn({ ...input, logpNew: input.logpNew.map((l, j) => (j === i ? l + delta : l)) }, options).loss
    return (shifted(h) - shifted(-h)) / (2 * h)
  })

describe('reinforce', () => {
  it('is -A * logpNew averaged, with gradient -A / N', () => {
    const input = samples([1, 2, 0.5], [1, -2, 0.5])
    const out = reinforceLoss(input)
    expect(out.loss).toBeCloseTo(-(1 * input.logpNew[0]! - 2 * input.logpNew[1]! + 0.5 * input.logpNew[2]!) / 3, 14)
    expectArrayClose(out.grad, [-1 / 3, 2 / 3, -0.5 / 3])
    expectArrayClose(out.grad, finiteDifference(reinforceLoss, input, {}), 8)
    expect(out.meanRatio).toBeCloseTo(3.5 / 3, 14)
    expect(out.clippedFraction).toBe(0)
  })

  it('divides by a caller-supplied denominator', () => {
    const out = reinforceLoss(samples([1, 1], [1, 1]), { denominator: 8 })
    expectArrayClose(out.grad, [-1 / 8, -1 / 8])
    expect(out.loss).toBeCloseTo(2 / 8, 14)
  })
})

describe('ppo-clip', () => {
  // One sample per region (eps 0.2, C 3):
  //  A=+1 r=1.1 inside: o = 1.1, flows | A=+1 r=1.5 above 1+eps: o = 1.2, clipped | A=+1 r=0.5: o = min(0.5, 0.8) = 0.5, flows
  //  A=-1 r=0.5 below 1-eps: o = -0.8, clipped | A=-1 r=2: o = -2 (> C A = -3), flows | A=-1 r=4: o = C A = -3, dual-clipped
  //  A=0: nothing.
  const ratios = [1.1, 1.5, 0.5, 0.5, 2, 4, 1.7]
  const advantages = [1, 1, 1, -1, -1, -1, 0]
  const input = samples(ratios, advantages)

  it('matches the hand-computed clipped surrogate with dual clip', () => {
    const out = ppoClipLoss(input)
    expect(out.loss).toBeCloseTo(-(1.1 + 1.2 + 0.5 - 0.8 - 2 - 3 + 0) / 7, 12)
    expectArrayClose(out.grad, [-1.1 / 7, 0, -0.5 / 7, 0, 2 / 7, 0, 0])
    expect(out.clippedFraction).toBeCloseTo(3 / 7, 14)
  })

  it('without dual clip lets a negative advantage with a huge ratio grow unbounded', () => {
    const out = ppoClipLoss(input, { dualClip: null })
    expect(out.loss).toBeCloseTo(-(1.1 + 1.2 + 0.5 - 0.8 - 2 - 4) / 7, 12)
    expect(out.grad[5]).toBeCloseTo(4 / 7, 12)
    expect(out.clippedFraction).toBeCloseTo(2 / 7, 14)
  })

  it('supports an asymmetric (clip-higher) range', () => {
    const one = samples([1.25], [1])
    expect(ppoClipLoss(one).grad[0]).toBe(0)
    expect(ppoClipLoss(one, { clipEpsHigh: 0.28 }).grad[0]).toBeCloseTo(-1.25, 14)
    // A < 0 below 1 - epsLow is clipped; a wider low side (0.7) lets r = 0.75 through, and clipEpsLow overrides clipEps.
    const low = samples([0.75], [-1])
    expect(ppoClipLoss(low).grad[0]).toBe(0)
    expect(ppoClipLoss(low, { clipEpsLow: 0.3 }).grad[0]).toBeCloseTo(0.75, 14)
    expect(ppoClipLoss(low, { clipEps: 0.1, clipEpsLow: 0.3 }).grad[0]).toBeCloseTo(0.75, 14)
    expect(ppoClipLoss(samples([0.85], [-1]), { clipEps: 0.1 }).grad[0]).toBe(0)
    expect(ppoClipLoss(samples([0.85], [-1])).grad[0]).toBeCloseTo(0.85, 14)
  })

  it('agrees with finite differences wherever it is differentiable', () => {
    const random = seededRandom(8)
    const ratios: number[] = []
    const advs: number[] = []
    while (ratios.length < 40) {
      const r = Math.exp(3 * random() - 1.2)
      // Keep clear of the kinks at 1 - eps, 1 + eps and C.
      if ([0.8, 1.2, 3].some((k) => Math.abs(r - k) < 1e-3)) continue
      ratios.push(r)
      advs.push(4 * random() - 2)
    }
    const batch = samples(ratios, advs)
    for (const options of [{}, { dualClip: null }, { clipEps: 0.1, dualClip: 2 }] as PolicyLossOptions[]) {
      expectArrayClose(ppoClipLoss(batch, options).grad, finiteDifference(ppoClipLoss, batch, options), 7)
    }
  })

  it('reduces to the REINFORCE gradient at ratio 1', () => {
    const onPolicy = { logpNew: [-0.3, -2, -1.1], logpOld: [-0.3, -2, -1.1], advantages: [1.5, -0.7, 0.2] }
    const ppo = ppoClipLoss(onPolicy)
    const reinforce = reinforceLoss(onPolicy)
    expectArrayClose(ppo.grad, Array.from(reinforce.grad), 15)
    // The surrogate's value is -mean(A) at ratio 1 (REINFORCE's value also carries logp).
    expect(ppo.loss).toBeCloseTo(-(1.5 - 0.7 + 0.2) / 3, 15)
    expect(ppo.clippedFraction).toBe(0)
    expect(ppo.meanRatio).toBe(1)
  })

  it('rejects bad settings and inputs', () => {
    expect(() => ppoClipLoss(input, { dualClip: 1 })).toThrow(RangeError)
    expect(() => ppoClipLoss(input, { clipEps: 1 })).toThrow(RangeError)
    expect(() => ppoClipLoss({ logpNew: [0], logpOld: [0, 0], advantages: [1] })).toThrow(RangeError)
    expect(() => ppoClipLoss({ logpNew: [Number.NaN], logpOld: [0], advantages: [1] })).toThrow(RangeError)
  })
})

describe('cispo', () => {
  it('weights -A * logpNew by the stop-gradient clipped ratio; every sample keeps a gradient', () => {
    // r = [0.5, 1, 7] clipped to [0, 5] -> w = [0.5, 1, 5].
    const input = samples([0.5, 1, 7], [1, -2, 1])
    const out = cispoLoss(input)
    const w = [0.5, 1, 5]
    const expectedLoss = -w.reduce((s, wi, i) => s + wi * input.advantages[i]! * input.logpNew[i]!, 0) / 3
    expect(out.loss).toBeCloseTo(expectedLoss, 12)
    expectArrayClose(out.grad, [-0.5 / 3, 2 / 3, -5 / 3])
    expect(out.grad[2]).not.toBe(0)
    expect(out.clippedFraction).toBeCloseTo(1 / 3, 14)
  })

  it('honours a custom range', () => {
    const out = cispoLoss(samples([0.5, 1, 7], [1, 1, 1]), { cispoRange: [0.8, 1.2] })
    expectArrayClose(out.grad, [-0.8 / 3, -1 / 3, -1.2 / 3])
    expect(out.clippedFraction).toBeCloseTo(2 / 3, 14)
    expect(() => cispoLoss(samples([1], [1]), { cispoRange: [2, 1] })).toThrow(RangeError)
  })

  it('equals REINFORCE at ratio 1, value and gradient', () => {
    const onPolicy = { logpNew: [-0.3, -2, -1.1], logpOld: [-0.3, -2, -1.1], advantages: [1.5, -0.7, 0.2] }
    const c = cispoLoss(onPolicy)
    const r = reinforceLoss(onPolicy)
    expect(c.loss).toBe(r.loss)
    expect(Array.from(c.grad)).toEqual(Array.from(r.grad))
  })
})

describe('registry', () => {
  it('looks losses up by name and refuses clashes', () => {
    expect(lossNames()).toEqual(expect.arrayContaining(['reinforce', 'ppo-clip', 'cispo']))
    expect(policyLoss('cispo')).toBe(cispoLoss)
    const half: PolicyLoss = (input, options) => {
      const out = reinforceLoss(input, options)
      return { ...out, loss: out.loss / 2, grad: out.grad.map((g) => g / 2) }
    }
    const decl = { ...reinforceDeclaration, name: 'half-reinforce-for-test', impl: half }
    expect(namedRegistry('policy loss', [decl]).get('half-reinforce-for-test').impl(samples([1], [2])).grad[0]).toBe(-1)
    expect(() => namedRegistry('policy loss', [cispoDeclaration, { ...decl, name: 'cispo' }])).toThrow(/declared twice/)
    expect(() => policyLoss('nope')).toThrow(/unknown policy loss/)
  })

  it('checks the options a loss reads against its declared bounds', () => {
    const loss = { name: 'ppo-clip', clipEps: 0.2, dualClip: 3, cispoLow: 0, cispoHigh: 5 }
    expect(() => checkLossConfig(loss)).not.toThrow()
    expect(() => checkLossConfig({ ...loss, dualClip: null })).not.toThrow()
    expect(() => checkLossConfig({ ...loss, dualClip: 1 })).toThrow('the dual clip C must exceed 1 (or be off), got 1')
    // A loss checks only what it reads: ppo-clip ignores the CISPO range, CISPO ignores the dual clip.
    expect(() => checkLossConfig({ ...loss, cispoLow: 3, cispoHigh: 2 })).not.toThrow()
    expect(() => checkLossConfig({ ...loss, name: 'cispo', cispoLow: 3, cispoHigh: 2 })).toThrow('the CISPO clip needs lo <= hi, got [3, 2]')
    expect(() => checkLossConfig({ ...loss, name: 'cispo', dualClip: 1 })).not.toThrow()
  })
})

describe('loss gradient through the head', () => {
  it('chained ppo-clip gradient matches finite differences of the loss in the head parameters', () => {
    const random = seededRandom(21)
    const d = 3
    const head = createHead('mlp', { inputDim: d, hidden: 4, seed: 5 })
    const states = [4, 2, 6, 3].map((n) => ({
      rows: Array.from({ length: n }, () => Array.from({ length: d }, () => 2 * random() - 1)),
      prior: Array.from({ length: n }, () => -3 * random()),
      chosen: Math.floor(random() * n),
      advantage: 2 * random() - 1,
    }))
    // Behaviour policy: the same head before a perturbation, so ratios differ from 1.
    const logpOld = states.map((s) => head.forward(s.rows, s.prior).logp[s.chosen]!)
    for (let i = 0; i < head.size; i++) head.params[i] = head.params[i]! + 0.3 * (random() - 0.5)
    const advantages = states.map((s) => s.advantage)
    const lossAt = () => ppoClipLoss({ logpNew: states.map((s) => head.forward(s.rows, s.prior).logp[s.chosen]!), logpOld, advantages }, { clipEps: 0.05 })

    const outs = states.map((s) => head.forward(s.rows, s.prior))
    const result = ppoClipLoss({ logpNew: outs.map((o, i) => o.logp[states[i]!.chosen]!), logpOld, advantages }, { clipEps: 0.05 })
    head.zeroGrad()
    outs.forEach((o, i) => head.accumulate(o.cache, states[i]!.chosen, result.grad[i]!, 0))
    const h = 1e-6
    for (let i = 0; i < head.size; i++) {
      const saved = head.params[i]!
      head.params[i] = saved + h
      const up = lossAt().loss
      head.params[i] = saved - h
      const down = lossAt().loss
      head.params[i] = saved
      const numeric = (up - down) / (2 * h)
      expect(Math.abs(head.grad[i]! - numeric) / Math.max(Math.abs(numeric), 1e-4)).toBeLessThan(1e-5)
    }
  })
})
