import type { WorkspaceHandle } from '../corpus/repository'
import { comparePaired, type PairedComparison } from '../eval'
import { runStore } from './store'

/** Per-question records of a run, keyed by question (runs compared on the same split pair up by question). */
function recordsOf(raw: WorkspaceHandle, runId: number) {
  const rows = runStore(raw).questionMetrics(runId)
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
export function compareRuns(raw: WorkspaceHandle, baselineRunId: number, runIds: readonly number[], metric: string, seed = 1): RunComparison[] {
  const baseline = recordsOf(raw, baselineRunId)
  return runIds.map((runId) => ({ runId, ...comparePaired(baseline, recordsOf(raw, runId), metric, { seed }) }))
}

/** Metric names present in any episode of these runs, for the metric picker. */
export function metricNames(raw: WorkspaceHandle, runIds: readonly number[]): string[] {
  const names = new Set<string>()
  const runs = runStore(raw)
  for (const id of runIds) {
    const row = runs.anyEpisodeMetrics(id)
    if (row) for (const k of Object.keys(JSON.parse(row) as object)) names.add(k)
  }
  return [...names].sort()
}
