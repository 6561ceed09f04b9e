/**
 * The verdict of a claim. First its preconditions (one shared checker, fed by each claim's declared
 * preconditions): enough paired questions for an informative interval, variance in both compared arms,
 * a policy that did not collapse, a training diagnostic that moved where the claim needs one and a CI of
 * non-zero width. Where one fails the verdict is `no evidence` with its reason. Otherwise from the paired
 * effect: reproduced when the 95% CI excludes zero in the direction the paper predicts, contradicted when
 * it excludes zero the other way, inconclusive otherwise.
 */
import type { Verdict } from '../../../preload/contract'
import { pairedDifference, questionMeans, type KeyedValues } from '../ablation/paired'

export const BOOTSTRAP = { resamples: 2000, confidence: 0.95, seed: 0 } as const

/**
 * Fewest paired questions (units) a verdict rests on. The percentile bootstrap of a mean over n units is
 * about z·sqrt((n-1)/n) / t(n-1) as wide as the t interval: 0.82 at n = 10 (coverage near 90% for a
 * nominal 95%), 0.63 at n = 5 (near 80%). Below 10 the interval is too narrow to be read as a 95% CI.
 */
export const MIN_QUESTIONS = 10

/** Differences at or below this are no movement (values are shares, F1s and counts). */
const FLAT = 1e-9

export interface Effect {
  mean: number | null
  lower: number | null
  upper: number | null
  count: number
}

export type VerdictOf = { verdict: Verdict; reason: string }

/** Held-out behaviour per episode a claim can require not to have collapsed. */
export type Behaviour = 'turns' | 'evidence' | 'tools'

/** What a claim needs of its data before it is judged; data on each claim's declaration. */
export interface Preconditions {
  /** Held-out behaviour checked in each compared arm: every episode after at most one turn, or one constant evidence / tool count, is a collapsed policy. */
  collapse: Behaviour[]
  /** A training diagnostic (per step) that must move between the first and the last step in at least one compared arm; null where the claim needs none. */
  moves: { diagnostic: string; label: string } | null
}

/** One compared arm as the checker reads it. */
export interface ArmEvidence {
  label: string
  /** The effect's metric per `question:seed` (or `unit:seed`). */
  values: KeyedValues
  /** Each declared behaviour per held-out episode. */
  behaviour: Partial<Record<Behaviour, number[]>>
  /** The declared training diagnostic per step (mean over seeds), in step order. */
  trend: number[]
}

const fmt = (v: number): string => (Number.isInteger(v) ? String(v) : v.toFixed(3))
const constant = (xs: readonly number[]): boolean => xs.length > 0 && xs.every((x) => Math.abs(x - xs[0]!) <= FLAT)

/** How each behaviour collapses, and the words for it. */
const COLLAPSE: Record<Behaviour, (xs: number[]) => string | null> = {
  turns: (xs) => (xs.length > 0 && xs.every((x) => x <= 1) ? 'every held-out episode ended after one turn' : null),
  evidence: (xs) => (constant(xs) ? `every held-out episode gathered ${fmt(xs[0]!)} evidence item${xs[0] === 1 ? '' : 's'}` : null),
  tools: (xs) => (constant(xs) ? `every held-out episode used ${fmt(xs[0]!)} distinct tool${xs[0] === 1 ? '' : 's'}` : null),
}

/** The first precondition that fails, as its reason; null when the data can carry a verdict. */
export function preconditionFailure(effect: Effect, arms: readonly ArmEvidence[], pre: Preconditions, metric: string): string | null {
  if (effect.count < MIN_QUESTIONS) return `${effect.count} paired question${effect.count === 1 ? '' : 's'}, fewer than ${MIN_QUESTIONS} for an informative 95% CI`
  for (const a of arms) {
    const perQuestion = questionMeans(a.values, [...a.values.keys()])
    if (constant(perQuestion)) return `no variance: every question has ${metric} ${fmt(perQuestion[0]!)} in "${a.label}"`
  }
  for (const a of arms) {
    for (const b of pre.collapse) {
      const collapsed = COLLAPSE[b](a.behaviour[b] ?? [])
      if (collapsed) return `policy collapsed in "${a.label}": ${collapsed}`
    }
  }
  if (pre.moves) {
    const { label } = pre.moves
    if (arms.some((a) => a.trend.length < 2)) return `${label} recorded at fewer than 2 training steps: training cannot have moved it`
    if (arms.every((a) => Math.abs(a.trend[a.trend.length - 1]! - a.trend[0]!) <= FLAT)) return `${label} did not move over training in any arm (${arms.map((a) => `"${a.label}" ${fmt(a.trend[0]!)}`).join(', ')} at the first and last step)`
  }
  if (effect.lower !== null && effect.upper !== null && Math.abs(effect.upper - effect.lower) <= FLAT) return `the 95% CI has zero width (every paired difference is ${fmt(effect.lower)})`
  return null
}

/** The claim's verdict: `no evidence` where a precondition fails, else the one its paired CI gives. */
export function judge(effect: Effect, arms: readonly ArmEvidence[], pre: Preconditions, metric: string, expected: 'positive' | 'negative'): VerdictOf {
  const failure = preconditionFailure(effect, arms, pre, metric)
  return failure ? { verdict: 'no evidence', reason: failure } : verdictOf(effect, expected)
}

export function verdictOf(effect: Effect, expected: 'positive' | 'negative'): VerdictOf {
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
