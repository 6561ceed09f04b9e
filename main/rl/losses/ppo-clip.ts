import { z } from 'zod'
import { meanOf, prepare, type LossDeclaration, type PolicyLoss } from './policy'

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

export const ppoClipDeclaration: LossDeclaration = {
  name: 'ppo-clip',
  label: 'PPO-clip (dual clip)',
  description: 'Clipped importance ratio in [1 − ε, 1 + ε]; for A < 0 the loss is also bounded by the dual clip C.',
  capabilities: { usesRatio: true },
  impl: ppoClipLoss,
  params: [
    { key: 'clipEps', label: 'Clip ε', description: 'The ratio is clipped to [1 − ε, 1 + ε].', schema: z.number().positive('the clip ε must be positive').max(1, 'the clip ε must be at most 1') },
    { key: 'dualClip', label: 'Dual clip C', description: 'Bounds the loss of negative-advantage samples at C · |A| (must exceed 1); off disables it.', schema: z.number().gt(1, 'the dual clip C must exceed 1 (or be off)').nullable() },
  ],
  options: (c) => ({ clipEps: c.clipEps, dualClip: c.dualClip }),
}
