/**
 * Group-relative advantage estimators (README, "Environments, policies and evaluation", Training). Input: one array of rewards per question,
 * holding its G rollouts; output: advantages of the same shape. Every std here is the POPULATION std
 * (divide by G, or by the batch size for REINFORCE++), matching torch.std(unbiased=False) and the
 * zero-variance test, so a group of identical rewards always yields exactly 0.
 */

export type RewardGroups = readonly (readonly number[])[]

export interface EstimatorOptions {
  /** Added to the std before dividing (grpo, reinforce++); 1e-6 by default. */
  epsilon?: number
}

export type AdvantageEstimator = (groups: RewardGroups, options?: EstimatorOptions) => number[][]

export const assertRewards = (groups: RewardGroups): void => {
  groups.forEach((group, g) =>
    group.forEach((r, i) => {
      if (!Number.isFinite(r)) throw new RangeError(`reward ${i} of group ${g} is not finite (${r})`)
    }),
  )
}

export const groupMean = (rewards: readonly number[]): number => {
  if (rewards.length === 0) return 0
  let sum = 0
  for (const r of rewards) sum += r
  return sum / rewards.length
}

/** Population standard deviation (divides by the count); 0 for fewer than two values. */
export const groupStd = (rewards: readonly number[]): number => {
  if (rewards.length < 2) return 0
  const mu = groupMean(rewards)
  let sq = 0
  for (const r of rewards) sq += (r - mu) * (r - mu)
  return Math.sqrt(sq / rewards.length)
}

const epsilonOf = (options: EstimatorOptions | undefined): number => {
  const eps = options?.epsilon ?? 1e-6
  if (!(eps >= 0 && Number.isFinite(eps))) throw new RangeError(`epsilon must be a non-negative finite number, got ${eps}`)
  return eps
}

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

/** r - group mean, no scaling (Harness-1's trainer): keeps the reward's units in the gradient. */
export const meanCentred: AdvantageEstimator = (groups) => {
  assertRewards(groups)
  return groups.map((group) => {
    const mu = groupMean(group)
    return group.map((r) => r - mu)
  })
}

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
