/** Per-question rows of held-out results for paired comparisons, their seed means, and the benches' number format. */
import type { HeldOutResult } from '../../main/experiments/training'

export type Rows = { questionId: string; variant: null; metrics: Record<string, number | null> }[]

export const fmt = (x: number | null | undefined): string => (x === null || x === undefined || !Number.isFinite(x) ? 'NaN' : x.toFixed(4))

export const rows = (r: HeldOutResult): Rows => Object.entries(r.perQuestion).map(([questionId, metrics]) => ({ questionId, variant: null, metrics }))

/** Seed-averaged rows per question (the metrics every seed has). */
export function seedMean(perSeed: Rows[]): Rows {
  const byQ = new Map<string, Record<string, number[]>>()
  for (const rs of perSeed) {
    for (const r of rs) {
      const acc = byQ.get(r.questionId) ?? {}
      for (const [k, x] of Object.entries(r.metrics)) if (typeof x === 'number') (acc[k] ??= []).push(x)
      byQ.set(r.questionId, acc)
    }
  }
  return [...byQ.entries()].map(([questionId, acc]) => ({
    questionId,
    variant: null,
    metrics: Object.fromEntries(Object.entries(acc).filter(([, xs]) => xs.length === perSeed.length).map(([k, xs]) => [k, xs.reduce((a, b) => a + b, 0) / xs.length])),
  }))
}
