/**
 * Combines per-step credit with the outcome advantage, once per training batch (README, "Environments, policies and evaluation", Training):
 *   A[i][t] = A_outcome[i] + lambda * clamp(credit[i][t] / s, -c, c),   s = max(sMin, scale).
 * Raw credits are differences of mean log-probs, whose size depends on the answerer and the
 * dataset; dividing by one batch-global scale puts them on the outcome advantage's footing so that
 * lambda means the same thing across runs, while keeping their relative sizes across rollouts (a
 * per-rollout scale would erase them). The floor sMin stops a batch of near-identical tiny credits
 * from being blown up to full size, and the clamp c bounds any single step's share.
 */
import type { StepCredit } from './types'

export type CreditScaleKind = 'std' | 'mean-abs'

export interface CombineOptions {
  /** Weight of the credit term; 0 gives exactly the outcome advantage at every step. */
  lambda: number
  /** Floor on the scale; 5e-4 by default, as the paper. */
  sMin?: number
  /** Bound on |credit / s|; 3 by default (the paper's C = 3.0). */
  clamp?: number
  /**
   * 'std' (default): population std of the batch's non-zero credits. 'mean-abs': their mean
   * absolute value, steadier when only a handful of steps carry credit. Exact zeros (ANSWER steps,
   * invalid steps, re-surfaced text) are left out of both, since counting them would shrink the
   * scale and inflate the credit that real information actions received.
   */
  scale?: CreditScaleKind
}

export interface CombinedAdvantages {
  /** One array per rollout, one advantage per step. */
  perStep: number[][]
  /** The s actually divided by (after the floor). */
  scale: number
}

export const creditScale = (credits: readonly (readonly StepCredit[])[], kind: CreditScaleKind = 'std'): number => {
  const values = credits.flat().map((c) => c.total).filter((v) => v !== 0)
  if (values.length === 0) return 0
  if (kind === 'mean-abs') return values.reduce((sum, v) => sum + Math.abs(v), 0) / values.length
  const mean = values.reduce((sum, v) => sum + v, 0) / values.length
  return Math.sqrt(values.reduce((sum, v) => sum + (v - mean) ** 2, 0) / values.length)
}

export const combineAdvantages = (
  outcomeAdvantages: readonly number[],
  credits: readonly (readonly StepCredit[])[],
  options: CombineOptions,
): CombinedAdvantages => {
  const { lambda } = options
  const sMin = options.sMin ?? 5e-4
  const clamp = options.clamp ?? 3
  const kind = options.scale ?? 'std'
  if (outcomeAdvantages.length !== credits.length) {
    throw new RangeError(`${outcomeAdvantages.length} outcome advantages but ${credits.length} credit episodes`)
  }
  if (!Number.isFinite(lambda) || lambda < 0) throw new RangeError(`lambda must be finite and non-negative, got ${lambda}`)
  if (!(sMin > 0)) throw new RangeError(`sMin must be positive, got ${sMin}`)
  if (!(clamp > 0)) throw new RangeError(`clamp must be positive, got ${clamp}`)
  if (kind !== 'std' && kind !== 'mean-abs') throw new RangeError(`unknown credit scale "${String(kind)}" (known: std, mean-abs)`)
  credits.forEach((episode, i) => {
    if (!Number.isFinite(outcomeAdvantages[i])) throw new RangeError(`outcome advantage ${i} is not finite (${outcomeAdvantages[i]})`)
    episode.forEach((c, t) => {
      if (!Number.isFinite(c.total)) throw new RangeError(`credit of step ${t} in rollout ${i} is not finite (${c.total})`)
    })
  })

  const scale = Math.max(sMin, creditScale(credits, kind))
  const perStep = credits.map((episode, i) => {
    const outcome = outcomeAdvantages[i]!
    // lambda = 0 returns the outcome advantage itself, not outcome + 0 (which would turn -0 into 0).
    if (lambda === 0) return episode.map(() => outcome)
    return episode.map((c) => outcome + lambda * Math.min(clamp, Math.max(-clamp, c.total / scale)))
  })
  return { perStep, scale }
}
