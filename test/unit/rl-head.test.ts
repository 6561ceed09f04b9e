/** Policy head: exact gradients against finite differences, softmax by hand, Adam, clipping, checkpoints, a bandit. */
import { describe, expect, it } from 'vitest'
import { seededRandom } from '../../main/eval'
import {
  Adam,
  argmax,
  clipGradNorm,
  createHead,
  entropy,
  headNames,
  linearScorer,
  logSoftmax,
  registerHead,
  restoreHead,
  sampleIndex,
  softmax,
  type HeadOptions,
  type PolicyHead,
} from '../../main/policy/head'
import { meanCentred } from '../../main/rl/estimators'
import { reinforceLoss } from '../../main/rl/losses'

const randomRows = (random: () => number, n: number, d: number): number[][] =>
  Array.from({ length: n }, () => Array.from({ length: d }, () => 4 * random() - 2))

/** Objective the head differentiates: L = g * logp(chosen) - entropyCoef * H, summed over states. */
interface State {
  rows: number[][]
  prior?: number[]
  chosen: number
  g: number
}

const objective = (head: PolicyHead, states: State[], entropyCoef: number, temperature: number): number => {
  let total = 0
  for (const s of states) {
    const out = head.forward(s.rows, s.prior, { temperature })
    total += s.g * out.logp[s.chosen]! - entropyCoef * out.entropy
  }
  return total
}

const analytic = (head: PolicyHead, states: State[], entropyCoef: number, temperature: number): Float64Array => {
  head.zeroGrad()
  for (const s of states) head.accumulate(head.forward(s.rows, s.prior, { temperature }).cache, s.chosen, s.g, entropyCoef)
  return Float64Array.from(head.grad)
}

const numeric = (head: PolicyHead, states: State[], entropyCoef: number, temperature: number, h = 1e-5): Float64Array => {
  const out = new Float64Array(head.size)
  for (let i = 0; i < head.size; i++) {
    const saved = head.params[i]!
    head.params[i] = saved + h
    const up = objective(head, states, entropyCoef, temperature)
    head.params[i] = saved - h
    const down = objective(head, states, entropyCoef, temperature)
    head.params[i] = saved
    out[i] = (up - down) / (2 * h)
  }
  return out
}

/**
 * Largest per-parameter relative error |a - n| / max(|a|, |n|, 1e-4); the floor stops parameters with
 * (near-)zero gradient, such as the softmax-invariant output bias, from dividing noise by noise.
 */
const maxRelativeError = (a: Float64Array, n: Float64Array): number => {
  let worst = 0
  for (let i = 0; i < a.length; i++) worst = Math.max(worst, Math.abs(a[i]! - n[i]!) / Math.max(Math.abs(a[i]!), Math.abs(n[i]!), 1e-4))
  return worst
}

describe('softmax helpers', () => {
  it('match a hand-computed two-action case, with and without temperature', () => {
    // exp(0) : exp(ln 3) = 1 : 3, so p = [1/4, 3/4] and H = ln 4 - (3/4) ln 3.
    for (const [values, t] of [
      [[0, Math.log(3)], 1],
      [[0, 2 * Math.log(3)], 2],
    ] as const) {
      const logp = logSoftmax(values, t)
      expect(logp[0]).toBeCloseTo(Math.log(0.25), 14)
      expect(logp[1]).toBeCloseTo(Math.log(0.75), 14)
      expect(Array.from(softmax(values, t))).toEqual([expect.closeTo(0.25, 14), expect.closeTo(0.75, 14)])
      expect(entropy(logp)).toBeCloseTo(Math.log(4) - 0.75 * Math.log(3), 14)
    }
  })

  it('stays finite for huge logits and tiny temperatures', () => {
    const logp = logSoftmax([1000, 999, -1000], 0.01)
    expect(logp.every(Number.isFinite)).toBe(true)
    expect(logp[0]).toBeCloseTo(0, 12)
    expect(entropy(logp)).toBeCloseTo(0, 12)
  })

  it('sample by inverse CDF with the caller supplied draw', () => {
    const probs = [0.25, 0.75]
    expect(sampleIndex(probs, 0)).toBe(0)
    expect(sampleIndex(probs, 0.2499)).toBe(0)
    expect(sampleIndex(probs, 0.25)).toBe(1)
    expect(sampleIndex(probs, 0.999999)).toBe(1)
    // Rounding leaves the sum below u: the last action with positive probability is returned.
    expect(sampleIndex([0.5, 0.4999, 0], 0.99995)).toBe(1)
    expect(() => sampleIndex(probs, 1)).toThrow(RangeError)
    expect(() => sampleIndex(probs, -0.1)).toThrow(RangeError)
  })

  it('argmax breaks ties towards the lowest index', () => {
    expect(argmax([1, 3, 3, 2])).toBe(1)
    expect(() => argmax([])).toThrow(RangeError)
  })
})

