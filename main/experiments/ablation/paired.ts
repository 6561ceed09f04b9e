/**
 * Paired statistics of an ablation row against the base. Episodes are keyed `question:seed`; a row is
 * paired with the base on the keys both have. Seeds are averaged within a question first and the
 * questions are resampled (a cluster bootstrap: the seeds of one question are not independent draws).
 * Base keys a row lacks are reported, never silently dropped.
 */
import type { DifferenceEstimate, Estimate } from '../../../preload/contract'
import { bootstrapMeanCI, mean, type BootstrapOptions } from '../../eval'

export type { Estimate }

export type KeyedValues = ReadonlyMap<string, number | null>

export interface Alignment {
  /** Keys present in both, in the base's order. */
  paired: string[]
  /** Base keys the row has no episode for. */
  missing: string[]
  /** Row keys the base has no episode for. */
  extra: string[]
}

/** Which base episodes a row has (by key), and which it lacks. */
export function alignKeys(baseKeys: readonly string[], rowKeys: readonly string[]): Alignment {
  const row = new Set(rowKeys)
  const base = new Set(baseKeys)
  return { paired: baseKeys.filter((k) => row.has(k)), missing: baseKeys.filter((k) => !row.has(k)), extra: rowKeys.filter((k) => !base.has(k)) }
}

const questionOf = (key: string): string => key.slice(0, key.lastIndexOf(':'))

/** Per-question means of the values at `keys` (seeds averaged), in first-seen question order; nulls are skipped. */
export function questionMeans(values: KeyedValues, keys: readonly string[]): number[] {
  const byQuestion = new Map<string, number[]>()
  for (const k of keys) {
    const v = values.get(k)
    if (v === null || v === undefined) continue
    const q = questionOf(k)
    const list = byQuestion.get(q)
    if (list) list.push(v)
    else byQuestion.set(q, [v])
  }
  return [...byQuestion.values()].map(mean)
}

/** The mean over questions (seeds averaged) with its bootstrap CI. */
export function estimate(values: KeyedValues, keys: readonly string[], options: BootstrapOptions): Estimate {
  const perQuestion = questionMeans(values, keys)
  if (perQuestion.length === 0) return { mean: null, lower: null, upper: null, count: 0 }
  const ci = bootstrapMeanCI(perQuestion, options)
  return { mean: mean(perQuestion), lower: ci?.lower ?? null, upper: ci?.upper ?? null, count: perQuestion.length }
}

/** Row minus base on the paired keys where both have a value: the mean difference over questions and its paired bootstrap CI. */
export function pairedDifference(base: KeyedValues, row: KeyedValues, keys: readonly string[], options: BootstrapOptions): DifferenceEstimate {
  const differences = new Map<string, number>()
  for (const k of keys) {
    const b = base.get(k)
    const r = row.get(k)
    if (b === null || b === undefined || r === null || r === undefined) continue
    differences.set(k, r - b)
  }
  const e = estimate(differences, [...differences.keys()], options)
  const excludesZero = e.lower !== null && e.upper !== null && (e.lower > 0 || e.upper < 0)
  return { ...e, excludesZero }
}
