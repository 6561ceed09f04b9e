/**
 * The per-step signals whose quality is measured, from the same rollouts credited by every scheme (a
 * paired comparison): for each scheme its raw credit (`<scheme>:credit`), the advantage the trainer
 * would apply (`<scheme>`: the group's outcome advantage plus lambda times the scaled, clamped credit,
 * exactly as combineAdvantages does it), and the parts it fills (`snc:frontier`, `snc:enablement`,
 * `snc:gain`; `info-gain:gain`).
 */
import { combineAdvantages, type StepCredit } from '../credit'
import { estimator } from '../estimators'
import type { StepLabel } from './gold-path'
import type { QualityGroup } from './quality'

export interface CreditedRollout {
  labels: readonly StepLabel[]
  reward: number
  /** Per scheme name, the credit of each step. */
  credits: Readonly<Record<string, readonly StepCredit[]>>
}

export interface CreditedGroup {
  questionId: string
  questionType: string | null
  hops: number
  rollouts: readonly CreditedRollout[]
}

export interface SignalOptions {
  /** Schemes credited on every rollout (each rollout's `credits` must hold them all). */
  schemes: readonly string[]
  /** Lambda of the combined advantage; 0.5 by default (the bench's SNC variant). */
  lambda?: number
  /** Advantage estimator; 'grpo' by default. */
  estimator?: string
}

/** Parts every StepCredit stores; a scheme that does not use one leaves it 0. */
const PARTS = ['frontier', 'enablement', 'gain'] as const

export function creditSignals(groups: readonly CreditedGroup[], options: SignalOptions): Record<string, QualityGroup[]> {
  const lambda = options.lambda ?? 0.5
  const outcome = estimator(options.estimator ?? 'grpo')(groups.map((g) => g.rollouts.map((r) => r.reward)))
  const flat = groups.flatMap((g, gi) => g.rollouts.map((r, ri) => ({ gi, ri, r, a: outcome[gi]![ri]! })))
  const out: Record<string, QualityGroup[]> = {}
  const emit = (name: string, valueOf: (r: CreditedRollout, flatIndex: number) => readonly number[]) => {
    let k = 0
    out[name] = groups.map((g) => ({
      questionId: g.questionId,
      questionType: g.questionType,
      hops: g.hops,
      rollouts: g.rollouts.map((r) => ({ labels: r.labels, values: valueOf(r, k++) })),
    }))
  }
  for (const scheme of options.schemes) {
    const creditOf = (r: CreditedRollout): readonly StepCredit[] => {
      const c = r.credits[scheme]
      if (!c) throw new RangeError(`a rollout has no "${scheme}" credit`)
      if (c.length !== r.labels.length) throw new RangeError(`"${scheme}" credit has ${c.length} steps but the rollout ${r.labels.length}`)
      return c
    }
    const combined = combineAdvantages(
      flat.map((x) => x.a),
      flat.map((x) => creditOf(x.r)),
      { lambda },
    ).perStep
    emit(scheme, (_r, i) => combined[i]!)
    emit(`${scheme}:credit`, (r) => creditOf(r).map((c) => c.total))
    // A part is measured where the scheme fills it (SNC: all three; info-gain: gain), read off the data, not the name.
    for (const part of PARTS) {
      if (flat.some((x) => creditOf(x.r).some((c) => c[part] !== 0))) emit(`${scheme}:${part}`, (r) => creditOf(r).map((c) => c[part]))
    }
  }
  return out
}
