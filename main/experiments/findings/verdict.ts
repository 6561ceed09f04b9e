/**
 * The verdict of a claim from its paired effect: reproduced when the 95% CI excludes zero in the
 * direction the paper predicts, contradicted when it excludes zero the other way, inconclusive otherwise
 * (including when there is nothing to pair).
 */
import type { Verdict } from '../../../preload/contract'
import { pairedDifference, type KeyedValues } from '../ablation/paired'

export const BOOTSTRAP = { resamples: 2000, confidence: 0.95, seed: 0 } as const

export interface Effect {
  mean: number | null
  lower: number | null
  upper: number | null
  count: number
}

export function verdictOf(effect: Effect, expected: 'positive' | 'negative'): { verdict: Verdict; reason: string } {
  if (effect.mean === null || effect.lower === null || effect.upper === null || effect.count === 0) return { verdict: 'inconclusive', reason: 'no paired samples: nothing to compare' }
  if (effect.count < 2) return { verdict: 'inconclusive', reason: `${effect.count} paired sample: too few for an interval` }
  const above = effect.lower > 0
  const below = effect.upper < 0
  if (!above && !below) return { verdict: 'inconclusive', reason: 'the 95% CI includes zero' }
  const agrees = (above && expected === 'positive') || (below && expected === 'negative')
  return agrees
    ? { verdict: 'reproduced', reason: `the 95% CI excludes zero in the paper's direction (${expected})` }
    : { verdict: 'contradicted', reason: `the 95% CI excludes zero against the paper's direction (${expected})` }
}

/** Treatment minus reference over the keys both have (`question:seed`; seeds averaged within a question), with its paired bootstrap CI. */
export function pairedEffect(reference: KeyedValues, treatment: KeyedValues): Effect {
  const keys = [...reference.keys()].filter((k) => treatment.has(k))
  const d = pairedDifference(reference, treatment, keys, BOOTSTRAP)
  return { mean: d.mean, lower: d.lower, upper: d.upper, count: d.count }
}
