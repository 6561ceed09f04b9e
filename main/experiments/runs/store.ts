/**
 * The runs repository: runs, their episodes and the episodes' steps in the workspace database, typed
 * against main/db/schema.ts. Every SQL statement on these tables outside training/ is here; the
 * readers (queries.ts), comparisons (compare.ts) and validators (validate.ts) go through it.
 */
import type SQLite from 'better-sqlite3'
import type { RunConfig } from '../../../preload/contract'
import { sql, type Selectable } from 'kysely'
import { workspaceQuery } from '../../db/query'
import { perHandle, statement, type WorkspaceHandle } from '../../corpus/repository'
import type { EpisodeStepTable, EpisodeTable, RunTable } from '../../db/schema'
import type { Trajectory } from '../../harness'
import { decodeEpisodeSteps, encodeEpisodeSteps, type EpisodeColumns, type StepColumns } from './episode-codec'
import type { EpisodeMetrics } from '../metrics/score'
import { episodeColumns as episodeJson } from '../../db/episode-columns'
import { runColumns } from './run-columns'

export type RunRecord = Selectable<RunTable>
/** A run with how many episodes it has stored. */
export type RunWithEpisodeCount = RunRecord & { episodes: number }
/** An episode row as stored (JSON columns unparsed; steps_blob reads as a Buffer). */
export type EpisodeRecord = Selectable<EpisodeTable>
/** An episode with its run's config and kind. */
export type EpisodeWithRun = EpisodeRecord & { run_config_json: RunRecord['config_json']; run_kind: RunRecord['kind']; run_name: RunRecord['name'] }
export type EpisodeStepRecord = Selectable<EpisodeStepTable>
/** Stored bytes of a run's episodes (their rows, steps and blobs), and how many were pruned. */
export interface RunStorage {
  runId: number
  episodes: number
  pruned: number
  bytes: number
}
/** An episode's question and metrics, for pairing runs by question. */
export type EpisodeMetricsRecord = Pick<EpisodeRecord, 'question_id' | 'metrics_json'>
/** A run's id, kind and name. */
export type RunHead = Pick<RunRecord, 'id' | 'kind' | 'name'>
/** An episode as a candidate to compare another with: its run's name and kind, its end reason. */
export type ComparableRecord = Pick<EpisodeRecord, 'id' | 'run_id' | 'train_step' | 'seed' | 'answer' | 'turns' | 'metrics_json'> & {
  run_name: RunRecord['name']
  run_kind: RunRecord['kind']
  end_reason: string | null
}

/**
 * Which of a run's episodes to read; every condition must hold. Metric conditions read the stored
 * metrics_json: an episode without the metric (or with null) fails them.
 */
export interface EpisodeWhere {
  /** Case-insensitive substring of the question text (LIKE, with % and _ taken literally). */
  questionContains?: string
  /** Each metric within its bounds: `min` and `max` inclusive, `below` exclusive. */
  metrics?: { name: string; min?: number; max?: number; below?: number }[]
  /** none: no format error; some: at least one. */
  formatErrors?: 'none' | 'some'
  /** outcome.endReason equals this. */
  endReason?: string
  /** Training rollouts of this step. */
  trainStep?: number
  /** Episodes on questions of this split label (a trainer's train or test file). */
  split?: string
}

const likeEscaped = (text: string): string => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
/** The JSON path of a stored metric (names hold dots, so the key is quoted). */
const metricPath = (name: string): string => `$.${JSON.stringify(name)}`

/** A WHERE clause over `episodes` for a run and its bound parameters, built from fixed fragments only. */
function whereOf(runId: number, where: EpisodeWhere): { sql: string; params: (string | number)[] } {
  const clauses = ['run_id = ?']
  const params: (string | number)[] = [runId]
  if (where.questionContains) {
    clauses.push("question like ? escape '\\'")
    params.push(likeEscaped(where.questionContains))
  }
  for (const m of where.metrics ?? []) {
    for (const [op, value] of [['>=', m.min], ['<=', m.max], ['<', m.below]] as const) {
      if (value === undefined) continue
      clauses.push(`json_extract(metrics_json, ?) ${op} ?`)
      params.push(metricPath(m.name), value)
    }
  }
  if (where.formatErrors === 'none') clauses.push('format_errors = 0')
  if (where.formatErrors === 'some') clauses.push('format_errors > 0')
  if (where.endReason !== undefined) {
    clauses.push("json_extract(outcome_json, '$.endReason') = ?")
    params.push(where.endReason)
  }
  if (where.trainStep !== undefined) {
    clauses.push('train_step = ?')
    params.push(where.trainStep)
  }
  if (where.split !== undefined) {
    clauses.push('question_id in (select id from questions where split = ?)')
    params.push(where.split)
  }
  return { sql: clauses.join(' and '), params }
}

