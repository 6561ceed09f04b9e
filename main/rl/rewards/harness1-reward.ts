/**
 * The Harness-1 reward (Harness-1 paper and its code's defaults; README, Training), every term computed and returned separately:
 *
 *   R = max(floor, 0.7·Fβ(curated) + 0.3·traj_recall + 1·1[ans_recall > 0] + 0.8·ans_recall
 *                  + 0.4·traj_ans_recall − 0.35·max(0, traj_ans_recall − ans_recall) − turn_penalty
 *                  + w_div·min(U/6, 1) − 0.08·max(0, 6 − U))
 *
 * replaced by −0.5 when the episode had a format error (checked first; `formatErrorsAllowed` can
 * tolerate some) and by −0.2 when nothing is curated. U counts distinct tools used in valid calls, end_search excluded.
 *
 * Null recalls (main/eval returns null for an empty denominator) fall back explicitly, and every
 * fallback used is named in the result:
 * - no gold units at all: every recall term is 0 ("no-gold");
 * - gold but none answer-bearing (yes/no and comparison answers, answers phrased differently from the
 *   passages): answer recall := curated recall and trajectory answer recall := trajectory recall, i.e.
 *   every gold unit counts as needed for the answer ("no-answer-bearing-gold").
 */
import type { Harness1Recalls } from '../../eval'
import { PUBLISHED_HARNESS1_WEIGHTS, type Harness1Weights } from './harness1-weights'

export const HARNESS1_TERMS = [
  'curatedFBeta',
  'trajectoryRecall',
  'answerFound',
  'answerRecall',
  'trajectoryAnswerRecall',
  'answerGap',
  'turnPenalty',
  'toolDiversity',
  'toolShortfall',
] as const
export type Harness1TermName = (typeof HARNESS1_TERMS)[number]

export interface RewardTerm {
  /** The quantity before weighting (a recall, an indicator, a count, a ramp fraction). */
  raw: number
  /** The signed multiplier applied (penalties are negative). */
  weight: number
  /** raw × weight: this term's contribution to the formula. */
  value: number
}

export interface Harness1RewardInput {
  recalls: Harness1Recalls
  curatedCount: number
  turns: number
  /** Distinct tools used in valid calls (end_search is ignored here). */
  toolsUsed: readonly string[]
  formatErrors: number
}

export interface Harness1RewardBreakdown {
  /** The reward. */
  total: number
  /** Sum of the term values before the floor. */
  formula: number
  /** True when the floor raised the formula. */
  floored: boolean
  /** Set when a fixed reward replaced the formula. */
  override: 'format-error' | 'empty-curated' | null
  terms: Record<Harness1TermName, RewardTerm>
  /** U: distinct non-end_search tools. */
  distinctTools: number
  /** The recall values after fallbacks, as used. */
  used: { curatedFBeta: number; trajectoryRecall: number; answerRecall: number; trajectoryAnswerRecall: number }
  fallbacks: string[]
  weights: Harness1Weights
}

export function harness1Reward(input: Harness1RewardInput, weights: Harness1Weights = PUBLISHED_HARNESS1_WEIGHTS): Harness1RewardBreakdown {
  const r = input.recalls
  const fallbacks: string[] = []
  let fb = r.curatedFBeta
  let trajectoryRecall = r.trajectoryRecall
  let answerRecall = r.answerRecall
  let trajectoryAnswerRecall = r.trajectoryAnswerRecall
  if (r.goldCount === 0 || r.curatedRecall === null) {
    fallbacks.push('no-gold')
    fb = 0
    trajectoryRecall = 0
    answerRecall = 0
    trajectoryAnswerRecall = 0
  } else if (answerRecall === null || trajectoryAnswerRecall === null) {
    fallbacks.push('no-answer-bearing-gold')
    answerRecall = answerRecall ?? r.curatedRecall
    trajectoryAnswerRecall = trajectoryAnswerRecall ?? trajectoryRecall ?? 0
  }
  fb ??= 0
  trajectoryRecall ??= 0
  const ar = answerRecall ?? 0
  const tar = trajectoryAnswerRecall ?? 0

  const u = new Set(input.toolsUsed.filter((t) => t !== 'end_search')).size
  const term = (raw: number, weight: number): RewardTerm => ({ raw, weight, value: raw * weight })
  const terms: Record<Harness1TermName, RewardTerm> = {
    curatedFBeta: term(fb, weights.curatedFBeta),
    trajectoryRecall: term(trajectoryRecall, weights.trajectoryRecall),
    answerFound: term(ar > 0 ? 1 : 0, weights.answerFound),
    answerRecall: term(ar, weights.answerRecall),
    trajectoryAnswerRecall: term(tar, weights.trajectoryAnswerRecall),
    answerGap: term(Math.max(0, tar - ar), -weights.answerGap),
    turnPenalty: term(turnRamp(input.turns, weights.turnPenaltyStart, weights.turnPenaltyEnd), -weights.turnPenaltyMax),
    toolDiversity: term(Math.min(u / weights.diversityTarget, 1), weights.diversity),
    toolShortfall: term(Math.max(0, weights.shortfallTarget - u), -weights.toolShortfall),
  }
  const formula = HARNESS1_TERMS.reduce((sum, name) => sum + terms[name].value, 0)
  const override = input.formatErrors > weights.formatErrorsAllowed ? 'format-error' : input.curatedCount === 0 ? 'empty-curated' : null
  const total = override === 'format-error' ? weights.formatError : override === 'empty-curated' ? weights.emptyCurated : Math.max(weights.floor, formula)
  return {
    total,
    formula,
    floored: override === null && formula < weights.floor,
    override,
    terms,
    distinctTools: u,
    used: { curatedFBeta: fb, trajectoryRecall, answerRecall: ar, trajectoryAnswerRecall: tar },
    fallbacks,
    weights: { ...weights },
  }
}

/** 0 up to `start`, 1 from `end`, linear between (a step at `start` when end <= start). */
export function turnRamp(turns: number, start: number, end: number): number {
  if (turns <= start) return 0
  if (end <= start || turns >= end) return 1
  return (turns - start) / (end - start)
}
