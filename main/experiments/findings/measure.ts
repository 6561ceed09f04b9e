/**
 * Reading a claim's numbers from its ablation: an arm's per-(question:seed) values of a metric, each arm's
 * mean with its paired difference against a reference arm, per-step training diagnostics averaged over
 * seeds, per-group retrieval-equivalence of training rollouts, distinct tools of held-out episodes and
 * what the verdict's preconditions read of a compared arm.
 */
import type SQLite from 'better-sqlite3'
import type { AblationResults, AblationRowResult, ClaimResult, FindingsSeries } from '../../../preload/contract'
import { actionType } from '../ablation/episode-extras'
import { estimate, type KeyedValues } from '../ablation/paired'
import { runStore } from '../runs/store'
import { TrainingStore } from '../training'
import { findingsStore } from './store'
import type { ComparedArm } from './claims/types'
import { BOOTSTRAP, pairedEffect, type ArmEvidence, type Preconditions } from './verdict'

export function row(results: AblationResults, label: string): AblationRowResult {
  const r = results.rows.find((x) => x.label === label)
  if (!r) throw new Error(`The experiment has no row "${label}"`)
  return r
}

/** A row's value of a metric per `question:seed` key (missing metric: null). */
export function metricValues(r: AblationRowResult, metric: string): Map<string, number | null> {
  return new Map(Object.entries(r.episodes).map(([k, e]) => [k, e.metrics[metric] ?? null]))
}

/** Each arm's mean over questions (seeds averaged) and its paired difference against the reference arm. */
export function armTable(arms: { label: string; values: KeyedValues }[], reference: string): ClaimResult['arms'] {
  const ref = arms.find((a) => a.label === reference)!.values
  return arms.map((a) => ({
    label: a.label,
    value: estimate(a.values, [...a.values.keys()], BOOTSTRAP),
    difference: a.label === reference ? null : pairedEffect(ref, a.values),
  }))
}

type Diagnostics = Record<string, unknown>

/** One line per arm: a diagnostic per training step, averaged over the arm's seeds. */
export function stepLine(raw: SQLite.Database, r: AblationRowResult, label: string, pick: (d: Diagnostics) => number | null): FindingsSeries['lines'][number] {
  const byStep = new Map<number, number[]>()
  const store = new TrainingStore(raw)
  for (const runId of r.trainRunIds) {
    for (const { step, diagnostics } of store.diagnostics(runId)) {
      const v = pick(diagnostics as Diagnostics)
      if (v === null || !Number.isFinite(v)) continue
      byStep.set(step, [...(byStep.get(step) ?? []), v])
    }
  }
  return { label, points: [...byStep.entries()].sort((a, b) => a[0] - b[0]).map(([x, ys]) => ({ x, y: ys.reduce((s, v) => s + v, 0) / ys.length })) }
}

export const numberAt = (key: string) => (d: Diagnostics): number | null => (typeof d[key] === 'number' ? (d[key] as number) : null)

/**
 * Per training group (question at a step, per seed) from step `fromStep` on: whether its rollouts span
 * more than one retrieval-equivalence class (distinct accumulated evidence sets). Keyed
 * `question@step:seed`, so arms with the same data order and seeds pair group by group.
 */
export function spanningGroups(raw: SQLite.Database, r: AblationRowResult, fromStep: number): Map<string, number> {
  const out = new Map<string, number>()
  for (const curve of r.curves) {
    const groups = new Map<string, Set<string>>()
    for (const e of findingsStore(raw).trainingEvidence(curve.runId)) {
      if (e.step < fromStep) continue
      const key = `${e.questionId}@${e.step}:${curve.seed}`
      const set = groups.get(key) ?? new Set<string>()
      set.add([...e.evidence].sort((a, b) => a - b).join(','))
      groups.set(key, set)
    }
    for (const [k, classes] of groups) out.set(k, classes.size > 1 ? 1 : 0)
  }
  return out
}

/** Distinct tools (end_search excluded) per held-out episode, keyed `question:seed`. */
export function distinctTools(raw: SQLite.Database, r: AblationRowResult): Map<string, number> {
  const runs = runStore(raw)
  const out = new Map<string, number>()
  for (const [key, e] of Object.entries(r.episodes)) out.set(key, new Set(runs.episodeSteps(e.episodeId).map(actionType).filter((t) => t !== 'end_search')).size)
  return out
}

/**
 * A compared arm as the precondition checker reads it: the declared behaviour of each of its held-out
 * episodes (turns, evidence count, distinct tools) and the declared training diagnostic per step.
 */
export function armEvidence(raw: SQLite.Database, results: AblationResults, arm: ComparedArm, pre: Preconditions): ArmEvidence {
  const r = row(results, arm.row)
  const runs = runStore(raw)
  const behaviour: ArmEvidence['behaviour'] = {}
  const episodes = Object.values(r.episodes)
  for (const b of pre.collapse) {
    if (b === 'turns') behaviour.turns = episodes.map((e) => runs.episodeSteps(e.episodeId).length)
    else if (b === 'tools') behaviour.tools = [...distinctTools(raw, r).values()]
    else behaviour.evidence = episodes.map((e) => e.metrics['evidence.count']).filter((v): v is number => typeof v === 'number')
  }
  const trend = pre.moves ? stepLine(raw, r, arm.label, numberAt(pre.moves.diagnostic)).points.map((p) => p.y) : []
  return { label: arm.label, values: arm.values, behaviour, trend }
}