const trainRunConfig = workspaceQuery((db, p: { id: number }) => db.selectFrom('runs').select('config_json').where('id', '=', p.id).where('kind', '=', sql.lit('train')))
const trainRunSummary = workspaceQuery((db, p: { id: number }) => db.selectFrom('runs').select('summary_json').where('id', '=', p.id).where('kind', '=', sql.lit('train')))
const heldOutPerQuestion = sql<string | null>`json_extract(diagnostics_json, '$.heldOutPerQuestion')`
const latestHeldOut = workspaceQuery((db, p: { id: number }) =>
  db
    .selectFrom('train_steps')
    .select(['step', heldOutPerQuestion.$notNull().as('rows')])
    .where('run_id', '=', p.id)
    .where(heldOutPerQuestion, 'is not', null)
    .orderBy('step', 'desc')
    .limit(1),
)
const resumeRun = workspaceQuery((db, p: { id: number; jobId: string | null }) =>
  db
    .updateTable('runs')
    .set((eb) => ({ status: 'running', error: null, finished_at: null, job_id: eb.fn.coalesce(sql<string | null>`${p.jobId}`, 'job_id') }))
    .where('id', '=', p.id),
)

const COMPARABLE = `e.id, e.run_id, e.train_step, e.seed, e.answer, e.turns, e.metrics_json, r.name as run_name, r.kind as run_kind,
  json_extract(e.outcome_json, '$.endReason') as end_reason`

/** Runs and episodes in the workspace database; each episode is written whole, in one transaction. */
export class RunStore {
  private readonly s
  /** Filtered reads, prepared once per shape of WHERE clause (a handful of fixed fragments). */
  private readonly filteredRows = new Map<string, SQLite.Statement<unknown[], EpisodeRecord>>()
  private readonly filteredCounts = new Map<string, SQLite.Statement<unknown[], number>>()

