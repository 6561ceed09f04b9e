import type SQLite from 'better-sqlite3'
import type { Trajectory } from '../harness'
import type { EpisodeMetrics } from './score'

/** Runs and episodes in the workspace database; each episode is written whole, in one transaction. */
export class RunStore {
  constructor(private readonly raw: SQLite.Database) {}

  createRun(run: { kind: string; name: string; config: unknown; seed: number; appVersion: string; corpusSignature: string; jobId: string | null }): number {
    const row = this.raw
      .prepare(
        `insert into runs (kind, name, status, config_json, seed, app_version, corpus_signature, job_id, created_at)
         values (?, ?, 'running', ?, ?, ?, ?, ?, ?) returning id`,
      )
      .get(run.kind, run.name, JSON.stringify(run.config), run.seed, run.appVersion, run.corpusSignature, run.jobId, new Date().toISOString()) as { id: number }
    return row.id
  }

  /** Questions of the run already stored (a resumed run skips them). */
  doneQuestions(runId: number): Set<string> {
    const rows = this.raw.prepare('select question_id, seed from episodes where run_id = ?').all(runId) as { question_id: number | null; seed: number }[]
    return new Set(rows.map((r) => `${r.question_id}:${r.seed}`))
  }

  /** Stores a trajectory whole (every step with its snapshot), in one transaction. */
  saveEpisode(runId: number, questionId: number | null, e: Trajectory): number {
    return this.raw.transaction(() => {
      const { id } = this.raw
        .prepare(
          `insert into episodes (run_id, question_id, question, seed, answer, gold_json, outcome_json, metrics_json, turns, format_errors, ms, initial_snapshot_json)
           values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) returning id`,
        )
        .get(
          runId, questionId, e.question.question, e.seed, e.answer ?? '',
          JSON.stringify({ answers: e.question.answers, supportingFacts: e.question.supportingFacts, supportingDocs: e.question.supportingDocs }),
          JSON.stringify(e.outcome), JSON.stringify(e.metrics), e.outcome.turns, e.outcome.formatErrors, e.ms,
          e.initialSnapshot === null || e.initialSnapshot === undefined ? null : JSON.stringify(e.initialSnapshot),
        ) as { id: number }
      const step = this.raw.prepare(
        `insert into episode_steps (episode_id, t, observation_text, actions_json, previews_json, action_json, decision_json, info_json, snapshot_json, ms)
         values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      for (const s of e.steps) {
        step.run(id, s.t, s.observationText, JSON.stringify(s.actions), s.previews ? JSON.stringify(s.previews) : null, JSON.stringify(s.action), JSON.stringify(s.decision), JSON.stringify(s.info), JSON.stringify(s.snapshot ?? null), s.ms)
      }
      return id
    })()
  }

  finishRun(runId: number, status: 'done' | 'failed' | 'cancelled', summary: unknown, error?: string): void {
    this.raw.prepare('update runs set status = ?, summary_json = ?, error = ?, finished_at = ? where id = ?').run(status, JSON.stringify(summary), error ?? null, new Date().toISOString(), runId)
  }

  metricsOf(runId: number): { questionId: string; metrics: EpisodeMetrics }[] {
    const rows = this.raw.prepare('select question_id, seed, metrics_json from episodes where run_id = ? order by id').all(runId) as { question_id: number | null; seed: number; metrics_json: string }[]
    return rows.map((r) => ({ questionId: `${r.question_id}:${r.seed}`, metrics: JSON.parse(r.metrics_json) as EpisodeMetrics }))
  }
}
