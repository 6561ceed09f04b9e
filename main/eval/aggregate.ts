import type { PairedDifference } from '../../preload/contract'
import type { NormalisationVariant } from './answer'
import { bootstrapMeanCI, mean, resolveBootstrapOptions, type BootstrapOptions, type ConfidenceInterval } from './bootstrap'
import type { QuestionResult } from './results'

/**
 * Aggregates computed from per-question records. Records are put in question-id order before
 * resampling, so an interval depends on the seed and the data, not on the order rows came back in.
 * Numbers scored under different answer rules are never averaged together.
 */

export interface MetricAggregate {
  metric: string
  /** null when no question has a value. */
  mean: number | null
  /** Questions with a value for this metric. */
  count: number
  /** Questions without one (null, absent): reported so that a mean over fewer questions is visible. */
  missing: number
  ci: ConfidenceInterval | null
  variant: NormalisationVariant | null
}

export interface PairedComparison {
  metric: string
  /** Questions where both systems have a value; the statistics below use only these. */
  count: number
  baselineMean: number | null
  candidateMean: number | null
  /** Mean of (candidate - baseline) per question. */
  meanDifference: number | null
  ci: ConfidenceInterval | null
  /** Questions where the candidate scores higher, the same (within tieTolerance), lower. */
  wins: number
  ties: number
  losses: number
  /** Values present for one system only (the question, or the metric, is missing on the other side). */
  unpaired: { baseline: number; candidate: number }
  variant: NormalisationVariant | null
}

/** The contract's paired-difference statistics of a comparison (each route adds its two sides' means in its own words). */
export function pairedDifference(c: PairedComparison): PairedDifference {
  return { count: c.count, meanDifference: c.meanDifference, lower: c.ci?.lower ?? null, upper: c.ci?.upper ?? null, wins: c.wins, ties: c.ties, losses: c.losses }
}

export interface PairedOptions extends BootstrapOptions {
  /** Absolute difference treated as a tie; 1e-12 by default (floating-point noise only). */
  tieTolerance?: number
}

const byQuestionId = (a: QuestionResult, b: QuestionResult): number =>
  a.questionId < b.questionId ? -1 : a.questionId > b.questionId ? 1 : 0

/** The single answer rule of a set of records (null if none carries one); mixing rules is an error. */
const commonVariant = (records: readonly QuestionResult[]): NormalisationVariant | null => {
  let variant: NormalisationVariant | null = null
  for (const record of records) {
    if (record.variant === null) continue
    if (variant !== null && record.variant !== variant) {
      throw new Error(`results mix answer rules '${variant}' and '${record.variant}'; score them under one rule`)
    }
    variant = record.variant
  }
  return variant
}

const sortedUnique = (records: readonly QuestionResult[], label: string): QuestionResult[] => {
  const sorted = [...records].sort(byQuestionId)
  for (let i = 1; i < sorted.length; i += 1) {
    if (sorted[i]!.questionId === sorted[i - 1]!.questionId) throw new Error(`${label} has two results for question '${sorted[i]!.questionId}'`)
  }
  return sorted
}

/**
 * A record's metrics as a Map of its own entries. Metric names come from callers (the API), so they
 * are never looked up on the plain object: `constructor`, `toString` or `__proto__` would find
 * Object.prototype's members there instead of "no value".
 */
type MetricValues = ReadonlyMap<string, number | null | undefined>
const metricMaps = new WeakMap<QuestionResult['metrics'], MetricValues>()
const metricsOf = (record: QuestionResult): MetricValues => {
  let values = metricMaps.get(record.metrics)
  if (!values) {
    values = new Map(Object.entries(record.metrics))
    metricMaps.set(record.metrics, values)
  }
  return values
}

const valueOf = (record: QuestionResult, metric: string): number | null => {
  const value = metricsOf(record).get(metric)
  if (value === null || value === undefined) return null
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new RangeError(`metric '${metric}' of question '${record.questionId}' is not finite: ${String(value)}`)
  return value
}

/** Mean, count and bootstrap CI of each metric (every metric seen in any record, or the ones named), keyed by metric name. */
export const aggregate = (
  records: readonly QuestionResult[],
  options: BootstrapOptions & { metrics?: readonly string[] } = {},
): Record<string, MetricAggregate> => {
  const bootstrap = resolveBootstrapOptions(options)
  const variant = commonVariant(records)
  const sorted = sortedUnique(records, 'the result set')
  const names = options.metrics ?? [...new Set(sorted.flatMap((record) => [...metricsOf(record).keys()]))].sort()
  const out = new Map<string, MetricAggregate>()
  for (const metric of names) {
    const values: number[] = []
    for (const record of sorted) {
      const value = valueOf(record, metric)
      if (value !== null) values.push(value)
    }
    out.set(metric, {
      metric,
      mean: values.length > 0 ? mean(values) : null,
      count: values.length,
      missing: sorted.length - values.length,
      ci: bootstrapMeanCI(values, bootstrap),
      variant,
    })
  }
  // Object.fromEntries defines own properties, so even a metric named `__proto__` is a plain key of the result.
  return Object.fromEntries(out)
}

/**
 * Paired comparison of two systems on the same questions: per-question differences (candidate minus
 * baseline), their mean with a paired bootstrap CI (questions are resampled, each keeping both of its
 * scores, so between-question variance cancels), and win/tie/loss counts.
 */
export const comparePaired = (
  baseline: readonly QuestionResult[],
  candidate: readonly QuestionResult[],
  metric: string,
  options: PairedOptions = {},
): PairedComparison => {
  const bootstrap = resolveBootstrapOptions(options)
  const tieTolerance = options.tieTolerance ?? 1e-12
  if (!(tieTolerance >= 0)) throw new RangeError(`tieTolerance must be >= 0, got ${tieTolerance}`)
  const baselineVariant = commonVariant(baseline)
  const candidateVariant = commonVariant(candidate)
  if (baselineVariant !== null && candidateVariant !== null && baselineVariant !== candidateVariant) {
    throw new Error(`cannot compare results under '${baselineVariant}' with results under '${candidateVariant}'`)
  }

  const candidateValues = new Map<string, number>()
  for (const record of sortedUnique(candidate, 'the candidate')) {
    const value = valueOf(record, metric)
    if (value !== null) candidateValues.set(record.questionId, value)
  }
  const baseValues: number[] = []
  const candValues: number[] = []
  const differences: number[] = []
  let unpairedBaseline = 0
  let wins = 0
  let ties = 0
  let losses = 0
  for (const record of sortedUnique(baseline, 'the baseline')) {
    const base = valueOf(record, metric)
    if (base === null) continue
    const cand = candidateValues.get(record.questionId)
    if (cand === undefined) {
      unpairedBaseline += 1
      continue
    }
    candidateValues.delete(record.questionId)
    const difference = cand - base
    if (Math.abs(difference) <= tieTolerance) ties += 1
    else if (difference > 0) wins += 1
    else losses += 1
    baseValues.push(base)
    candValues.push(cand)
    differences.push(difference)
  }
  const count = differences.length
  return {
    metric,
    count,
    baselineMean: count > 0 ? mean(baseValues) : null,
    candidateMean: count > 0 ? mean(candValues) : null,
    meanDifference: count > 0 ? mean(differences) : null,
    ci: bootstrapMeanCI(differences, bootstrap),
    wins,
    ties,
    losses,
    unpaired: { baseline: unpairedBaseline, candidate: candidateValues.size },
    variant: baselineVariant ?? candidateVariant,
  }
}
