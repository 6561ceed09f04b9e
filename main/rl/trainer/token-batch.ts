/**
 * From a batch of rollout groups of a language-model policy to weighted token sequences for the native
 * GGUF trainer: outcome advantages by the configured estimator, zero-variance groups dropped, per-step
 * credit combined with the outcome advantage by lambda (as for the head), then one sequence per decision
 * with a non-zero advantage: the prompt (weight 0: never in the loss) followed by the chosen reply's
 * tokens, each weighted by the decision's advantage over the number of such decisions. The trainer minimises sum w * -log p(token), so a
 * positive advantage raises the chosen reply's probability and a negative one lowers it.
 */
import type { StepCredit } from '../credit'
import type { AdvantageConfig } from './config'
import { groupAdvantages } from './group-advantages'
import type { RolloutSummary } from './diagnostics'

export interface TokenDecision {
  /** Episode step of the decision. */
  t: number
  prompt: number[]
  chosen: number[]
}

export interface TokenRollout {
  summary: RolloutSummary
  credit: StepCredit[]
  decisions: TokenDecision[]
}

export interface WeightedSequence {
  tokens: number[]
  weights: number[]
}

export interface TokenBatch {
  items: WeightedSequence[]
  outcomeAdvantages: number[][]
  stepAdvantages: number[][][]
  kept: number[]
  creditScale: number
  /** Decisions with a non-zero advantage (one sequence each). */
  decisions: number
  /** Chosen tokens in the loss. */
  tokens: number
}

export function tokenBatch(groups: readonly (readonly TokenRollout[])[], config: AdvantageConfig): TokenBatch {
  const { outcomeAdvantages, kept, keptSet, flat, combined } = groupAdvantages(groups, config)
  const stepAdvantages: number[][][] = groups.map(() => [])
  const picked: Array<{ d: TokenDecision; a: number }> = []
  flat.forEach((x, i) => {
    const perStep = combined.perStep[i]!
    stepAdvantages[x.gi]!.push(perStep)
    if (!keptSet.has(x.gi)) return
    for (const d of x.r.decisions) {
      const a = perStep[d.t] ?? 0
      if (a !== 0 && Number.isFinite(a) && d.chosen.length > 0) picked.push({ d, a })
    }
  })
  // The loss is the mean over decisions (as the head's): the learning rate then means the same for a
  // batch of 8 decisions as for one of 80.
  const n = Math.max(1, picked.length)
  const items = picked.map(({ d, a }) => ({ tokens: [...d.prompt, ...d.chosen], weights: [...d.prompt.map(() => 0), ...d.chosen.map(() => a / n)] }))
  const tokens = picked.reduce((s, { d }) => s + d.chosen.length, 0)
  return { items, outcomeAdvantages, stepAdvantages, kept, creditScale: combined.scale, decisions: items.length, tokens }
}
