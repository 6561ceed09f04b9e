/**
 * Group-relative advantage estimators (README, "Environments, policies and evaluation", Training). Input: one array of rewards per question,
 * holding its G rollouts; output: advantages of the same shape. Every std here is the POPULATION std
 * (divide by G, or by the batch size for REINFORCE++), matching torch.std(unbiased=False) and the
 * zero-variance test, so a group of identical rewards always yields exactly 0. Each estimator is one
 * file (grpo.ts, mean-centred.ts, rloo.ts, reinforce-plus-plus.ts); this file holds what they share.
 */
import type { PluginDeclaration } from '../named-registry'

export type RewardGroups = readonly (readonly number[])[]

export interface EstimatorOptions {
  /** Added to the std before dividing (grpo, reinforce++); 1e-6 by default. */
  epsilon?: number
}

export type AdvantageEstimator = (groups: RewardGroups, options?: EstimatorOptions) => number[][]

/** An estimator declares no capabilities yet: every one reads only the reward groups. */
export type EstimatorDeclaration = PluginDeclaration<AdvantageEstimator>

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

export const epsilonOf = (options: EstimatorOptions | undefined): number => {
  const eps = options?.epsilon ?? 1e-6
  if (!(eps >= 0 && Number.isFinite(eps))) throw new RangeError(`epsilon must be a non-negative finite number, got ${eps}`)
  return eps
}
