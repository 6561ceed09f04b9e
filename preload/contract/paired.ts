/**
 * The paired-difference shapes, declared once for every route that compares two sides per question
 * (runs.compare, a training run's held-out before/after, ablation cells, findings arms). A route names
 * its two sides' means in its own words on top of these; the statistics keep one name everywhere.
 */
import { z } from 'zod'

/** A mean over questions with its bootstrap CI; `count` is the questions it rests on. */
export const EstimateSchema = z.object({ mean: z.number().nullable(), lower: z.number().nullable(), upper: z.number().nullable(), count: z.number() })
export type Estimate = z.infer<typeof EstimateSchema>

/** An estimate of a paired difference (row − base), and whether its CI leaves zero out. */
export const DifferenceEstimateSchema = EstimateSchema.extend({ excludesZero: z.boolean() })
export type DifferenceEstimate = z.infer<typeof DifferenceEstimateSchema>

/** Candidate − baseline over the questions both sides have: the mean difference, its bootstrap CI, and wins / ties / losses. */
export const PairedDifferenceSchema = z.object({
  count: z.number(),
  meanDifference: z.number().nullable(),
  lower: z.number().nullable(),
  upper: z.number().nullable(),
  wins: z.number(),
  ties: z.number(),
  losses: z.number(),
})
export type PairedDifference = z.infer<typeof PairedDifferenceSchema>
