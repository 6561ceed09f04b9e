/**
 * The advantage pipeline every trainer shares (the head's batch.ts, the GGUF policy's token-batch.ts):
 * outcome advantages by the configured estimator, DAPO-style dropping of zero-variance groups, and
 * per-step credit combined with the outcome advantage by lambda, once per batch.
 */
import { combineAdvantages, type StepCredit } from '../credit'
import { dropZeroVarianceGroups, estimator } from '../estimators'
import type { AdvantageConfig } from './config'
import type { RolloutSummary } from './diagnostics'

export interface AdvantageRollout {
  summary: RolloutSummary
  credit: StepCredit[]
}

export interface GroupAdvantages<R> {
  outcomeAdvantages: number[][]
  kept: number[]
  keptSet: Set<number>
  /** Every rollout in batch order with its group index and outcome advantage. */
  flat: Array<{ r: R; gi: number; a: number }>
  /** The combined per-step advantages of `flat`, index for index. */
  combined: ReturnType<typeof combineAdvantages>
}

export function groupAdvantages<R extends AdvantageRollout>(groups: readonly (readonly R[])[], config: AdvantageConfig): GroupAdvantages<R> {
  const rewards = groups.map((g) => g.map((r) => r.summary.reward))
  const outcomeAdvantages = estimator(config.estimator)(rewards)
  const kept = config.dropZeroVariance
    ? dropZeroVarianceGroups(rewards, { correctFlags: groups.map((g) => g.map((r) => r.summary.correct)) }).kept
    : groups.map((_, i) => i)
  const flat = groups.flatMap((g, gi) => g.map((r, ri) => ({ r, gi, a: outcomeAdvantages[gi]![ri]! })))
  const combined = combineAdvantages(
    flat.map((x) => x.a),
    flat.map((x) => x.r.credit),
    { lambda: config.credit.lambda },
  )
  return { outcomeAdvantages, kept, keptSet: new Set(kept), flat, combined }
}
