/**
 * Policy-gradient losses over sampled actions (README, "Environments, policies and evaluation", Training). Each takes per-sample
 * log-probabilities under the current policy (logpNew) and the behaviour policy (logpOld) with an
 * advantage, and returns the mean loss and dLoss/dlogpNew per sample (already divided by the
 * denominator), ready for PolicyHead.accumulate. ratio = exp(logpNew - logpOld).
 */

export interface PolicyLossInput {
  logpNew: ArrayLike<number>
  /** Behaviour-policy log-probabilities; pass logpNew itself for a purely on-policy update. */
  logpOld: ArrayLike<number>
  advantages: ArrayLike<number>
}

export interface PolicyLossOptions {
  /** ppo-clip: symmetric clip epsilon; 0.2 by default. */
  clipEps?: number
  /** ppo-clip: lower / upper epsilon when asymmetric (DAPO's clip-higher); clipEps by default. */
  clipEpsLow?: number
  clipEpsHigh?: number
  /** ppo-clip: dual-clip constant C > 1 bounding the loss for A < 0; 3 by default, null disables. */
  dualClip?: number | null
  /** cispo: [lo, hi] clip of the stop-gradient importance weight; [0, 5] by default (Harness-1). */
  cispoRange?: readonly [number, number]
  /** Divide the summed loss by this instead of the sample count, e.g. a batch total when one update spans several calls. */
  denominator?: number
}

export interface PolicyLossResult {
  loss: number
  /** dLoss/dlogpNew for each sample. */
  grad: Float64Array
  /** Share of samples whose ratio was clipped (ppo-clip: gradient zeroed; cispo: weight clamped). */
  clippedFraction: number
  meanRatio: number
}

export type PolicyLoss = (input: PolicyLossInput, options?: PolicyLossOptions) => PolicyLossResult

interface Prepared {
  n: number
  denominator: number
  logpNew: ArrayLike<number>
  ratio: Float64Array
  advantages: ArrayLike<number>
}

const prepare = (input: PolicyLossInput, options: PolicyLossOptions): Prepared => {
  const { logpNew, logpOld, advantages } = input
  const n = logpNew.length
  if (logpOld.length !== n || advantages.length !== n) throw new RangeError(`logpNew, logpOld and advantages must have the same length (${n}, ${logpOld.length}, ${advantages.length})`)
  const ratio = new Float64Array(n)
  for (let i = 0; i < n; i++) {
    const a = logpNew[i]!
    const b = logpOld[i]!
    const adv = advantages[i]!
    if (!Number.isFinite(a) || !Number.isFinite(b) || !Number.isFinite(adv)) throw new RangeError(`sample ${i} has a non-finite log-probability or advantage`)
    ratio[i] = Math.exp(a - b)
  }
  const denominator = options.denominator ?? n
  if (!(denominator > 0 && Number.isFinite(denominator)) && n > 0) throw new RangeError(`denominator must be positive, got ${denominator}`)
  return { n, denominator, logpNew, ratio, advantages }
}

const meanOf = (values: Float64Array): number => {
  if (values.length === 0) return 0
  let s = 0
  for (const v of values) s += v
  return s / values.length
}

/** -A * logpNew: the plain score-function estimator; logpOld only feeds the ratio diagnostic. */
export const reinforceLoss: PolicyLoss = (input, options = {}) => {
  const { n, denominator, logpNew, ratio, advantages } = prepare(input, options)
  const grad = new Float64Array(n)
  let sum = 0
  for (let i = 0; i < n; i++) {
    const a = advantages[i]!
    sum += -a * logpNew[i]!
    grad[i] = -a / denominator
  }
  return { loss: n === 0 ? 0 : sum / denominator, grad, clippedFraction: 0, meanRatio: meanOf(ratio) }
}

/**
 * PPO clipped surrogate, objective o = min(r A, clip(r, 1 - epsLow, 1 + epsHigh) A), and for A < 0
 * the dual clip o = max(o, C A) (Ye et al. 2020), which stops a stale sample with a huge ratio from
 * dominating. loss = -o. Where a clipped (constant) branch is selected the gradient is 0; otherwise
 * d(-r A)/dlogpNew = -r A. Ties go to the unclipped branch (both values are equal there).
 */
export const ppoClipLoss: PolicyLoss = (input, options = {}) => {
  const eps = options.clipEps ?? 0.2
  const epsLow = options.clipEpsLow ?? eps
  const epsHigh = options.clipEpsHigh ?? eps
  if (!(epsLow >= 0 && epsLow < 1 && epsHigh >= 0)) throw new RangeError(`clip epsilons must satisfy 0 <= low < 1 and high >= 0, got ${epsLow}, ${epsHigh}`)
  const dual = options.dualClip === undefined ? 3 : options.dualClip
  if (dual !== null && !(dual > 1)) throw new RangeError(`dualClip must exceed 1 (or be null), got ${dual}`)
  const { n, denominator, ratio, advantages } = prepare(input, options)
  const grad = new Float64Array(n)
  let sum = 0
  let clipped = 0
  for (let i = 0; i < n; i++) {
    const a = advantages[i]!
    // A = 0 contributes nothing; skipping also avoids 0 * Infinity when the ratio overflows.
    if (a === 0) continue
    const r = ratio[i]!
    const rc = Math.min(Math.max(r, 1 - epsLow), 1 + epsHigh)
    const unclipped = r * a
    const clippedValue = rc * a
    let objective: number
    let flows: boolean
    if (unclipped <= clippedValue) {
      objective = unclipped
      flows = true
    } else {
      objective = clippedValue
      flows = false
    }
    if (dual !== null && a < 0 && dual * a > objective) {
      objective = dual * a
      flows = false
    }
    sum -= objective
    if (flows) grad[i] = (-r * a) / denominator
    else clipped += 1
  }
  return { loss: n === 0 ? 0 : sum / denominator, grad, clippedFraction: n === 0 ? 0 : clipped / n, meanRatio: meanOf(ratio) }
}

/**
 * CISPO: -stopgrad(clip(r, lo, hi)) * A * logpNew. The clipped ratio only reweights; the gradient
 * -clip(r) A flows through logpNew for every sample, clipped ones included, unlike PPO which drops them.
 */
export const cispoLoss: PolicyLoss = (input, options = {}) => {
  const [lo, hi] = options.cispoRange ?? [0, 5]
  if (!(lo >= 0 && hi >= lo && Number.isFinite(hi))) throw new RangeError(`cispoRange must satisfy 0 <= lo <= hi < Infinity, got [${lo}, ${hi}]`)
  const { n, denominator, logpNew, ratio, advantages } = prepare(input, options)
  const grad = new Float64Array(n)
  let sum = 0
  let clipped = 0
  for (let i = 0; i < n; i++) {
    const r = ratio[i]!
    const w = Math.min(Math.max(r, lo), hi)
    if (w !== r) clipped += 1
    const a = advantages[i]!
    sum += -w * a * logpNew[i]!
    grad[i] = (-w * a) / denominator
  }
  return { loss: n === 0 ? 0 : sum / denominator, grad, clippedFraction: n === 0 ? 0 : clipped / n, meanRatio: meanOf(ratio) }
}