describe('policy head forward', () => {
  it('computes beta * prior + w.x + b, then the tempered softmax', () => {
    const head = createHead('linear', { inputDim: 1, seed: 0, initialBeta: 1 })
    head.segment('w')[0] = Math.log(3)
    head.segment('b')[0] = 5
    const out = head.forward([[0], [1]])
    expect(Array.from(out.logits)).toEqual([5, 5 + Math.log(3)])
    expect(out.probs[0]).toBeCloseTo(0.25, 14)
    expect(out.entropy).toBeCloseTo(Math.log(4) - 0.75 * Math.log(3), 14)
    // A prior of [0, -ln 3] with beta = 1 cancels the head: uniform.
    const withPrior = head.forward([[0], [1]], [0, -Math.log(3)])
    expect(withPrior.probs[0]).toBeCloseTo(0.5, 14)
    expect(withPrior.entropy).toBeCloseTo(Math.log(2), 14)
    // Temperature 2 halves the logit gap: 1 : sqrt(3).
    const hot = head.forward([[0], [1]], undefined, { temperature: 2 })
    expect(hot.probs[0]).toBeCloseTo(1 / (1 + Math.sqrt(3)), 14)
  })

  it('rejects malformed inputs', () => {
    const head = createHead('mlp', { inputDim: 2, hidden: 3, seed: 1 })
    expect(() => head.forward([])).toThrow(RangeError)
    expect(() => head.forward([[1, 2, 3]])).toThrow(RangeError)
    expect(() => head.forward([[1, Number.NaN]])).toThrow(RangeError)
    expect(() => head.forward([[1, 2]], [0, 0])).toThrow(RangeError)
    expect(() => head.forward([[1, 2]], [-Infinity])).toThrow(RangeError)
    expect(() => head.forward([[1, 2]], undefined, { temperature: 0 })).toThrow(RangeError)
    const { cache } = head.forward([[1, 2]])
    expect(() => head.accumulate(cache, 1, 1)).toThrow(RangeError)
  })

  it('lays parameters out in named segments with beta last', () => {
    const head = createHead('mlp', { inputDim: 4, hidden: 3, seed: 1 })
    expect(head.segments.map((s) => [s.name, s.offset, s.length])).toEqual([
      ['W1', 0, 12],
      ['b1', 12, 3],
      ['w2', 15, 3],
      ['b2', 18, 1],
      ['beta', 19, 1],
    ])
    expect(head.size).toBe(20)
    expect(head.beta).toBe(1)
    expect(Array.from(head.weightDecayMask())).toEqual([...Array<number>(12).fill(1), 0, 0, 0, 1, 1, 1, 0, 0])
  })

  it('initialises deterministically from the seed', () => {
    for (const name of ['linear', 'mlp']) {
      const a = createHead(name, { inputDim: 5, hidden: 7, seed: 42 })
      const b = createHead(name, { inputDim: 5, hidden: 7, seed: 42 })
      const c = createHead(name, { inputDim: 5, hidden: 7, seed: 43 })
      expect(Array.from(a.params)).toEqual(Array.from(b.params))
      expect(Array.from(a.params)).not.toEqual(Array.from(c.params))
    }
  })
})

