import type { WorkspaceHandle } from '../../corpus/repository'
import { comparePaired, type PairedComparison } from '../../eval'
import { episodeColumns } from '../../db/episode-columns'
import { runStore } from './store'

type Records = { questionId: string; variant: null; metrics: Record<string, number | null> }[]

/**
 * Per-question records of a run, keyed by question (runs compared on the same split pair up by
 * question). A training run compares by its held-out evaluation (the greedy head after training),
 * never by its training rollouts, so it pairs with an evaluation run of the same held-out questions.
 */
function recordsOf(raw: WorkspaceHandle, runId: number): { records: Records; note: string | null } {
  const store = runStore(raw)
  if (store.run(runId)?.kind === 'train') {
    const held = store.trainHeldOut(runId)
    if (!held) return { records: [], note: `Training run #${runId} has no held-out evaluation yet: nothing to pair` }
    return {
      records: Object.entries(held.perQuestion).map(([questionId, metrics]) => ({ questionId, variant: null, metrics })),
      note: `Training run #${runId}: its held-out evaluation (${held.at}), not its training rollouts`,
    }
  }
  return { records: episodeRecords(raw, runId), note: null }
}

function episodeRecords(raw: WorkspaceHandle, runId: number): Records {
  const rows = runStore(raw).questionMetrics(runId)
  const seen = new Set<number>()
  const out: { questionId: string; variant: null; metrics: Record<string, number | null> }[] = []
  for (const r of rows) {
    // One episode per question: the first if a run evaluated a question twice.
    if (r.question_id === null || seen.has(r.question_id)) continue
    seen.add(r.question_id)
    out.push({ questionId: String(r.question_id), variant: null, metrics: episodeColumns.metrics.read(r.metrics_json) })
  }
  return out
}

export interface RunComparison extends PairedComparison {
  runId: number
  /** What was paired when it is not plain episodes (a training run's held-out results), or why nothing paired. */
  note: string | null
}

/** Each candidate run against the baseline on one metric: paired mean difference with a bootstrap CI, and wins/ties/losses. */
export function compareRuns(raw: WorkspaceHandle, baselineRunId: number, runIds: readonly number[], metric: string, seed = 1): RunComparison[] {
  const baseline = recordsOf(raw, baselineRunId)
  return runIds.map((runId) => {
    const candidate = recordsOf(raw, runId)
    const c = comparePaired(baseline.records, candidate.records, metric, { seed })
    const notes = [baseline.note, candidate.note].filter((n): n is string => n !== null)
    if (c.count === 0) notes.push(`No question has "${metric}" in both run #${baselineRunId} and run #${runId}: they were not run on the same questions, or one does not store the metric`)
    return { runId, ...c, note: notes.length ? notes.join('. ') : null }
  })
}

/** Metric names present in any episode of these runs, for the metric picker. */
export function metricNames(raw: WorkspaceHandle, runIds: readonly number[]): string[] {
  const names = new Set<string>()
  const runs = runStore(raw)
  for (const id of runIds) {
    if (runs.run(id)?.kind === 'train') {
      for (const m of Object.values(runs.trainHeldOut(id)?.perQuestion ?? {})) for (const k of Object.keys(m)) names.add(k)
      continue
    }
    const row = runs.anyEpisodeMetrics(id)
    if (row) for (const k of Object.keys(episodeColumns.metrics.read(row))) names.add(k)
  }
  return [...names].sort()
}
