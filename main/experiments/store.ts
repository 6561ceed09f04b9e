/**
 * The runs repository: runs, their episodes and the episodes' steps in the workspace database, typed
 * against main/db/schema.ts. Every SQL statement on these tables outside training/ is here; the
 * readers (queries.ts), comparisons (compare.ts) and validators (validate.ts) go through it.
 */
import type { Selectable } from 'kysely'
import { perHandle, statement, type WorkspaceHandle } from '../corpus/repository'
import type { EpisodeStepTable, EpisodeTable, RunTable } from '../db/schema'
import type { Trajectory } from '../harness'
import type { EpisodeMetrics } from './score'

export type RunRecord = Selectable<RunTable>
/** A run with how many episodes it has stored. */
export type RunWithEpisodeCount = RunRecord & { episodes: number }
/** An episode row as stored (JSON columns unparsed; steps_blob reads as a Buffer). */
export type EpisodeRecord = Selectable<EpisodeTable>
/** An episode with its run's config and kind. */
export type EpisodeWithRun = EpisodeRecord & { run_config_json: RunRecord['config_json']; run_kind: RunRecord['kind'] }
export type EpisodeStepRecord = Selectable<EpisodeStepTable>
/** An episode's question and metrics, for pairing runs by question. */
export type EpisodeMetricsRecord = Pick<EpisodeRecord, 'question_id' | 'metrics_json'>

/** Runs and episodes in the workspace database; each episode is written whole, in one transaction. */
export class RunStore {
  private readonly s

