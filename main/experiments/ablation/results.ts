/**
 * An ablation's results, computed once when it finishes from its cells' stored episodes and training
 * steps and then stored with it: every metric per row (catalogue order), the paired difference against
 * the base with its 95% bootstrap CI, a plain reason for every empty cell, the per-episode values for the
 * scatter, the tool mix and the training rows' learning curves.
 */
import type SQLite from 'better-sqlite3'
import type { AblationCell, AblationConfig, AblationResults, AblationRowResult, DifferenceEstimate, ResolvedRow } from '../../../preload/contract'
import { metricCatalog } from '../metrics'
import { runStore } from '../runs/store'
import { episodeColumns } from '../../db/episode-columns'
import { TrainingStore } from '../training'
import { episodeExtras, EXTRA_METRICS } from './episode-extras'
import { alignKeys, estimate, pairedDifference, type Estimate } from './paired'
import { ablationStore, type AblationCellRecord } from './store'

const RESAMPLES = 2000
const CONFIDENCE = 0.95
/** Not shown as results: descriptive bookkeeping of the scorer. */
const HIDDEN = new Set(['sp.allGold'])

type RowEpisodes = AblationRowResult['episodes']

function rowEpisodes(raw: SQLite.Database, cells: readonly AblationCellRecord[], questions: Map<string, { questionId: number; seed: number; question: string }>): { episodes: RowEpisodes; toolMix: Record<string, number> } {
  const store = ablationStore(raw)
  const runs = runStore(raw)
  const episodes: RowEpisodes = {}
  const toolMix: Record<string, number> = {}
  for (const cell of cells) {
    if (cell.run_id === null) continue
    for (const e of store.episodes(cell.run_id)) {
      const key = `${e.question_id}:${cell.seed}`
      if (episodes[key]) continue
      const extras = episodeExtras(e, runs.episodeSteps(e.id))
      episodes[key] = { episodeId: e.id, metrics: { ...episodeColumns.metrics.read(e.metrics_json), ...extras.metrics } }
      for (const [tool, n] of Object.entries(extras.tools)) toolMix[tool] = (toolMix[tool] ?? 0) + n
      if (!questions.has(key)) questions.set(key, { questionId: e.question_id, seed: cell.seed, question: e.question })
    }
  }
  return { episodes, toolMix }
}

function curvesOf(raw: SQLite.Database, cells: readonly AblationCellRecord[]): AblationRowResult['curves'] {
  const store = new TrainingStore(raw)
  return cells.flatMap((cell) => {
    if (cell.train_run_id === null) return []
    const points = store.diagnostics(cell.train_run_id).map(({ step, diagnostics }) => {
      const d = diagnostics as { reward?: number; heldOut?: Record<string, number | null> | null }
      return { step, reward: typeof d.reward === 'number' ? d.reward : null, heldOut: d.heldOut ?? null }
    })
    return [{ seed: cell.seed, runId: cell.train_run_id, points }]
  })
}

const valuesOf = (episodes: RowEpisodes, metric: string): Map<string, number | null> =>
  new Map(Object.entries(episodes).map(([k, e]) => [k, Object.hasOwn(e.metrics, metric) ? (e.metrics[metric] ?? null) : null]))

const measures = (episodes: RowEpisodes, metric: string): boolean => Object.values(episodes).some((e) => e.metrics[metric] !== null && e.metrics[metric] !== undefined)

const EMPTY: Estimate = { mean: null, lower: null, upper: null, count: 0 }

export function computeResults(raw: SQLite.Database, ablationId: number, config: AblationConfig, resolved: readonly ResolvedRow[]): AblationResults {
  const cells = ablationStore(raw).cells(ablationId)
  const questions = new Map<string, { questionId: number; seed: number; question: string }>()
  const perRow = resolved.map((row) => {
    const mine = cells.filter((c) => c.row === row.index)
    const failed = mine.find((c) => c.status === 'failed')
    return { row, cells: mine, error: failed ? `Seed ${failed.seed}: ${failed.error ?? 'failed'}` : null, ...rowEpisodes(raw, mine, questions) }
  })
  const base = perRow[0]!
  const baseKeys = Object.keys(base.episodes)
  const present = new Set(perRow.flatMap((r) => Object.values(r.episodes).flatMap((e) => Object.keys(e.metrics))))
  const metrics = metricCatalog(present).map((m) => m.name).filter((n) => present.has(n) && !HIDDEN.has(n))
  for (const extra of EXTRA_METRICS) if (!metrics.includes(extra)) metrics.push(extra)
  const options = { resamples: RESAMPLES, confidence: CONFIDENCE, seed: config.base.seeds[0] ?? 0 }

  const rows: AblationRowResult[] = perRow.map(({ row, cells: mine, error, episodes, toolMix }) => {
    const keys = Object.keys(episodes)
    const alignment = alignKeys(baseKeys, keys)
    const out: Record<string, AblationCell> = {}
    for (const metric of metrics) {
      const cell = (reason: string | null, value: Estimate = EMPTY, difference: DifferenceEstimate = { ...EMPTY, excludesZero: false }): AblationCell => ({ value, difference, reason })
      if (row.unavailable) out[metric] = cell(`Unavailable: ${row.unavailable}`)
      else if (keys.length === 0) out[metric] = cell(error ?? 'No episodes')
      else if (!measures(episodes, metric)) out[metric] = cell(`Not measured by ${row.environment} with this policy`)
      else {
        const value = estimate(valuesOf(episodes, metric), keys, options)
        if (row.index === 0) out[metric] = cell(null, value)
        else if (!measures(base.episodes, metric)) out[metric] = cell(`The base (${base.row.environment}) does not measure it: no difference`, value)
        else {
          const difference = pairedDifference(valuesOf(base.episodes, metric), valuesOf(episodes, metric), alignment.paired, options)
          out[metric] = cell(difference.count === 0 ? 'No paired questions with the base' : null, value, difference)
        }
      }
    }
    return {
      index: row.index,
      label: row.label,
      group: row.group,
      kind: row.kind,
      environment: row.environment,
      unavailable: row.unavailable,
      error,
      runIds: mine.flatMap((c) => (c.run_id === null ? [] : [c.run_id])),
      trainRunIds: mine.flatMap((c) => (c.train_run_id === null ? [] : [c.train_run_id])),
      missing: { count: row.unavailable ? 0 : alignment.missing.length, questions: row.unavailable ? [] : alignment.missing.slice(0, 200) },
      cells: out,
      episodes,
      toolMix,
      curves: curvesOf(raw, mine),
    }
  })
  const keys = baseKeys.map((key) => ({ key, ...questions.get(key)! }))
  return { metrics, keys, rows, bootstrap: { resamples: RESAMPLES, confidence: CONFIDENCE, seed: options.seed, unit: 'questions (each question’s seeds averaged, then questions resampled)' } }
}
