import type SQLite from 'better-sqlite3'
import { comparePaired, type PairedComparison } from '../eval'

interface EpisodeMetricsRow {
  question_id: number | null
  metrics_json: string
}

/** Per-question records of a run, keyed by question (runs compared on the same split pair up by question). */
function recordsOf(raw: SQLite.Database, runId: number) {
  const rows = raw.prepare('select question_id, metrics_json from episodes where run_id = ? and question_id is not null order by id').all(runId) as EpisodeMetricsRow[]
  const seen = new Set<number>()
  const out: { questionId: string; variant: null; metrics: Record<string, number | null> }[] = []
  for (const r of rows) {
    // One episode per question: the first if a run evaluated a question twice.
    if (r.question_id === null || seen.has(r.question_id)) continue
    seen.add(r.question_id)
    out.push({ questionId: String(r.question_id), variant: null, metrics: JSON.parse(r.metrics_json) as Record<string, number | null> })
  }
  return out
}

export interface RunComparison extends PairedComparison {
  runId: number
}

/** Each candidate run against the baseline on one metric: paired mean difference with a bootstrap CI, and wins/ties/losses. */
export function compareRuns(raw: SQLite.Database, baselineRunId: number, runIds: readonly number[], metric: string, seed = 1): RunComparison[] {
  const baseline = recordsOf(raw, baselineRunId)
  return runIds.map((runId) => ({ runId, ...comparePaired(baseline, recordsOf(raw, runId), metric, { seed }) }))
}

/** Metric names present in any episode of these runs, for the metric picker. */
export function metricNames(raw: SQLite.Database, runIds: readonly number[]): string[] {
  const names = new Set<string>()
  for (const id of runIds) {
    const row = raw.prepare('select metrics_json from episodes where run_id = ? limit 1').pluck().get(id) as string | undefined
    if (row) for (const k of Object.keys(JSON.parse(row) as object)) names.add(k)
  }
  return [...names].sort()
}
