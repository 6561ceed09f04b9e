/**
 * Training runs in the workspace database. A completed step writes its rollouts (compactly: actions,
 * log-probabilities, credit and advantages, deflated; the full steps are replayed on demand), its
 * diagnostics and the checkpoint to resume from, all in one transaction: a crash never leaves half a step.
 */
import type SQLite from 'better-sqlite3'
import { sql } from 'kysely'
import { workspaceQuery } from '../../db/query'
import type { z } from 'zod'
import { runColumns, TrainingCheckpointSchema } from '../runs/run-columns'
import { encodeSteps, type CompactStep } from '../runs/rollout-codec'
import type { PlayedRollout } from './rollouts'

export type TrainingCheckpoint = z.infer<typeof TrainingCheckpointSchema>
/** A stored step's diagnostics as read back: loose (each learner adds its own), the loop's held-out fields typed. */
export type StoredStepDiagnostics = ReturnType<typeof runColumns.diagnostics.read>


type EpisodeInsert = { run: number; question: number; text: string; seed: number; answer: string; gold: string; outcome: string; metrics: string; turns: number; formatErrors: number; ms: number; step: number; steps: Buffer }

const insertRollout = workspaceQuery((db, p: EpisodeInsert) =>
  db.insertInto('episodes').values({
    run_id: p.run, question_id: p.question, question: p.text, seed: p.seed, answer: p.answer, gold_json: p.gold, outcome_json: p.outcome,
    metrics_json: p.metrics, turns: p.turns, format_errors: p.formatErrors, ms: p.ms, train_step: p.step, steps_blob: p.steps,
  }),
)
const insertStep = workspaceQuery((db, p: { run: number; step: number; diagnostics: string; checkpoint: string; at: string }) =>
  db.insertInto('train_steps').values({ run_id: p.run, step: p.step, diagnostics_json: p.diagnostics, checkpoint_json: p.checkpoint, created_at: p.at }),
)
const lastCheckpoint = workspaceQuery((db, p: { run: number }) => db.selectFrom('train_steps').select('checkpoint_json').where('run_id', '=', p.run).orderBy('step', 'desc').limit(1))
const diagnostics = workspaceQuery((db, p: { run: number }) => db.selectFrom('train_steps').select(['step', 'diagnostics_json']).where('run_id', '=', p.run).orderBy('step'))
const bytesPerRollout = workspaceQuery((db, p: { run: number }) =>
  db
    .selectFrom('episodes')
    .select(sql<number | null>`avg(length(outcome_json) + length(metrics_json) + length(gold_json) + length(question) + coalesce(length(steps_blob), 0) + 64)`.as('bytes'))
    .where('run_id', '=', p.run)
    .where('train_step', 'is not', null),
)
const stepRange = workspaceQuery((db, p: { run: number }) => db.selectFrom('train_steps').select((eb) => [eb.fn.max('step').as('last'), eb.fn.countAll<number>().as('n')]).where('run_id', '=', p.run))
const checkpointAt = workspaceQuery((db, p: { run: number; step: number }) => db.selectFrom('train_steps').select('checkpoint_json').where('run_id', '=', p.run).where('step', '=', p.step))

export class TrainingStore {
  constructor(private readonly raw: SQLite.Database) {}

  /** Rollouts, diagnostics and checkpoint of one completed step, atomically. */
  saveStep(runId: number, step: number, rollouts: { rollout: PlayedRollout; questionId: number; stepAdvantages: number[] }[], diagnostics: unknown, checkpoint: TrainingCheckpoint): void {
    const insert = insertRollout(this.raw)
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
        insert.run({
          run: runId, question: questionId, text: t.question.question, seed: t.seed, answer: t.answer ?? '',
          gold: JSON.stringify({ answers: t.question.answers, supportingFacts: t.question.supportingFacts, supportingDocs: t.question.supportingDocs }),
          outcome: JSON.stringify(t.outcome), metrics: JSON.stringify(metrics), turns: t.outcome.turns, formatErrors: t.outcome.formatErrors, ms: t.ms, step, steps: encodeSteps(steps),
        })
      }
      insertStep(this.raw).run({ run: runId, step, diagnostics: JSON.stringify(diagnostics), checkpoint: JSON.stringify(checkpoint), at: new Date().toISOString() })
    }).immediate()
  }

  /** The last completed step's checkpoint, or null before the first. */
  lastCheckpoint(runId: number): TrainingCheckpoint | null {
    const row = lastCheckpoint(this.raw).value({ run: runId })
    return runColumns.checkpoint.readNullable(row)
  }

  diagnostics(runId: number): { step: number; diagnostics: StoredStepDiagnostics }[] {
    return diagnostics(this.raw).all({ run: runId }).map((r) => ({ step: r.step, diagnostics: runColumns.diagnostics.read(r.diagnostics_json) }))
  }

  /** Average stored bytes per rollout of a run (the storage budget is 20 KB). */
  bytesPerRollout(runId: number): number {
    return bytesPerRollout(this.raw).value({ run: runId }) ?? 0
  }
}

/** The checkpoint of one completed step, or the last when `step` is left out; a plain error names the steps there are. */
export function checkpointOf(raw: SQLite.Database, runId: number, step?: number): TrainingCheckpoint {
  const last = stepRange(raw).get({ run: runId })!
  if (last.last === null) throw new Error(`Training run #${runId} has no completed step (no checkpoint yet)`)
  const row = checkpointAt(raw).value({ run: runId, step: step ?? last.last })
  if (!row) throw new Error(`Training run #${runId} has no step ${step}: its checkpoints are steps 0..${last.last}`)
  return runColumns.checkpoint.read(row)
}
