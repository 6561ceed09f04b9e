import { assertRewards, type AdvantageEstimator, type EstimatorDeclaration } from './group'

/** Leave-one-out baseline: r_i - mean of the other G - 1 rewards; 0 for a group of one. */
export const rloo: AdvantageEstimator = (groups) => {
  assertRewards(groups)
  return groups.map((group) => {
    const count = group.length
    if (count < 2) return group.map(() => 0)
    let sum = 0
    for (const r of group) sum += r
    return group.map((r) => r - (sum - r) / (count - 1))
  })
}

export const rlooDeclaration: EstimatorDeclaration = {
  name: 'rloo',
  label: 'RLOO',
  description: 'Leave-one-out baseline: r − the mean of the other rollouts of the group.',
  capabilities: {},
  impl: rloo,
}
