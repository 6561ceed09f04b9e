/**
 * One range of a stored question set: the questions an evaluation, a training run's train or held-out
 * part, or an ablation reads, in id order. Every run config names its questions with this schema.
 */
import { z } from 'zod'

export const QuestionRange = z.strictObject({
  questionSetId: z.number().int().min(1),
  /** A stored split of the set (train / dev / test); offset and limit then apply within it. */
  split: z.string().trim().min(1).max(64).optional(),
  offset: z.number().int().min(0).default(0),
  limit: z.number().int().min(1).max(100_000),
})
export type QuestionRange = z.infer<typeof QuestionRange>
export type QuestionRangeInput = z.input<typeof QuestionRange>

/** The range's fields with its limit's default (and a tighter bound where a caller has one). */
export const questionRangeShape = (limit: { default: number; max?: number }) => ({
  ...QuestionRange.shape,
  limit: QuestionRange.shape.limit.max(limit.max ?? 100_000).default(limit.default),
})