describe('policy head gradients against central finite differences', () => {
  const cases: { name: string; options: Omit<HeadOptions, 'seed' | 'inputDim'> }[] = [
    { name: 'linear', options: {} },
    { name: 'mlp', options: { hidden: 6, activation: 'tanh' } },
    { name: 'mlp', options: { hidden: 6, activation: 'relu' } },
  ]
  for (const { name, options } of cases) {
    for (const withPrior of [false, true]) {
      for (const [entropyCoef, temperature] of [
        [0, 1],
        [0.3, 0.7],
        [0.05, 1.6],
      ] as const) {
        const label = `${name}${options.activation ? `/${options.activation}` : ''} prior=${withPrior} entropyCoef=${entropyCoef} T=${temperature}`
        it(label, () => {
          const random = seededRandom(1234 + temperature * 10 + entropyCoef * 100 + (withPrior ? 1 : 0))
          const d = 4
          const head = createHead(name, { inputDim: d, seed: 7, initialBeta: 0.7, ...options })
          // Move every parameter off its init (biases start at 0) so no gradient is trivially zero.
          for (let i = 0; i < head.size; i++) head.params[i] = head.params[i]! + 0.5 * (random() - 0.5)
          const states: State[] = [3, 5, 1].map((n) => {
            const rows = randomRows(random, n, d)
            const prior = withPrior ? Array.from(logSoftmax(rows.map(() => 3 * random()))) : undefined
            return { rows, ...(prior ? { prior } : {}), chosen: Math.floor(random() * n), g: 2 * random() - 1 }
          })
          const a = analytic(head, states, entropyCoef, temperature)
          const n = numeric(head, states, entropyCoef, temperature)
          expect(maxRelativeError(a, n)).toBeLessThan(1e-5)
          const betaIndex = head.segments.find((s) => s.name === 'beta')!.offset
          if (withPrior) expect(Math.abs(a[betaIndex]!)).toBeGreaterThan(1e-6)
          else expect(a[betaIndex]).toBe(0)
        })
      }
    }
  }

  it('accumulates into a caller-supplied buffer and leaves the default one alone', () => {
    const head = createHead('linear', { inputDim: 2, seed: 3 })
    const { cache } = head.forward([
      [1, 0],
      [0, 1],
    ])
    const buffer = new Float64Array(head.size)
    head.accumulate(cache, 0, 1, 0, buffer)
    head.accumulate(cache, 0, 1, 0, buffer)
    expect(head.grad.every((g) => g === 0)).toBe(true)
    const once = new Float64Array(head.size)
    head.accumulate(cache, 0, 1, 0, once)
    expect(Array.from(buffer)).toEqual(Array.from(once, (g) => 2 * g))
  })
})

describe('Adam and gradient clipping', () => {
  it('takes a hand-computed first and second step', () => {
    const adam = new Adam(2, { lr: 0.1 })
    const params = Float64Array.from([1, -2])
    adam.step(params, [0.5, -0.1])
    // Step 1: m_hat = g and v_hat = g^2, so each parameter moves by lr * g / (|g| + eps).
    expect(params[0]).toBeCloseTo(1 - (0.1 * 0.5) / (0.5 + 1e-8), 14)
    expect(params[1]).toBeCloseTo(-2 + (0.1 * 0.1) / (0.1 + 1e-8), 14)
    // Step 2 with g = [0.25, 0.3]: m = 0.9 m1 + 0.1 g, v = 0.999 v1 + 0.001 g^2, bias-corrected.
    const p0 = params[0]!
    adam.step(params, [0.25, 0.3])
    const m = 0.9 * 0.05 + 0.1 * 0.25
    const v = 0.999 * 0.00025 + 0.001 * 0.0625
    const update = (0.1 * (m / (1 - 0.81))) / (Math.sqrt(v / (1 - 0.999 ** 2)) + 1e-8)
    expect(params[0]).toBeCloseTo(p0 - update, 13)
    expect(adam.stepCount).toBe(2)
  })

  it('applies decoupled weight decay only where the mask allows', () => {
    const adam = new Adam(2, { lr: 0.1, weightDecay: 0.5, decayMask: [1, 0] })
    const params = Float64Array.from([2, 2])
    adam.step(params, [1, 1])
    expect(params[0]).toBeCloseTo(2 * (1 - 0.05) - 0.1 / (1 + 1e-8), 14)
    expect(params[1]).toBeCloseTo(2 - 0.1 / (1 + 1e-8), 14)
  })

  it('refuses a non-finite gradient without touching state', () => {
    const adam = new Adam(2, { lr: 0.1 })
    const params = Float64Array.from([1, 1])
    const before = JSON.stringify(adam.state())
    expect(() => adam.step(params, [1, Number.NaN])).toThrow(RangeError)
    expect(JSON.stringify(adam.state())).toBe(before)
    expect(Array.from(params)).toEqual([1, 1])
  })

  it('clips to the global norm and returns the norm before clipping', () => {
    const grad = Float64Array.from([3, 4])
    expect(clipGradNorm(grad, 10)).toBe(5)
    expect(Array.from(grad)).toEqual([3, 4])
    expect(clipGradNorm(grad, 1)).toBe(5)
    expect(grad[0]).toBeCloseTo(0.6, 15)
    expect(grad[1]).toBeCloseTo(0.8, 15)
    expect(Math.hypot(grad[0]!, grad[1]!)).toBeCloseTo(1, 15)
    const bad = Float64Array.from([Infinity, 1])
    expect(clipGradNorm(bad, 1)).toBe(Infinity)
    expect(() => clipGradNorm(grad, 0)).toThrow(RangeError)
  })
})

