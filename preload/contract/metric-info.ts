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

/** Gold levels from finest to coarsest: a result is judged at the finest level its questions were measured at. */
const JUDGED_LEVELS: readonly MetricLevel[] = ['sentence', 'paragraph', 'answer']

/**
 * The metric a result is judged by unless one is asked for, the way training judges a run: the
 * headline metric of the finest gold level measured (SP F1 on sentence gold, paragraph F1 on
 * paragraph gold, answer F1 where only answers are known). One rule for the default result column,
 * `compare`'s metric and the first chart, so defaults never disagree with `train`'s headline.
 */
export function judgedMetric(catalogue: readonly MetricInfo[], measured: (name: string) => boolean): string | null {
  for (const level of JUDGED_LEVELS) {
    const hit = catalogue.find((m) => m.headline && m.level === level && m.direction === 'higher' && measured(m.name))
    if (hit) return hit.name
  }
  return null
}
