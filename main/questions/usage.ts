/**
 * What the questions layer reads about runs: which runs used a set's splits (they freeze them) and a
 * question's episodes. Runs live above this layer, so main/experiments/runs/split-usage-store.ts implements this and
 * the callers (API handlers) pass it in.
 */
export interface SplitUseRow {
  runId: number
  name: string
  kind: string
  split: string
}

export interface QuestionEpisodeRow {
  episodeId: number
  runId: number
  runName: string
  runKind: string
  trainStep: number | null
  answer: string | null
  turns: number
  metricsJson: string
}

export interface QuestionUsage {
  /** Runs that used a split of the set, by run id. */
  usedBy(setId: number): SplitUseRow[]
  /** The question's episodes, newest run first. */
  episodes(questionId: number, limit: number): QuestionEpisodeRow[]
}