describe('checkpoints', () => {
  /** One REINFORCE-style update on a random state from `random`; identical streams give identical updates. */
  const update = (head: PolicyHead, adam: Adam, random: () => number): void => {
    const rows = randomRows(random, 4, 3)
    const prior = Array.from(logSoftmax(rows.map(() => random())))
    head.zeroGrad()
    const out = head.forward(rows, prior, { temperature: 0.8 })
    const chosen = sampleIndex(out.probs, random())
    head.accumulate(out.cache, chosen, -(random() - 0.3), 0.01)
    clipGradNorm(head.grad, 0.5)
    adam.step(head.params, head.grad)
  }

  it('resuming from JSON gives bit-identical subsequent updates', () => {
    const head = createHead('mlp', { inputDim: 3, hidden: 5, activation: 'relu', seed: 11, initialBeta: 0.5 })
    const adam = new Adam(head.size, { lr: 0.01, weightDecay: 0.01, decayMask: head.weightDecayMask() })
    const random = seededRandom(5)
    for (let i = 0; i < 3; i++) update(head, adam, random)

    const saved = JSON.stringify({ head: head.checkpoint(), adam: adam.state() })
    const parsed = JSON.parse(saved) as { head: unknown; adam: unknown }
    const head2 = restoreHead(parsed.head)
    const adam2 = Adam.restore(parsed.adam)
    expect(Array.from(head2.params)).toEqual(Array.from(head.params))
    expect(adam2.stepCount).toBe(3)

    const r1 = seededRandom(99)
    const r2 = seededRandom(99)
    for (let i = 0; i < 4; i++) {
      update(head, adam, r1)
      update(head2, adam2, r2)
    }
    for (let i = 0; i < head.size; i++) expect(Object.is(head.params[i], head2.params[i])).toBe(true)
    expect(JSON.stringify(adam2.state())).toBe(JSON.stringify(adam.state()))
  })

  it('rejects malformed checkpoints', () => {
    const ckpt = createHead('linear', { inputDim: 2, seed: 1 }).checkpoint()
    expect(() => restoreHead({ ...ckpt, params: [1, 2] })).toThrow(RangeError)
    expect(() => restoreHead({ ...ckpt, head: 'nope' })).toThrow(/unknown policy head/)
    expect(() => Adam.restore({ ...new Adam(2, { lr: 0.1 }).state(), v: [0] })).toThrow(RangeError)
  })
})

describe('registry', () => {
  it('lists the built-in heads, accepts new ones and refuses a clash', () => {
    expect(headNames()).toEqual(expect.arrayContaining(['linear', 'mlp']))
    registerHead('linear-alias-for-test', linearScorer)
    registerHead('linear-alias-for-test', linearScorer)
    expect(createHead('linear-alias-for-test', { inputDim: 2, seed: 1 }).size).toBe(4)
    expect(() => registerHead('linear', () => linearScorer({ inputDim: 1, hidden: 1, activation: 'tanh', seed: 0, temperature: 1, initialBeta: 1 }))).toThrow(/already registered/)
    expect(() => createHead('missing', { inputDim: 2, seed: 1 })).toThrow(/unknown policy head/)
  })
})

describe('a three-armed bandit trained with REINFORCE and Adam', () => {
  const rewards = [0.2, 1.0, 0.5]
  const arms = [
    [1, 0, 0],
    [0, 1, 0],
    [0, 0, 1],
  ]
  for (const [name, options] of [
    ['linear', {}],
    ['mlp', { hidden: 8 }],
  ] as const) {
    it(`${name} head converges to the best arm`, () => {
      const head = createHead(name, { inputDim: 3, seed: 2024, ...options })
      const adam = new Adam(head.size, { lr: 0.05 })
      const random = seededRandom(17)
      const batch = 16
      let reachedAt = -1
      for (let iteration = 0; iteration <= 200 && reachedAt < 0; iteration++) {
        const out = head.forward(arms)
        if (out.probs[1]! > 0.9) {
          reachedAt = iteration
          break
        }
        const chosen = Array.from({ length: batch }, () => sampleIndex(out.probs, random()))
        const [advantages] = meanCentred([chosen.map((a) => rewards[a]!)])
        const logp = chosen.map((a) => out.logp[a]!)
        const { grad } = reinforceLoss({ logpNew: logp, logpOld: logp, advantages: advantages! })
        head.zeroGrad()
        chosen.forEach((a, i) => head.accumulate(out.cache, a, grad[i]!, 0))
        clipGradNorm(head.grad, 1)
        adam.step(head.params, head.grad)
      }
      // Starts below 0.9 and gets there within 200 updates of 16 samples each (33 linear, 8 mlp at these seeds).
      expect(reachedAt).toBeGreaterThan(0)
      expect(head.forward(arms).probs[1]).toBeGreaterThan(0.9)
    })
  }
})
