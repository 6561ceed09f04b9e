/**
 * Zero-variance groups (README, "Environments, policies and evaluation", Training): a group with at least two rollouts and reward std below
 * 1e-6 gives every rollout zero advantage under any group-relative estimator, so it carries no
 * learning signal. Diagnostics split them into all-correct (too easy) and all-wrong (too hard); DAPO
 * drops them from the batch.
 */
import { assertRewards, groupStd, type RewardGroups } from './group'

export type GroupKind =
  /** Rewards differ: the group carries signal. */
  | 'informative'
  /** Fewer than two rollouts: no group statistics at all; not counted as zero-advantage. */
  | 'too-small'
  /** Zero variance and every rollout correct. */
  | 'all-correct'
  /** Zero variance and every rollout wrong. */
  | 'all-wrong'
  /** Zero variance but correctness disagrees (e.g. equal partial rewards). */
  | 'zero-mixed'
  /** Zero variance and no correctness information was supplied. */
  | 'zero-unlabelled'

export interface GroupClassOptions {
  /** Correctness from the reward, e.g. (r) => r >= 1. Mutually exclusive with correctFlags. */
  correct?: (reward: number) => boolean
  /** Per-rollout correctness, same shape as the groups. */
  correctFlags?: readonly (readonly boolean[])[]
  /** Std threshold; 1e-6 by default. */
  tolerance?: number
}

const ZERO_KINDS: ReadonlySet<GroupKind> = new Set(['all-correct', 'all-wrong', 'zero-mixed', 'zero-unlabelled'])

export const isZeroAdvantage = (kind: GroupKind): boolean => ZERO_KINDS.has(kind)

export const classifyGroups = (groups: RewardGroups, options: GroupClassOptions = {}): GroupKind[] => {
  assertRewards(groups)
  const { correct, correctFlags } = options
  const tolerance = options.tolerance ?? 1e-6
  if (correct !== undefined && correctFlags !== undefined) throw new Error('give either correct or correctFlags, not both')
  if (correctFlags !== undefined) {
    if (correctFlags.length !== groups.length) throw new RangeError(`correctFlags has ${correctFlags.length} groups, rewards have ${groups.length}`)
    groups.forEach((group, g) => {
      if (correctFlags[g]!.length !== group.length) throw new RangeError(`group ${g}: ${correctFlags[g]!.length} correctness flags for ${group.length} rollouts`)
    })
  }
  return groups.map((group, g): GroupKind => {
    if (group.length < 2) return 'too-small'
    if (!(groupStd(group) < tolerance)) return 'informative'
    const flags = correctFlags?.[g] ?? (correct === undefined ? undefined : group.map(correct))
    if (flags === undefined) return 'zero-unlabelled'
    if (flags.every(Boolean)) return 'all-correct'
    if (flags.every((f) => !f)) return 'all-wrong'
    return 'zero-mixed'
  })
}

export interface ZeroAdvantageStats {
  groups: number
  zeroAdvantage: number
  allCorrect: number
  allWrong: number
  mixed: number
  unlabelled: number
  tooSmall: number
  /** zeroAdvantage / groups over ALL groups (too-small ones included in the denominator); 0 for an empty batch. */
  rate: number
  allCorrectRate: number
  allWrongRate: number
}

export const zeroAdvantageStats = (groups: RewardGroups, options: GroupClassOptions = {}): ZeroAdvantageStats => {
  const kinds = classifyGroups(groups, options)
  const count = (kind: GroupKind) => kinds.filter((k) => k === kind).length
  const total = kinds.length
  const zeroAdvantage = kinds.filter(isZeroAdvantage).length
  const allCorrect = count('all-correct')
  const allWrong = count('all-wrong')
  const share = (x: number) => (total === 0 ? 0 : x / total)
  return {
    groups: total,
    zeroAdvantage,
    allCorrect,
    allWrong,
    mixed: count('zero-mixed'),
    unlabelled: count('zero-unlabelled'),
    tooSmall: count('too-small'),
    rate: share(zeroAdvantage),
    allCorrectRate: share(allCorrect),
    allWrongRate: share(allWrong),
  }
}

export interface DropOptions extends GroupClassOptions {
  /** Also drop groups of fewer than two rollouts (their advantage is 0 too); false by default. */
  dropTooSmall?: boolean
}

export interface DropResult {
  /** Indices of groups to train on, ascending. */
  kept: number[]
  dropped: number[]
  kinds: GroupKind[]
}

/** DAPO-style dynamic filtering: keep only groups whose rewards differ. */
export const dropZeroVarianceGroups = (groups: RewardGroups, options: DropOptions = {}): DropResult => {
  const kinds = classifyGroups(groups, options)
  const kept: number[] = []
  const dropped: number[] = []
  kinds.forEach((kind, g) => {
    const drop = isZeroAdvantage(kind) || (kind === 'too-small' && options.dropTooSmall === true)
    ;(drop ? dropped : kept).push(g)
  })
  return { kept, dropped, kinds }
}