  constructor(private readonly raw: WorkspaceHandle) {
    this.s = {
      createRun: statement<[string, string, string, number, string, string, string | null, string], Pick<RunRecord, 'id'>>(
        raw,
        `insert into runs (kind, name, status, config_json, seed, app_version, corpus_signature, job_id, created_at)
         values (?, ?, 'running', ?, ?, ?, ?, ?, ?) returning id`,
      ),
      finishRun: statement<[RunRecord['status'], string, string | null, string, number], never>(raw, 'update runs set status = ?, summary_json = ?, error = ?, finished_at = ? where id = ?'),
      runs: statement<[], RunWithEpisodeCount>(raw, 'select r.*, (select count(*) from episodes e where e.run_id = r.id) as episodes from runs r order by r.id desc'),
      trainRunStatus: statement<[number], RunRecord['status']>(raw, "select status from runs where id = ? and kind = 'train'", { pluck: true }),
      insertEpisode: statement<[number, number | null, string, number, string, string, string, string, number, number, number, string | null], Pick<EpisodeRecord, 'id'>>(
        raw,
        `insert into episodes (run_id, question_id, question, seed, answer, gold_json, outcome_json, metrics_json, turns, format_errors, ms, initial_snapshot_json)
         values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) returning id`,
      ),
      insertStep: statement<[number, number, string, string, string | null, string, string, string, string, number], never>(
        raw,
        `insert into episode_steps (episode_id, t, observation_text, actions_json, previews_json, action_json, decision_json, info_json, snapshot_json, ms)
         values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      episodeKeys: statement<[number], Pick<EpisodeRecord, 'question_id' | 'seed'>>(raw, 'select question_id, seed from episodes where run_id = ?'),
      episodeMetrics: statement<[number], Pick<EpisodeRecord, 'question_id' | 'seed' | 'metrics_json'>>(raw, 'select question_id, seed, metrics_json from episodes where run_id = ? order by id'),
      questionMetrics: statement<[number], EpisodeMetricsRecord>(raw, 'select question_id, metrics_json from episodes where run_id = ? and question_id is not null order by id'),
      firstMetrics: statement<[number], EpisodeRecord['metrics_json']>(raw, 'select metrics_json from episodes where run_id = ? limit 1', { pluck: true }),
      episodeCount: statement<[number], number>(raw, 'select count(*) from episodes where run_id = ?', { pluck: true }),
      episodePage: statement<[number, number, number], EpisodeRecord>(raw, 'select * from episodes where run_id = ? order by id limit ? offset ?'),
      episodeWithRun: statement<[number], EpisodeWithRun>(raw, 'select e.*, r.config_json as run_config_json, r.kind as run_kind from episodes e join runs r on r.id = e.run_id where e.id = ?'),
      steps: statement<[number], EpisodeStepRecord>(raw, 'select * from episode_steps where episode_id = ? order by t'),
    }
  }

  // ── runs ───────────────────────────────────────────────────────────────────────────────────────

  createRun(run: { kind: string; name: string; config: unknown; seed: number; appVersion: string; corpusSignature: string; jobId: string | null }): number {
    const row = this.s.createRun().get(run.kind, run.name, JSON.stringify(run.config), run.seed, run.appVersion, run.corpusSignature, run.jobId, new Date().toISOString())!
    return row.id
  }

  finishRun(runId: number, status: 'done' | 'failed' | 'cancelled', summary: unknown, error?: string): void {
    this.s.finishRun().run(status, JSON.stringify(summary), error ?? null, new Date().toISOString(), runId)
  }

  /** Every run, newest first, with its stored episode count. */
  runsWithEpisodeCounts(): RunWithEpisodeCount[] {
    return this.s.runs().all()
  }

  /** The status of training run `runId`, or undefined when there is no such training run. */
  trainRunStatus(runId: number): RunRecord['status'] | undefined {
    return this.s.trainRunStatus().get(runId)
  }

  // ── episodes ───────────────────────────────────────────────────────────────────────────────────

  /** Questions of the run already stored (a resumed run skips them). */
  doneQuestions(runId: number): Set<string> {
    return new Set(this.s.episodeKeys().all(runId).map((r) => `${r.question_id}:${r.seed}`))
  }

  /** Stores a trajectory whole (every step with its snapshot), in one transaction. */
  saveEpisode(runId: number, questionId: number | null, e: Trajectory): number {
    return this.raw.transaction(() => {
      const { id } = this.s.insertEpisode().get(
        runId, questionId, e.question.question, e.seed, e.answer ?? '',
        JSON.stringify({ answers: e.question.answers, supportingFacts: e.question.supportingFacts, supportingDocs: e.question.supportingDocs }),
        JSON.stringify(e.outcome), JSON.stringify(e.metrics), e.outcome.turns, e.outcome.formatErrors, e.ms,
        e.initialSnapshot === null || e.initialSnapshot === undefined ? null : JSON.stringify(e.initialSnapshot),
      )!
      const step = this.s.insertStep()
      for (const s of e.steps) {
        step.run(id, s.t, s.observationText, JSON.stringify(s.actions), s.previews ? JSON.stringify(s.previews) : null, JSON.stringify(s.action), JSON.stringify(s.decision), JSON.stringify(s.info), JSON.stringify(s.snapshot ?? null), s.ms)
      }
      return id
    })()
  }

  /** Each episode's metrics in storage order, keyed `questionId:seed`. */
  metricsOf(runId: number): { questionId: string; metrics: EpisodeMetrics }[] {
    return this.s.episodeMetrics().all(runId).map((r) => ({ questionId: `${r.question_id}:${r.seed}`, metrics: JSON.parse(r.metrics_json) as EpisodeMetrics }))
  }

  /** Question and metrics of each of the run's episodes that has a stored question, in storage order. */
  questionMetrics(runId: number): EpisodeMetricsRecord[] {
    return this.s.questionMetrics().all(runId)
  }

  /** metrics_json of one of the run's episodes, or undefined when it has none. */
  anyEpisodeMetrics(runId: number): string | undefined {
    return this.s.firstMetrics().get(runId)
  }

  episodeCount(runId: number): number {
    return Number(this.s.episodeCount().get(runId))
  }

  /** A page of the run's episodes in storage order. */
  episodePage(runId: number, offset: number, limit: number): EpisodeRecord[] {
    return this.s.episodePage().all(runId, limit, offset)
  }

  /** One episode with its run's config and kind, or undefined. */
  episodeWithRun(episodeId: number): EpisodeWithRun | undefined {
    return this.s.episodeWithRun().get(episodeId)
  }

  /** The episode's stored steps, in order (none for a compactly stored training rollout). */
  episodeSteps(episodeId: number): EpisodeStepRecord[] {
    return this.s.steps().all(episodeId)
  }
}

/** The runs repository of a workspace database (one per handle, its statements prepared on first use). */
export const runStore: (raw: WorkspaceHandle) => RunStore = perHandle((raw) => new RunStore(raw))
