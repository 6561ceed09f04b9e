/**
 * Policy-gradient losses over sampled actions (README, "Environments, policies and evaluation", Training). Each takes per-sample
 * log-probabilities under the current policy (logpNew) and the behaviour policy (logpOld) with an
 * advantage, and returns the mean loss and dLoss/dlogpNew per sample (already divided by the
 * denominator), ready for PolicyHead.accumulate. ratio = exp(logpNew - logpOld). Each loss is one
 * file (reinforce.ts, ppo-clip.ts, cispo.ts) declaring its code, words and options; this file holds
 * what they share.
 */
import type { z } from 'zod'
import type { LossParam, TrainConfig } from '../../../preload/contract'
import type { PluginDeclaration } from '../named-registry'

export interface PolicyLossInput {
  logpNew: ArrayLike<number>
  /** Behaviour-policy log-probabilities; pass logpNew itself for a purely on-policy update. */
  logpOld: ArrayLike<number>
  advantages: ArrayLike<number>
}

export interface PolicyLossOptions {
  /** ppo-clip: symmetric clip epsilon; 0.2 by default. */
  clipEps?: number
  /** ppo-clip: lower / upper epsilon when asymmetric (DAPO's clip-higher); clipEps by default. */
  clipEpsLow?: number
  clipEpsHigh?: number
  /** ppo-clip: dual-clip constant C > 1 bounding the loss for A < 0; 3 by default, null disables. */
  dualClip?: number | null
  /** cispo: [lo, hi] clip of the stop-gradient importance weight; [0, 5] by default (Harness-1). */
  cispoRange?: readonly [number, number]
  /** Divide the summed loss by this instead of the sample count, e.g. a batch total when one update spans several calls. */
  denominator?: number
}

export interface PolicyLossResult {
  loss: number
  /** dLoss/dlogpNew for each sample. */
  grad: Float64Array
  /** Share of samples whose ratio was clipped (ppo-clip: gradient zeroed; cispo: weight clamped). */
  clippedFraction: number
  meanRatio: number
}

export type PolicyLoss = (input: PolicyLossInput, options?: PolicyLossOptions) => PolicyLossResult

export interface Prepared {
  n: number
  denominator: number
  logpNew: ArrayLike<number>
  ratio: Float64Array
  advantages: ArrayLike<number>
}

export const prepare = (input: PolicyLossInput, options: PolicyLossOptions): Prepared => {
  const { logpNew, logpOld, advantages } = input
  const n = logpNew.length
  if (logpOld.length !== n || advantages.length !== n) throw new RangeError(`logpNew, logpOld and advantages must have the same length (${n}, ${logpOld.length}, ${advantages.length})`)
  const ratio = new Float64Array(n)
  for (let i = 0; i < n; i++) {
    const a = logpNew[i]!
    const b = logpOld[i]!
    const adv = advantages[i]!
    if (!Number.isFinite(a) || !Number.isFinite(b) || !Number.isFinite(adv)) throw new RangeError(`sample ${i} has a non-finite log-probability or advantage`)
    ratio[i] = Math.exp(a - b)
  }
  const denominator = options.denominator ?? n
  if (!(denominator > 0 && Number.isFinite(denominator)) && n > 0) throw new RangeError(`denominator must be positive, got ${denominator}`)
  return { n, denominator, logpNew, ratio, advantages }
}

export const meanOf = (values: Float64Array): number => {
  if (values.length === 0) return 0
  let s = 0
  for (const v of values) s += v
  return s / values.length
}

/** One option of the config's `loss` object a loss reads, with its words and its bounds (the schema). */
export interface LossParamDeclaration {
  key: LossParam
  label: string
  description: string
  /** The value's bounds; its messages say what is wrong ("must exceed 1 (or be off)"). */
  schema: z.ZodType<number | null>
}

export interface LossCapabilities {
  /** Weighs samples by the importance ratio, which only moves from the second substep on. */
  usesRatio: boolean
}

export type LossConfig = TrainConfig['loss']

export interface LossDeclaration extends PluginDeclaration<PolicyLoss, LossCapabilities> {
  params: readonly LossParamDeclaration[]
  /** A rule across options, beyond each one's bounds; throws its message. */
  check?(config: LossConfig): void
  /** The implementation's options from the config's `loss` object. */
  options(config: LossConfig): PolicyLossOptions
}
