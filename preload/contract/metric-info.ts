import { z } from 'zod'

/** What a metric is measured over: committed sentences, documents, the answer, or the whole episode; `step` for a training step's diagnostics. */
export const MetricLevel = z.enum(['sentence', 'paragraph', 'answer', 'episode', 'step'])
export type MetricLevel = z.infer<typeof MetricLevel>

/** One stored metric as its declaration (main/experiments/metrics/) describes it. */
export const MetricInfoSchema = z.object({
  name: z.string(),
  label: z.string(),
  description: z.string(),
  /** Which way is better; 'none' for descriptive numbers. */
  direction: z.enum(['higher', 'lower', 'none']),
  /** fraction: a share in [0, 1], shown as a percentage; number: a decimal; count: a whole number; ms: a duration. */
  format: z.enum(['fraction', 'number', 'count', 'ms']),
  group: z.string(),
  level: MetricLevel,
  /** Shown by default in run and episode tables. */
  headline: z.boolean(),
})
export type MetricInfo = z.infer<typeof MetricInfoSchema>
export type MetricDirection = MetricInfo['direction']
export type MetricFormat = MetricInfo['format']
