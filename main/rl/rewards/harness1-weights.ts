/**
 * Harness-1 reward weights (Harness-1 paper and its code's defaults; README, Training). Every number is editable; PUBLISHED_HARNESS1_WEIGHTS
 * holds the published code's defaults, with the two values the paper gives as ranges pinned:
 * w_div = 0.25 (the low end of 0.25-0.5) and a turn penalty of at most 0.1 (inside 0-0.15), rising
 * linearly from turn 8 to turn 16 (the stateful environment's default turn limit).
 */
import { z } from 'zod'

export const harness1WeightsSchema = z.strictObject({
  /** F-beta's beta for the curated set (recall-weighted). */
  beta: z.number().positive(),
  /** × Fbeta(curated precision, curated recall). */
  curatedFBeta: z.number(),
  /** × trajectory recall (gold covered by anything seen). */
  trajectoryRecall: z.number(),
  /** × 1[answer recall > 0]: a bonus for curating at least one answer-bearing unit. */
  answerFound: z.number(),
  /** × answer recall (answer-bearing gold covered by the curated set). */
  answerRecall: z.number(),
  /** × trajectory answer recall. */
  trajectoryAnswerRecall: z.number(),
  /** Subtracted × max(0, trajectory answer recall − answer recall): seen the answer but did not curate it. */
  answerGap: z.number(),
  /** Largest turn penalty, reached at turnPenaltyEnd. */
  turnPenaltyMax: z.number(),
  /** Turns up to this one cost nothing. */
  turnPenaltyStart: z.number().int().min(0),
  turnPenaltyEnd: z.number().int().min(0),
  /** w_div × min(U / diversityTarget, 1), U = distinct tools used other than end_search. */
  diversity: z.number(),
  diversityTarget: z.number().positive(),
  /** Subtracted × max(0, shortfallTarget − U). */
  toolShortfall: z.number(),
  shortfallTarget: z.number().min(0),
  /** The formula's floor: R = max(floor, ...). */
  floor: z.number(),
  /** The reward when nothing is curated (replaces the formula). */
  emptyCurated: z.number(),
  /** The reward when the episode had more than formatErrorsAllowed format errors (replaces the formula; checked first). */
  formatError: z.number(),
  /** Format errors tolerated before the formatError reward applies (0: any format error). */
  formatErrorsAllowed: z.number().int().min(0),
})

export type Harness1Weights = z.infer<typeof harness1WeightsSchema>

export const PUBLISHED_HARNESS1_WEIGHTS: Readonly<Harness1Weights> = Object.freeze({
  beta: 2,
  curatedFBeta: 0.7,
  trajectoryRecall: 0.3,
  answerFound: 1,
  answerRecall: 0.8,
  trajectoryAnswerRecall: 0.4,
  answerGap: 0.35,
  turnPenaltyMax: 0.1,
  turnPenaltyStart: 8,
  turnPenaltyEnd: 16,
  diversity: 0.25,
  diversityTarget: 6,
  toolShortfall: 0.08,
  shortfallTarget: 6,
  floor: 0.001,
  emptyCurated: -0.2,
  formatError: -0.5,
  formatErrorsAllowed: 0,
})

/** Published weights overridden by an edit; throws naming any bad key or value. */
export function resolveHarness1Weights(edit: Partial<Record<keyof Harness1Weights, unknown>> = {}): Harness1Weights {
  const parsed = harness1WeightsSchema.safeParse({ ...PUBLISHED_HARNESS1_WEIGHTS, ...edit })
  if (!parsed.success) throw new Error(`Invalid Harness-1 reward weights: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(weights)'}: ${i.message}`).join('; ')}`)
  return parsed.data
}
