import { z } from 'zod'
import { meanOf, prepare, type LossDeclaration, type PolicyLoss } from './policy'

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

export const cispoDeclaration: LossDeclaration = {
  name: 'cispo',
  label: 'CISPO',
  description: "−stopgrad(clip(ratio, lo, hi)) · A · log π: the weight is clipped but every sample keeps its gradient (Harness-1's RL).",
  capabilities: { usesRatio: true },
  impl: cispoLoss,
  params: [
    { key: 'cispoLow', label: 'Weight clip lo', description: 'Lower bound of the clipped importance weight.', schema: z.number().min(0, 'the CISPO clip lo must be at least 0') },
    { key: 'cispoHigh', label: 'Weight clip hi', description: 'Upper bound of the clipped importance weight (at least lo).', schema: z.number().positive('the CISPO clip hi must be positive') },
  ],
  check(c) {
    if (c.cispoLow > c.cispoHigh) throw new Error(`the CISPO clip needs lo <= hi, got [${c.cispoLow}, ${c.cispoHigh}]`)
  },
  options: (c) => ({ cispoRange: [c.cispoLow, c.cispoHigh] }),
}
