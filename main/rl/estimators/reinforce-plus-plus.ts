import { assertRewards, epsilonOf, groupMean, type AdvantageEstimator, type EstimatorDeclaration } from './group'
import { meanCentred } from './mean-centred'

/**
 * REINFORCE++ with group baseline: subtract the group mean, then whiten over the whole batch with the
 * batch mean and population std of those centred values. The batch mean of group-centred values is 0
 * in exact arithmetic, so it enters the std but is not subtracted again: subtracting its rounding
 * residue would turn the exact zeros of tied groups into 1e-17 noise. Batch-level scaling keeps the
 * relative size of groups (a wide reward spread still pushes harder than a near tie), unlike GRPO.
 */
export const reinforcePlusPlus: AdvantageEstimator = (groups, options) => {
  assertRewards(groups)
  const eps = epsilonOf(options)
  const centred = meanCentred(groups)
  const flat = centred.flat()
  if (flat.length === 0) return centred
  const mu = groupMean(flat)
  let sq = 0
  for (const a of flat) sq += (a - mu) * (a - mu)
  const sd = Math.sqrt(sq / flat.length)
  return centred.map((group) => group.map((a) => a / (sd + eps)))
}

export const reinforcePlusPlusDeclaration: EstimatorDeclaration = {
  name: 'reinforce++',
  label: 'REINFORCE++',
  description: 'r − group mean, then whitened over the whole batch: a wide reward spread still pushes harder than a near tie.',
  capabilities: {},
  impl: reinforcePlusPlus,
}
