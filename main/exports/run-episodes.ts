/** A run's stored episodes, read page by page through the runs repository (never the whole run at once). */
import { ApiError } from '../../preload/contract'
import type { WorkspaceHandle } from '../corpus/repository'
import { episodeColumns } from '../db/episode-columns'
import { toEpisode } from '../experiments/runs/read-model'
import { runStore, type EpisodeRecord, type RunHead } from '../experiments/runs/store'

const PAGE = 200

/** The run, with how many episodes it has (on questions of `split` only, when given). */
export function runOrThrow(raw: WorkspaceHandle, runId: number, split?: string): RunHead & { episodes: number } {
  const runs = runStore(raw)
  const run = runs.run(runId)
  if (!run) throw new ApiError('NOT_FOUND', `No run with id ${runId} in this workspace`)
  return { ...run, episodes: split === undefined ? runs.episodeCount(runId) : runs.filteredCount(runId, { split }) }
}

/** The split labels of the questions a run's episodes played (what `runs export --split` can name). */
export const runSplits = (raw: WorkspaceHandle, runId: number): string[] => runStore(raw).episodeSplits(runId)

/** The run's episodes in storage order; with `split`, only those on questions of that split label. */
export function* episodeRecords(raw: WorkspaceHandle, runId: number, split?: string): Generator<EpisodeRecord> {
  const runs = runStore(raw)
  for (let offset = 0; ; offset += PAGE) {
    const page = split === undefined ? runs.episodePage(runId, offset, PAGE) : runs.filteredPage(runId, { split }, offset, PAGE)
    yield* page
    if (page.length < PAGE) return
  }
}

/** Every metric name the run's episodes store, sorted (the union: episodes may differ). */
export function metricNamesOf(raw: WorkspaceHandle, runId: number): string[] {
  const names = new Set<string>()
  for (const r of episodeRecords(raw, runId)) for (const k of Object.keys(episodeColumns.metrics.read(r.metrics_json))) names.add(k)
  return [...names].sort()
}

/** The reward an episode carries: the training reward of rollouts, Harness-1's reward of evaluations, or null. */
export function rewardOf(metrics: Record<string, number | null>): number | null {
  return metrics['train.reward'] ?? metrics['reward.total'] ?? null
}

/** One per-question result: the columns of the CSV and the fields of the JSONL. */
export function resultOf(r: EpisodeRecord): {
  episodeId: number
  runId: number
  questionId: number | null
  trainStep: number | null
  seed: number
  question: string
  answer: string | null
  gold: string[]
  turns: number
  formatErrors: number
  ms: number
  endReason: string
  metrics: Record<string, number | null>
} {
  // The runs pages' episode row, renamed and in the exports' column order.
  const { id, runId, questionId, trainStep, question, answer, gold, turns, formatErrors, ms, endReason, metrics } = toEpisode(r)
  return { episodeId: id, runId, questionId, trainStep, seed: r.seed, question, answer, gold, turns, formatErrors, ms, endReason, metrics }
}
