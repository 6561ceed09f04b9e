import { assertRewards, epsilonOf, groupMean, groupStd, type AdvantageEstimator, type EstimatorDeclaration } from './group'

/** GRPO: (r - mean) / (std + eps) within each group, population std. */
export const grpo: AdvantageEstimator = (groups, options) => {
  assertRewards(groups)
  const eps = epsilonOf(options)
  return groups.map((group) => {
    const mu = groupMean(group)
    const sd = groupStd(group)
    return group.map((r) => (r - mu) / (sd + eps))
  })
}

export const grpoDeclaration: EstimatorDeclaration = {
  name: 'grpo',
  label: 'GRPO',
  description: '(r − group mean) / (group std + 1e-6): each group scaled to unit spread.',
  capabilities: {},
  impl: grpo,
}
