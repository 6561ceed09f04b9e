/**
 * From a batch of rollout groups of a language-model policy to weighted token sequences for the native
 * GGUF trainer: outcome advantages by the configured estimator, zero-variance groups dropped, per-step
 * credit combined with the outcome advantage by lambda (as for the head), then one sequence per decision
 * of the kept groups: the prompt (weight 0: never in the loss) followed by the chosen reply's tokens.
 * Token-mean: each chosen token weighs the decision's advantage over the batch's chosen tokens (every
 * decision of the kept groups, whatever its advantage), and klCoef over the same count for the KL to the
 * base, so the size of an update does not grow with rollouts, questions or decisions per step. The trainer
 * minimises sum w * -log p(token) + b * KL, so a positive advantage raises the chosen reply's probability.
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
  klWeights: number[]
}

export interface TokenBatch {
  items: WeightedSequence[]
  outcomeAdvantages: number[][]
  stepAdvantages: number[][][]
  kept: number[]
  creditScale: number
  /** Decisions sent to the trainer (one sequence each): a non-zero advantage, or any when the KL term is on. */
  decisions: number
  /** Chosen tokens of the kept groups: the token-mean's denominator. */
  tokens: number
}

export function tokenBatch(groups: readonly (readonly TokenRollout[])[], config: AdvantageConfig, klCoef = 0): TokenBatch {
  const { outcomeAdvantages, kept, keptSet, flat, combined } = groupAdvantages(groups, config)
  const stepAdvantages: number[][][] = groups.map(() => [])
  const picked: Array<{ d: TokenDecision; a: number }> = []
  let tokens = 0
  flat.forEach((x, i) => {
    const perStep = combined.perStep[i]!
    stepAdvantages[x.gi]!.push(perStep)
    if (!keptSet.has(x.gi)) return
    for (const d of x.r.decisions) {
      if (d.chosen.length === 0) continue
      tokens += d.chosen.length
      const raw = perStep[d.t] ?? 0
      const a = Number.isFinite(raw) ? raw : 0
      if (a !== 0 || klCoef > 0) picked.push({ d, a })
    }
  })
  const n = Math.max(1, tokens)
  const zeros = (k: number) => new Array<number>(k).fill(0)
  const items = picked.map(({ d, a }) => ({
    tokens: [...d.prompt, ...d.chosen],
    weights: [...zeros(d.prompt.length), ...d.chosen.map(() => a / n)],
    klWeights: [...zeros(d.prompt.length), ...d.chosen.map(() => klCoef / n)],
  }))
  return { items, outcomeAdvantages, stepAdvantages, kept, creditScale: combined.scale, decisions: items.length, tokens }
}
