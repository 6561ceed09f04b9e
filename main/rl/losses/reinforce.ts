import { meanOf, prepare, type LossDeclaration, type PolicyLoss } from './policy'

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

export const reinforceDeclaration: LossDeclaration = {
  name: 'reinforce',
  label: 'REINFORCE',
  description: '−A · log π: the plain score-function estimator; no ratio, no clipping.',
  capabilities: { usesRatio: false },
  impl: reinforceLoss,
  params: [],
  options: () => ({}),
}
