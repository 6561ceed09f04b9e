/**
 * Credit quality of one per-step signal over rollout groups with known gold: how well it ranks the
 * steps on a gold path above the others (rank AUC, bootstrap CI over questions), how much it varies
 * within a group, and how many groups it leaves with nothing to learn from (every step exactly 0).
 * Broken down by question type and hop count. Pure: the caller labels steps (gold-path.ts) and
 * supplies the signal (signals.ts).
 */
import { seededRandom } from '../../eval'
import { rankAuc } from './auc'
import type { StepLabel } from './gold-path'

export interface QualityRollout {
  labels: readonly StepLabel[]
  /** The signal's value at each step, index for index with labels. */
  values: readonly number[]
}

export interface QualityGroup {
  questionId: string
  /** 'bridge', 'comparison', ... when the question set says; null otherwise. */
  questionType: string | null
  /** Gold documents of the question (hop count). */
  hops: number
  rollouts: readonly QualityRollout[]
}

export interface AucSlice {
  auc: number | null
  positives: number
  negatives: number
  questions: number
}

export interface SignalQuality extends AucSlice {
  ci: { lower: number; upper: number } | null
  /** Mean over ranked steps: a positive mean pays for acting at all, against the ANSWER step's 0. */
  mean: number | null
  /** Every ranked step got the same value: the AUC is 0.5 by construction and says nothing. */
  constant: boolean
  /** Mean over groups of the population variance of the signal over the group's ranked steps. */
  groupVariance: number | null
  /** Share of groups whose every step is exactly 0 (no gradient from that question). */
  zeroGroupShare: number | null
  byType: Record<string, AucSlice>
  byHops: Record<string, AucSlice>
}

export interface QualityOptions {
  /** Bootstrap resamples over questions; 1000 by default. */
  resamples?: number
  seed?: number
  confidence?: number
}

const ZERO = 1e-12

function pool(groups: readonly QualityGroup[]): { pos: number[]; neg: number[] } {
  const pos: number[] = []
  const neg: number[] = []
  for (const g of groups) {
    for (const r of g.rollouts) {
      if (r.labels.length !== r.values.length) throw new RangeError(`question ${g.questionId}: ${r.labels.length} step labels but ${r.values.length} values`)
      r.labels.forEach((l, t) => {
        if (!l.ranked) return
        const v = r.values[t]!
        if (!Number.isFinite(v)) throw new RangeError(`question ${g.questionId}: step ${t} has a non-finite value (${v})`)
        ;(l.gold ? pos : neg).push(v)
      })
    }
  }
  return { pos, neg }
}

function slice(groups: readonly QualityGroup[]): AucSlice {
  const { pos, neg } = pool(groups)
  return { auc: rankAuc(pos, neg), positives: pos.length, negatives: neg.length, questions: groups.length }
}

function sliceBy(groups: readonly QualityGroup[], key: (g: QualityGroup) => string): Record<string, AucSlice> {
  const parts = new Map<string, QualityGroup[]>()
  for (const g of groups) parts.set(key(g), [...(parts.get(key(g)) ?? []), g])
  return Object.fromEntries([...parts.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, gs]) => [k, slice(gs)]))
}

const quantile = (sorted: readonly number[], q: number): number => {
  const h = (sorted.length - 1) * q
  const lo = Math.floor(h)
  const hi = Math.min(lo + 1, sorted.length - 1)
  return sorted[lo]! + (h - lo) * (sorted[hi]! - sorted[lo]!)
}

/** Percentile bootstrap over questions: resample whole groups, pool their steps, recompute the AUC. */
function bootstrapAuc(groups: readonly QualityGroup[], options: Required<QualityOptions>): { lower: number; upper: number } | null {
  if (groups.length === 0) return null
  const random = seededRandom(options.seed)
  const aucs: number[] = []
  for (let b = 0; b < options.resamples; b++) {
    const sample = Array.from({ length: groups.length }, () => groups[Math.floor(random() * groups.length)]!)
    const auc = slice(sample).auc
    // A resample without a positive or a negative step has no AUC; it is left out, not counted as 0.5.
    if (auc !== null) aucs.push(auc)
  }
  if (aucs.length === 0) return null
  aucs.sort((a, b) => a - b)
  const tail = (1 - options.confidence) / 2
  return { lower: quantile(aucs, tail), upper: quantile(aucs, 1 - tail) }
}

const variance = (xs: readonly number[]): number => {
  const m = xs.reduce((a, b) => a + b, 0) / xs.length
  return xs.reduce((a, x) => a + (x - m) ** 2, 0) / xs.length
}

export function signalQuality(groups: readonly QualityGroup[], options: QualityOptions = {}): SignalQuality {
  const resolved = { resamples: options.resamples ?? 1000, seed: options.seed ?? 0, confidence: options.confidence ?? 0.95 }
  if (!Number.isInteger(resolved.resamples) || resolved.resamples < 1) throw new RangeError(`resamples must be a positive integer, got ${resolved.resamples}`)
  if (!(resolved.confidence > 0 && resolved.confidence < 1)) throw new RangeError(`confidence must lie in (0, 1), got ${resolved.confidence}`)
  const overall = slice(groups)
  const { pos, neg } = pool(groups)
  const values = [...pos, ...neg]
  const constant = values.length > 0 && values.every((v) => v === values[0])
  const variances: number[] = []
  let zeroGroups = 0
  for (const g of groups) {
    const ranked = g.rollouts.flatMap((r) => r.values.filter((_, t) => r.labels[t]!.ranked))
    if (ranked.length > 0) variances.push(variance(ranked))
    if (g.rollouts.every((r) => r.values.every((v) => Math.abs(v) < ZERO))) zeroGroups++
  }
  return {
    ...overall,
    // A constant signal ranks nothing: its CI is the point itself, not a resampled spread.
    ci: constant ? { lower: 0.5, upper: 0.5 } : bootstrapAuc(groups, resolved),
    constant,
    mean: values.length === 0 ? null : values.reduce((a, b) => a + b, 0) / values.length,
    groupVariance: variances.length === 0 ? null : variances.reduce((a, b) => a + b, 0) / variances.length,
    zeroGroupShare: groups.length === 0 ? null : zeroGroups / groups.length,
    byType: sliceBy(groups, (g) => g.questionType ?? 'unknown'),
    byHops: sliceBy(groups, (g) => `${g.hops}-hop`),
  }
}
