/**
 * The verdict of a claim. First its preconditions (one shared checker, fed by each claim's declared
 * preconditions): enough paired questions for an informative interval, variance in both compared arms,
 * a policy that did not collapse, a training diagnostic that moved where the claim needs one and a CI of
 * non-zero width. Where one fails the verdict is `no evidence` with its reason. Otherwise from the paired
 * effect: reproduced when the 95% CI excludes zero in the direction the paper predicts, contradicted when
 * it excludes zero the other way, inconclusive otherwise.
 *
 * A complete effect (every paired question differs, all in one direction: e.g. one arm uses 1 tool on every
 * question and the other 3) leaves the bootstrap nothing to resample: an arm without variance, a CI of zero
 * width. It is decided by the paired exact sign test instead (two-sided p under "either direction is equally
 * likely" of the per-question differences), named "complete" with its p-value; equal arms stay `no evidence`.
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

/** The paired exact sign test of a complete effect: questions compared, those in the paper's direction, two-sided p. */
export interface ExactTest {
  test: 'sign'
  questions: number
  agree: number
  p: number
}

export type VerdictOf = { verdict: Verdict; reason: string; exact?: ExactTest }

/** Held-out behaviour per episode a claim can require not to have collapsed. */
export type Behaviour = 'turns' | 'evidence' | 'tools'

/** What a claim needs of its data before it is judged; data on each claim's declaration. */
export interface Preconditions {
  /** Held-out behaviour checked in each compared arm: every episode after at most one turn, or one constant evidence / tool count, is a collapsed policy. */
  collapse: Behaviour[]
  /** A training diagnostic (per step) that must move between the first and the last step in at least one compared arm; null where the claim needs none. */
  moves: { diagnostic: string; label: string } | null
  /** The behaviour the effect itself measures: one arm constant in it is the effect, not a collapse, when the arms differ completely. */
  measures?: Behaviour
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

/**
 * The first precondition that fails, as its reason; null when the data can carry a verdict. `exact`: the
 * checks a complete effect still needs (no bootstrap: variance and CI width are not asked for, and the
 * behaviour the effect measures is the effect).
 */
export function preconditionFailure(effect: Effect, arms: readonly ArmEvidence[], pre: Preconditions, metric: string, exact = false): string | null {
  if (effect.count < MIN_QUESTIONS) return `${effect.count} paired question${effect.count === 1 ? '' : 's'}, fewer than ${MIN_QUESTIONS} for an informative 95% CI`
  for (const a of exact ? [] : arms) {
    const perQuestion = questionMeans(a.values, [...a.values.keys()])
    if (constant(perQuestion)) return `no variance: every question has ${metric} ${fmt(perQuestion[0]!)} in "${a.label}"`
  }
  for (const a of arms) {
    for (const b of pre.collapse.filter((x) => !(exact && x === pre.measures))) {
      const collapsed = COLLAPSE[b](a.behaviour[b] ?? [])
      if (collapsed) return `policy collapsed in "${a.label}": ${collapsed}`
    }
  }
  if (pre.moves) {
    const { label } = pre.moves
    if (arms.some((a) => a.trend.length < 2)) return `${label} recorded at fewer than 2 training steps: training cannot have moved it`
    if (arms.every((a) => Math.abs(a.trend[a.trend.length - 1]! - a.trend[0]!) <= FLAT)) return `${label} did not move over training in any arm (${arms.map((a) => `"${a.label}" ${fmt(a.trend[0]!)}`).join(', ')} at the first and last step)`
  }
  if (!exact && effect.lower !== null && effect.upper !== null && Math.abs(effect.upper - effect.lower) <= FLAT) return `the 95% CI has zero width (every paired difference is ${fmt(effect.lower)})`
  return null
}

/**
 * The claim's verdict from its two compared arms (reference, treatment): the one its paired CI gives; where the
 * bootstrap cannot judge but the effect is complete, the exact sign test's; else `no evidence` with the reason.
 */
export function judge(effect: Effect, arms: readonly ArmEvidence[], pre: Preconditions, metric: string, expected: 'positive' | 'negative'): VerdictOf {
  const failure = preconditionFailure(effect, arms, pre, metric)
  if (!failure) return verdictOf(effect, expected)
  const [reference, treatment] = arms
  const tested = reference && treatment ? signTest(reference.values, treatment.values, expected) : null
  if (tested && tested.ties === 0 && isComplete(tested) && !preconditionFailure(effect, arms, pre, metric, true)) {
    const { ties: _ties, ...exact } = tested
    return completeVerdict(exact)
  }
  return { verdict: 'no evidence', reason: failure }
}

/** Every paired question differs (the caller checks there is no tie), all in one direction, and the sign test rejects "no effect" at the CI's level. */
const isComplete = (t: ExactTest): boolean => t.questions >= MIN_QUESTIONS && (t.agree === 0 || t.agree === t.questions) && t.p < 1 - BOOTSTRAP.confidence

const pValue = (p: number): string => (p < 1e-4 ? p.toExponential(1) : p.toPrecision(2))

export function completeVerdict(t: ExactTest): VerdictOf {
  const agrees = t.agree === t.questions
  const n = `${agrees ? t.agree : t.questions - t.agree} of ${t.questions} paired questions`
  return agrees
    ? { verdict: 'reproduced', reason: `complete effect: ${n} differ in the paper's direction (exact sign test, two-sided p = ${pValue(t.p)})`, exact: t }
    : { verdict: 'contradicted', reason: `complete effect: ${n} differ against the paper's direction (exact sign test, two-sided p = ${pValue(t.p)})`, exact: t }
}

/**
 * The paired exact sign test on per-question differences (treatment minus reference, seeds averaged within a
 * question, on the keys both have): questions with a difference, those in the expected direction, and the
 * two-sided p of so lopsided a split when either sign is equally likely. Ties (no difference) count for
 * neither side and leave the test; a complete effect has none.
 */
export function signTest(reference: KeyedValues, treatment: KeyedValues, expected: 'positive' | 'negative'): ExactTest & { ties: number } {
  const keys = [...reference.keys()].filter((k) => treatment.has(k))
  const differences = new Map<string, number | null>()
  for (const k of keys) {
    const r = reference.get(k)
    const t = treatment.get(k)
    differences.set(k, r === null || r === undefined || t === null || t === undefined ? null : t - r)
  }
  const perQuestion = questionMeans(differences, [...differences.keys()])
  const signed = perQuestion.filter((d) => Math.abs(d) > FLAT)
  const agree = signed.filter((d) => (expected === 'positive' ? d > 0 : d < 0)).length
  const n = signed.length
  const k = Math.min(agree, n - agree)
  // P(X <= k) for X ~ Binomial(n, 1/2), summed in log space (n can be in the hundreds).
  let tail = 0
  let logC = 0
  for (let i = 0; i <= k; i++) {
    if (i > 0) logC += Math.log(n - i + 1) - Math.log(i)
    tail += Math.exp(logC - n * Math.LN2)
  }
  return { test: 'sign', questions: n, agree, p: n === 0 ? 1 : Math.min(1, 2 * tail), ties: perQuestion.length - n }
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
