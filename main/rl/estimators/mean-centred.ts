import { assertRewards, groupMean, type AdvantageEstimator, type EstimatorDeclaration } from './group'

/** r - group mean, no scaling (Harness-1's trainer): keeps the reward's units in the gradient. */
export const meanCentred: AdvantageEstimator = (groups) => {
  assertRewards(groups)
  return groups.map((group) => {
    const mu = groupMean(group)
    return group.map((r) => r - mu)
  })
}

export const meanCentredDeclaration: EstimatorDeclaration = {
  name: 'mean-centred',
  label: 'Mean-centred',
  description: "r − group mean, unscaled (Harness-1's trainer): the reward's units stay in the gradient.",
  capabilities: {},
  impl: meanCentred,
}
