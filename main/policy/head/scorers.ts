/**
 * The architecture-specific part of a policy head: a network mapping each action's feature row to a
 * raw scalar score, plus its backward pass. The shared head (head.ts) adds the LLM prior, the
 * temperature softmax and the entropy term, so a new architecture only implements these three steps.
 */

export type Activation = 'tanh' | 'relu'

/** Resolved head configuration, as stored in checkpoints. */
export interface HeadConfig {
  /** Feature dimension D of every action row. */
  inputDim: number
  /** Hidden width (mlp only; kept for every head so a checkpoint fully describes its config). */
  hidden: number
  activation: Activation
  /** Integer seed of the parameter initialisation. */
  seed: number
  /** Default softmax temperature T; forward can override it per call. */
  temperature: number
  /** Initial value of the prior weight beta. */
  initialBeta: number
}

/** One named parameter block; `decay` marks weight matrices (biases and beta are not decayed). */
export interface ParamBlock {
  name: string
  shape: readonly number[]
  decay: boolean
}

export interface Scorer {
  /** Blocks in layout order; the scorer's slice of the flat parameter vector is their concatenation. */
  readonly blocks: readonly ParamBlock[]
  /** Fill this scorer's parameter slice from a seeded uniform [0, 1) stream. */
  init(params: Float64Array, random: () => number): void
  /**
   * Write the raw score of each of the n rows of x (row-major n x D) into `scores`, returning whatever
   * the backward pass needs (activations).
   */
  score(params: Float64Array, x: Float64Array, n: number, scores: Float64Array): unknown
  /**
   * Add d(objective)/d(params) into `grad` (same layout as params) given d(objective)/d(score_i).
   * Uses the current params, so it must follow the forward pass that produced `cache` with no
   * parameter update in between.
   */
  backward(params: Float64Array, x: Float64Array, n: number, cache: unknown, dScores: Float64Array, grad: Float64Array): void
}

export type ScorerFactory = (config: HeadConfig) => Scorer

const uniform = (random: () => number, bound: number): number => (2 * random() - 1) * bound

/** logit = w . x + b. The bias shifts every action equally, so softmax ignores it (its gradient is 0). */
export const linearScorer: ScorerFactory = ({ inputDim: d }) => ({
  blocks: [
    { name: 'w', shape: [d], decay: true },
    { name: 'b', shape: [1], decay: false },
  ],
  init(params, random) {
    // Fan-in scaling keeps the initial logits O(1) for unit-scale features: a soft, not uniform, start.
    const bound = 1 / Math.sqrt(d)
    for (let k = 0; k < d; k++) params[k] = uniform(random, bound)
    params[d] = 0
  },
  score(params, x, n, scores) {
    for (let i = 0; i < n; i++) {
      let s = params[d]!
      const row = i * d
      for (let k = 0; k < d; k++) s += params[k]! * x[row + k]!
      scores[i] = s
    }
    return null
  },
  backward(_params, x, n, _cache, dScores, grad) {
    for (let i = 0; i < n; i++) {
      const g = dScores[i]!
      if (g === 0) continue
      const row = i * d
      for (let k = 0; k < d; k++) grad[k] = grad[k]! + g * x[row + k]!
      grad[d] = grad[d]! + g
    }
  },
})

/**
 * One hidden layer: h = act(W1 x + b1), logit = w2 . h + b2. Layout: W1 (H x D, row-major), b1 (H),
 * w2 (H), b2 (1). Only the activations h are cached: both derivatives follow from them (tanh' = 1 - h^2,
 * relu' = [h > 0], taking 0 at the kink).
 */
export const mlpScorer: ScorerFactory = ({ inputDim: d, hidden: hw, activation }) => {
  const oB1 = hw * d
  const oW2 = oB1 + hw
  const oB2 = oW2 + hw
  const act = activation === 'tanh' ? Math.tanh : (z: number) => (z > 0 ? z : 0)
  const dAct = activation === 'tanh' ? (h: number) => 1 - h * h : (h: number) => (h > 0 ? 1 : 0)
  return {
    blocks: [
      { name: 'W1', shape: [hw, d], decay: true },
      { name: 'b1', shape: [hw], decay: false },
      { name: 'w2', shape: [hw], decay: true },
      { name: 'b2', shape: [1], decay: false },
    ],
    init(params, random) {
      // Glorot-uniform for the hidden layer (suits tanh, fine for relu at this size); fan-in scaling
      // for the output so initial logits stay O(1).
      const b1Bound = Math.sqrt(6 / (d + hw))
      for (let k = 0; k < oB1; k++) params[k] = uniform(random, b1Bound)
      for (let j = 0; j < hw; j++) params[oB1 + j] = 0
      const outBound = 1 / Math.sqrt(hw)
      for (let j = 0; j < hw; j++) params[oW2 + j] = uniform(random, outBound)
      params[oB2] = 0
    },
    score(params, x, n, scores) {
      const h = new Float64Array(n * hw)
      for (let i = 0; i < n; i++) {
        const row = i * d
        let s = params[oB2]!
        for (let j = 0; j < hw; j++) {
          let pre = params[oB1 + j]!
          const wRow = j * d
          for (let k = 0; k < d; k++) pre += params[wRow + k]! * x[row + k]!
          const hj = act(pre)
          h[i * hw + j] = hj
          s += params[oW2 + j]! * hj
        }
        scores[i] = s
      }
      return h
    },
    backward(params, x, n, cache, dScores, grad) {
      const h = cache as Float64Array
      for (let i = 0; i < n; i++) {
        const g = dScores[i]!
        if (g === 0) continue
        const row = i * d
        grad[oB2] = grad[oB2]! + g
        for (let j = 0; j < hw; j++) {
          const hj = h[i * hw + j]!
          grad[oW2 + j] = grad[oW2 + j]! + g * hj
          const dPre = g * params[oW2 + j]! * dAct(hj)
          if (dPre === 0) continue
          grad[oB1 + j] = grad[oB1 + j]! + dPre
          const wRow = j * d
          for (let k = 0; k < d; k++) grad[wRow + k] = grad[wRow + k]! + dPre * x[row + k]!
        }
      }
    },
  }
}
