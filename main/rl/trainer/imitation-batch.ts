/**
 * A supervised warm start's batch: every decision of every rollout (a teacher's choices recorded as the
 * model's own replies) trains with the same weight, 1 over the batch's chosen tokens, so the loss is the
 * token-mean next-token cross-entropy of the replies; no reward, advantage or KL term enters it.
 */
import type { TokenBatch, TokenRollout } from './token-batch'

export function imitationBatch(groups: readonly (readonly Pick<TokenRollout, 'decisions'>[])[], steps: (gi: number, ri: number) => number): TokenBatch {
  const decisions = groups.flatMap((g) => g.flatMap((r) => r.decisions.filter((d) => d.chosen.length > 0)))
  const tokens = decisions.reduce((n, d) => n + d.chosen.length, 0)
  const w = 1 / Math.max(1, tokens)
  const zeros = (k: number) => new Array<number>(k).fill(0)
  return {
    items: decisions.map((d) => ({ tokens: [...d.prompt, ...d.chosen], weights: [...zeros(d.prompt.length), ...d.chosen.map(() => w)], klWeights: zeros(d.prompt.length + d.chosen.length) })),
    outcomeAdvantages: groups.map((g) => g.map(() => 0)),
    // Each step the teacher chose is a target: its stored per-step weight is 1.
    stepAdvantages: groups.map((g, gi) => g.map((_, ri) => new Array<number>(steps(gi, ri)).fill(1))),
    kept: groups.map((_, gi) => gi),
    creditScale: 1,
    decisions: decisions.length,
    tokens,
  }
}