  constructor(private readonly raw: WorkspaceHandle) {
    this.s = {
      createRun: statement<[string, string, string, number, string, string, string | null, string], Pick<RunRecord, 'id'>>(
        raw,
        `insert into runs (kind, name, status, config_json, seed, app_version, corpus_signature, job_id, created_at)
         values (?, ?, 'running', ?, ?, ?, ?, ?, ?) returning id`,
      ),
      finishRun: statement<[RunRecord['status'], string, string | null, string, number], never>(raw, 'update runs set status = ?, summary_json = ?, error = ?, finished_at = ? where id = ?'),
      failRunsOfJob: statement<[string, string, string], never>(raw, "update runs set status = 'failed', error = ?, finished_at = ? where job_id = ? and status = 'running'"),
      runs: statement<[], RunWithEpisodeCount>(raw, 'select r.*, (select count(*) from episodes e where e.run_id = r.id) as episodes from runs r order by r.id desc'),
      trainRunStatus: statement<[number], RunRecord['status']>(raw, "select status from runs where id = ? and kind = 'train'", { pluck: true }),
      insertEpisode: statement<[number, number | null, string, number, string, string, string, string, number, number, number, string | null, Buffer | null], Pick<EpisodeRecord, 'id'>>(
        raw,
        `insert into episodes (run_id, question_id, question, seed, answer, gold_json, outcome_json, metrics_json, turns, format_errors, ms, initial_snapshot_json, trajectory_blob)
         values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) returning id`,
      ),
      blob: statement<[number], EpisodeRecord['trajectory_blob']>(raw, 'select trajectory_blob from episodes where id = ?', { pluck: true }),
      // Bytes of the stored values (length() of a text counts its UTF-8 bytes); page overhead is left out.
      storage: statement<[], RunStorage>(
        raw,
        `select r.id as runId, count(e.id) as episodes, count(e.pruned_at) as pruned,
           coalesce(sum(length(e.question) + length(e.gold_json) + length(e.outcome_json) + length(e.metrics_json) + coalesce(length(e.answer), 0)
             + coalesce(length(e.initial_snapshot_json), 0) + coalesce(length(e.steps_blob), 0) + coalesce(length(e.trajectory_blob), 0)
             + (select coalesce(sum(length(s.observation_text) + length(s.actions_json) + coalesce(length(s.previews_json), 0) + length(s.action_json)
                 + length(s.decision_json) + length(s.info_json) + length(s.snapshot_json) + 16), 0) from episode_steps s where s.episode_id = e.id)), 0) as bytes
         from runs r left join episodes e on e.run_id = r.id group by r.id order by r.id desc`,
      ),
      pruneSteps: statement<[number], never>(raw, 'delete from episode_steps where episode_id in (select id from episodes where run_id = ?)'),
      pruneEpisodes: statement<[string, number], never>(
        raw,
        'update episodes set trajectory_blob = null, steps_blob = null, initial_snapshot_json = null, pruned_at = ? where run_id = ? and pruned_at is null',
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
      episodeWithRun: statement<[number], EpisodeWithRun>(raw, 'select e.*, r.config_json as run_config_json, r.kind as run_kind, r.name as run_name from episodes e join runs r on r.id = e.run_id where e.id = ?'),
      steps: statement<[number], EpisodeStepRecord>(raw, 'select * from episode_steps where episode_id = ? order by t'),
      run: statement<[number], RunHead>(raw, 'select id, kind, name from runs where id = ?'),
      runConfig: statement<[number], string>(raw, 'select config_json from runs where id = ?', { pluck: true }),
      episodeSplits: statement<[number], string>(raw, 'select distinct q.split from episodes e join questions q on q.id = e.question_id where e.run_id = ? and q.split is not null order by q.split', { pluck: true }),
      endReasons: statement<[number], { reason: string | null; count: number }>(
        raw,
        "select json_extract(outcome_json, '$.endReason') as reason, count(*) as count from episodes where run_id = ? group by reason order by count desc, reason",
      ),
      wallClockGuards: statement<[number], { episodes: number; steps: number }>(
        raw,
        "select count(*) as episodes, coalesce(sum(g), 0) as steps from (select json_extract(outcome_json, '$.wallClockGuards') as g from episodes where run_id = ?) where g > 0",
      ),
      trainSteps: statement<[number], { min: number | null; max: number | null }>(raw, 'select min(train_step) as min, max(train_step) as max from episodes where run_id = ?'),
      sameQuestion: statement<[number, number, number], ComparableRecord>(
        raw,
        `select ${COMPARABLE} from episodes e join runs r on r.id = e.run_id
         where e.question_id = ? and e.run_id != ? and e.train_step is null order by e.run_id desc, e.id limit ?`,
      ),
      group: statement<[number, number, number, number, number], ComparableRecord>(
        raw,
        `select ${COMPARABLE} from episodes e join runs r on r.id = e.run_id
         where e.run_id = ? and e.train_step = ? and e.question_id = ? and e.id != ? order by e.id limit ?`,
      ),
    }
  }

  // ── runs ───────────────────────────────────────────────────────────────────────────────────────

  createRun(run: { kind: string; name: string; config: RunConfig; seed: number; appVersion: string; corpusSignature: string; jobId: string | null }): number {
    const row = this.s.createRun().get(run.kind, run.name, JSON.stringify(run.config), run.seed, run.appVersion, run.corpusSignature, run.jobId, new Date().toISOString())!
    return row.id
  }

  finishRun(runId: number, status: 'done' | 'failed' | 'cancelled', summary: unknown, error?: string): void {
    this.s.finishRun().run(status, JSON.stringify(summary), error ?? null, new Date().toISOString(), runId)
  }

  /** Runs a job left "running" when it ended without finishing them (its process died, its disk filled): failed, with the job's reason; how many. */
  failRunsOfJob(jobId: string, error: string): number {
    return this.s.failRunsOfJob().run(error, new Date().toISOString(), jobId).changes
  }

  /** Every run, newest first, with its stored episode count. */
  runsWithEpisodeCounts(): RunWithEpisodeCount[] {
    return this.s.runs().all()
  }

  /** The run's id, kind and name, or undefined when there is no such run. */
  run(runId: number): RunHead | undefined {
    return this.s.run().get(runId)
  }

  /**
   * A training run's held-out evaluation per question (the greedy head after training; the latest
   * held-out evaluation of an unfinished run), as its comparable results: never its training rollouts.
   */
  trainHeldOut(runId: number): { at: string; perQuestion: Record<string, Record<string, number | null>> } | null {
    const summary = trainRunSummary(this.raw).value({ id: runId })
    const after = runColumns.summary.readNullable(summary)?.heldOutAfter
    if (after) return { at: 'after training', perQuestion: after }
    const latest = latestHeldOut(this.raw).get({ id: runId })
    return latest ? { at: `step ${latest.step}`, perQuestion: runColumns.heldOutPerQuestion.read(latest.rows) } : null
  }

  /** A run's stored RunConfig (JSON), or undefined when there is no such run. */
  runConfig(runId: number): string | undefined {
    return this.s.runConfig().get(runId)
  }

  /** The split labels of the questions a run's episodes played, sorted. */
  episodeSplits(runId: number): string[] {
    return this.s.episodeSplits().all(runId)
  }

  /** A training run's stored RunConfig (JSON), or undefined when there is no such training run. */
  trainRunConfig(runId: number): RunRecord['config_json'] | undefined {
    return trainRunConfig(this.raw).value({ id: runId })
  }

  /** A stopped run runs again (resumed by a new job, or by the same one when `jobId` is null). */
  resumeRun(runId: number, jobId: string | null): void {
    resumeRun(this.raw).run({ id: runId, jobId })
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

  /**
   * Stores a trajectory whole (every step with its snapshot), in one transaction: compactly (one
   * blob of per-step deltas, episode-codec.ts) unless `format` says rows, the format of old runs.
   */
  saveEpisode(runId: number, questionId: number | null, e: Trajectory, format: 'compact' | 'rows' = 'compact'): number {
    const columns = episodeColumns(e)
    let blob: Buffer | null = null
    if (format === 'compact') {
      try {
        blob = encodeEpisodeSteps(columns)
      } catch {
        blob = null // a value the codec cannot reproduce exactly: the episode is stored as rows, nothing is lost
      }
    }
    return this.raw.transaction(() => {
      const { id } = this.s.insertEpisode().get(
        runId, questionId, e.question.question, e.seed, e.answer ?? '',
        JSON.stringify({ answers: e.question.answers, supportingFacts: e.question.supportingFacts, supportingDocs: e.question.supportingDocs }),
        JSON.stringify(e.outcome), JSON.stringify(e.metrics), e.outcome.turns, e.outcome.formatErrors, e.ms,
        blob ? null : columns.initialSnapshotJson, blob,
      )!
      if (!blob) {
        const step = this.s.insertStep()
        for (const s of columns.steps) {
          step.run(id, s.t, s.observation_text, s.actions_json, s.previews_json, s.action_json, s.decision_json, s.info_json, s.snapshot_json, s.ms)
        }
      }
      return id
    }).immediate()
  }

  /** Stored bytes of every run's episodes, newest run first. */
  storage(): RunStorage[] {
    return this.s.storage().all()
  }

  /**
   * Drops the steps of every episode of the run (rows, blobs, snapshots) and keeps each episode's
   * question, answer, outcome and metrics, so the run stays comparable per question. Returns the
   * number of episodes pruned now. The space is reused by later writes; VACUUM (maintenance) returns it to the disk.
   */
  pruneRun(runId: number): number {
    return this.raw.transaction(() => {
      this.s.pruneSteps().run(runId)
      return this.s.pruneEpisodes().run(new Date().toISOString(), runId).changes
    }).immediate()
  }

  /** Each episode's metrics in storage order, keyed `questionId:seed`. */
  metricsOf(runId: number): { questionId: string; metrics: EpisodeMetrics }[] {
    return this.s.episodeMetrics().all(runId).map((r) => ({ questionId: `${r.question_id}:${r.seed}`, metrics: episodeJson.metrics.read(r.metrics_json) }))
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

  /** How many of the run's episodes match `where`. */
  filteredCount(runId: number, where: EpisodeWhere): number {
    const { sql, params } = whereOf(runId, where)
    const text = `select count(*) from episodes where ${sql}`
    let s = this.filteredCounts.get(text)
    if (!s) this.filteredCounts.set(text, (s = this.raw.prepare<unknown[], number>(text).pluck()))
    return Number(s.get(...params))
  }

  /** A page of the run's episodes that match `where`, in storage order. */
  filteredPage(runId: number, where: EpisodeWhere, offset: number, limit: number): EpisodeRecord[] {
    const { sql, params } = whereOf(runId, where)
    const text = `select * from episodes where ${sql} order by id limit ? offset ?`
    let s = this.filteredRows.get(text)
    if (!s) this.filteredRows.set(text, (s = this.raw.prepare<unknown[], EpisodeRecord>(text)))
    return s.all(...params, limit, offset)
  }

  /** The run's end reasons with how many episodes ended so, most frequent first. */
  endReasons(runId: number): { reason: string; count: number }[] {
    return this.s.endReasons().all(runId).map((r) => ({ reason: r.reason ?? '', count: r.count }))
  }

  /** The run's episodes (and their steps) whose results a wall-clock safety net cut short: figures that depend on machine load. */
  wallClockGuards(runId: number): { episodes: number; steps: number } {
    const r = this.s.wallClockGuards().get(runId)!
    return { episodes: Number(r.episodes), steps: Number(r.steps) }
  }

  /** First and last training step with stored rollouts, or null when the run has none. */
  trainStepRange(runId: number): { min: number; max: number } | null {
    const r = this.s.trainSteps().get(runId)
    return r && r.min !== null && r.max !== null ? { min: r.min, max: r.max } : null
  }

  /** Evaluation episodes of other runs on the question, newest run first. */
  sameQuestion(questionId: number, exceptRunId: number, limit: number): ComparableRecord[] {
    return this.s.sameQuestion().all(questionId, exceptRunId, limit)
  }

  /** The other rollouts of one training step on one question (the episode's group). */
  group(runId: number, trainStep: number, questionId: number, exceptEpisodeId: number, limit: number): ComparableRecord[] {
    return this.s.group().all(runId, trainStep, questionId, exceptEpisodeId, limit)
  }

  /** One episode with its run's config and kind, or undefined; a compact episode reads with its initial snapshot. */
  episodeWithRun(episodeId: number): EpisodeWithRun | undefined {
    const row = this.s.episodeWithRun().get(episodeId)
    if (!row?.trajectory_blob) return row
    return { ...row, initial_snapshot_json: this.decoded(episodeId, row.trajectory_blob).initialSnapshotJson }
  }

  /**
   * The episode's steps, in order, exactly as the row format stores them whichever format holds them
   * (none for a compactly stored training rollout or a pruned episode).
   */
  episodeSteps(episodeId: number): EpisodeStepRecord[] {
    const blob = this.s.blob().get(episodeId)
    if (!blob) return this.s.steps().all(episodeId)
    return this.decoded(episodeId, blob).steps.map((s: StepColumns) => ({ episode_id: episodeId, ...s }))
  }

  /** The last episode decoded: getEpisode reads its initial snapshot and then its steps. */
  private lastDecoded: { id: number; blob: Buffer; columns: EpisodeColumns } | null = null
  private decoded(episodeId: number, blob: Uint8Array): EpisodeColumns {
    const bytes = Buffer.from(blob.buffer, blob.byteOffset, blob.byteLength)
    // Keyed by the bytes too: a deleted episode's id can be reused by a later one.
    if (this.lastDecoded?.id !== episodeId || !this.lastDecoded.blob.equals(bytes)) this.lastDecoded = { id: episodeId, blob: bytes, columns: decodeEpisodeSteps(bytes) }
    return this.lastDecoded.columns
  }
}

/** A trajectory's steps as the row format stores them: the text of each column. */
export function episodeColumns(e: Trajectory): EpisodeColumns {
  return {
    initialSnapshotJson: e.initialSnapshot === null || e.initialSnapshot === undefined ? null : JSON.stringify(e.initialSnapshot),
    steps: e.steps.map((s) => ({
      t: s.t,
      observation_text: s.observationText,
      actions_json: JSON.stringify(s.actions),
      previews_json: s.previews ? JSON.stringify(s.previews) : null,
      action_json: JSON.stringify(s.action),
      decision_json: JSON.stringify(s.decision),
      info_json: JSON.stringify(s.info),
      snapshot_json: JSON.stringify(s.snapshot ?? null),
      ms: s.ms,
    })),
  }
}

/** The runs repository of a workspace database (one per handle, its statements prepared on first use). */
export const runStore: (raw: WorkspaceHandle) => RunStore = perHandle((raw) => new RunStore(raw))
