import type { MetricInfo } from '../../../preload/contract'

/** A run (or ablation row) as the caveat reads it: its label, whether the lexical stand-in answered, its metric means. */
export interface RankedRow {
  label: string
  lexical: boolean
  metrics: Record<string, number | null | undefined>
}

/** Two lexically answered rows the answer metric ranks one way and the evidence metric the other. */
export interface Inversion {
  answerMetric: string
  evidenceMetric: string
  /** The row the evidence metric ranks higher, and the one below it. */
  better: { label: string; answer: number; evidence: number }
  worse: { label: string; answer: number; evidence: number }
}

const num = (v: number | null | undefined): v is number => typeof v === 'number' && Number.isFinite(v)

/**
 * Where the lexical stand-in's answer metrics (EM, answer F1) rank two rows opposite to the evidence metric
 * the table is judged by. The stand-in answers by token overlap with the committed evidence, so more or
 * better evidence can give it a worse span: there its EM says nothing about the policy, and the page says so.
 * Only answer-level metrics with a better direction count; rows answered by a model are left out.
 */
export function answerInversions(rows: readonly RankedRow[], answerMetrics: readonly Pick<MetricInfo, 'name' | 'level' | 'direction'>[], evidence: Pick<MetricInfo, 'name' | 'level' | 'direction'> | null): Inversion[] {
  if (!evidence || evidence.level === 'answer' || evidence.direction !== 'higher') return []
  const lexical = rows.filter((r) => r.lexical && num(r.metrics[evidence.name]))
  const out: Inversion[] = []
  for (const a of answerMetrics.filter((m) => m.level === 'answer' && m.direction === 'higher')) {
    for (let i = 0; i < lexical.length; i++) {
      for (let j = i + 1; j < lexical.length; j++) {
        const [x, y] = [lexical[i]!, lexical[j]!]
        const [ex, ey, ax, ay] = [x.metrics[evidence.name]!, y.metrics[evidence.name]!, x.metrics[a.name], y.metrics[a.name]]
        if (!num(ax) || !num(ay) || ex === ey || ax === ay || ex > ey === ax > ay) continue
        const [hi, lo] = ex > ey ? [x, y] : [y, x]
        out.push({ answerMetric: a.name, evidenceMetric: evidence.name, better: { label: hi.label, answer: hi.metrics[a.name]!, evidence: hi.metrics[evidence.name]! }, worse: { label: lo.label, answer: lo.metrics[a.name]!, evidence: lo.metrics[evidence.name]! } })
      }
    }
  }
  return out
}
