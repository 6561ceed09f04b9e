/**
 * Training runs in the workspace database. A completed step writes its rollouts (compactly: actions,
 * log-probabilities, credit and advantages, deflated; the full steps are replayed on demand), its
 * diagnostics and the checkpoint to resume from, all in one transaction: a crash never leaves half a step.
 */
import { deflateSync, inflateSync } from 'node:zlib'
import type SQLite from 'better-sqlite3'
import type { Action } from '../../harness'
import type { PlayedRollout } from './rollouts'

/** One stored rollout step: enough to replay the episode exactly and to show its credit. */
export interface CompactStep {
  action: Action
  logprob: number | null
  /** The chosen candidate's index and the candidate count (the head's decision). */
  index: number | null
  candidates: number | null
  credit: { total: number; frontier: number; enablement: number; gain: number }
  advantage: number
}

export interface TrainingCheckpoint {
  step: number
  head: unknown
  adam: unknown
  /** GGUF runs: the weights after this step (the optimiser state lives in the trainer process only). */
  gguf?: { modelPath: string; sha256: string }
}

export const encodeSteps = (steps: CompactStep[]): Buffer => deflateSync(Buffer.from(JSON.stringify(steps)))
export const decodeSteps = (blob: Uint8Array): CompactStep[] => JSON.parse(inflateSync(blob).toString('utf8')) as CompactStep[]

export class TrainingStore {
  constructor(private readonly raw: SQLite.Database) {}

  /** Rollouts, diagnostics and checkpoint of one completed step, atomically. */
  saveStep(runId: number, step: number, rollouts: { rollout: PlayedRollout; questionId: number; stepAdvantages: number[] }[], diagnostics: unknown, checkpoint: TrainingCheckpoint): void {
    const insert = this.raw.prepare(
      `insert into episodes (run_id, question_id, question, seed, answer, gold_json, outcome_json, metrics_json, turns, format_errors, ms, train_step, steps_blob)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    this.raw.transaction(() => {
      for (const { rollout, questionId, stepAdvantages } of rollouts) {
        const t = rollout.trajectory
        const byStep = new Map(rollout.records.map((r) => [r.t, r]))
        const steps: CompactStep[] = t.steps.map((s, i) => {
          const c = rollout.credit[i]
          const trainer = s.decision.trainer as { index?: number; candidates?: number } | undefined
          return {
            action: s.action,
            logprob: s.decision.logprob ?? byStep.get(i)?.logp ?? null,
            index: trainer?.index ?? null,
            candidates: trainer?.candidates ?? null,
            credit: { total: c?.total ?? 0, frontier: c?.frontier ?? 0, enablement: c?.enablement ?? 0, gain: c?.gain ?? 0 },
            advantage: stepAdvantages[i] ?? 0,
          }
        })
        const metrics = { ...rollout.metrics, 'train.reward': rollout.reward.total, ...Object.fromEntries(Object.entries(rollout.reward.components).map(([k, v]) => [`train.reward.${k}`, v])) }
        insert.run(
          runId, questionId, t.question.question, t.seed, t.answer ?? '',
          JSON.stringify({ answers: t.question.answers, supportingFacts: t.question.supportingFacts, supportingDocs: t.question.supportingDocs }),
          JSON.stringify(t.outcome), JSON.stringify(metrics), t.outcome.turns, t.outcome.formatErrors, t.ms, step, encodeSteps(steps),
        )
      }
      this.raw
        .prepare('insert into train_steps (run_id, step, diagnostics_json, checkpoint_json, created_at) values (?, ?, ?, ?, ?)')
        .run(runId, step, JSON.stringify(diagnostics), JSON.stringify(checkpoint), new Date().toISOString())
    }).immediate()
  }

  /** The last completed step's checkpoint, or null before the first. */
  lastCheckpoint(runId: number): TrainingCheckpoint | null {
    const row = this.raw.prepare('select checkpoint_json from train_steps where run_id = ? order by step desc limit 1').pluck().get(runId) as string | undefined
    return row ? (JSON.parse(row) as TrainingCheckpoint) : null
  }

  diagnostics(runId: number): { step: number; diagnostics: unknown }[] {
    const rows = this.raw.prepare('select step, diagnostics_json from train_steps where run_id = ? order by step').all(runId) as { step: number; diagnostics_json: string }[]
    return rows.map((r) => ({ step: r.step, diagnostics: JSON.parse(r.diagnostics_json) as unknown }))
  }

  /** Average stored bytes per rollout of a run (the storage budget is 20 KB). */
  bytesPerRollout(runId: number): number {
    const r = this.raw
      .prepare(
        `select avg(length(outcome_json) + length(metrics_json) + length(gold_json) + length(question) + coalesce(length(steps_blob), 0) + 64) as bytes
         from episodes where run_id = ? and train_step is not null`,
      )
      .get(runId) as { bytes: number | null }
    return r.bytes ?? 0
  }
}

/** The checkpoint of one completed step, or the last when `step` is left out; a plain error names the steps there are. */
export function checkpointOf(raw: SQLite.Database, runId: number, step?: number): TrainingCheckpoint {
  const last = raw.prepare('select max(step) as last, count(*) as n from train_steps where run_id = ?').get(runId) as { last: number | null; n: number }
  if (last.last === null) throw new Error(`Training run #${runId} has no completed step (no checkpoint yet)`)
  const row = raw.prepare('select checkpoint_json from train_steps where run_id = ? and step = ?').pluck().get(runId, step ?? last.last) as string | undefined
  if (!row) throw new Error(`Training run #${runId} has no step ${step}: its checkpoints are steps 0..${last.last}`)
  return JSON.parse(row) as TrainingCheckpoint
}
