import type SQLite from 'better-sqlite3'
import type { RunSummary } from '../../preload/contract'
import { environmentFactory, environmentNames, type Action, type ActionSpace, type EpisodeOutcome, type Preview, type StepInfo, type TrajectoryStep } from '../harness'
import { ensureEnvironments } from './catalog'
import { replayRollout } from './training/replay'

interface RunRow {
  id: number
  job_id: string | null
  kind: string
  name: string
  status: string
  seed: number
  created_at: string
  finished_at: string | null
  error: string | null
  config_json: string
  summary_json: string | null
  episodes: number
}

interface StoredAggregate {
  mean: number | null
  count: number
  ci: { lower: number; upper: number } | null
}

type JobLookup = (jobId: string) => { status: string; error: string | null } | undefined

/**
 * Read side of runs and episodes for the API and the UI. A run still marked running whose job has ended
 * (its worker was stopped, or the app crashed mid-run) is shown with the job's final status: reading
 * never writes, so it never waits on a worker holding the database.
 */
export function listRuns(raw: SQLite.Database, jobOf: JobLookup = () => undefined): RunSummary[] {
  const rows = raw.prepare('select r.*, (select count(*) from episodes e where e.run_id = r.id) as episodes from runs r order by r.id desc').all() as RunRow[]
  return rows.map((r) => {
    const job = r.status === 'running' && r.job_id ? jobOf(r.job_id) : undefined
    const ended = job && job.status !== 'queued' && job.status !== 'running'
    if (ended) {
      r.status = job.status === 'done' ? 'failed' : job.status
      r.error = job.error ?? `stopped (${job.status})`
    }
    const summary = r.summary_json ? (JSON.parse(r.summary_json) as { aggregates?: Record<string, StoredAggregate> }) : null
    const metrics: RunSummary['metrics'] = {}
    for (const [name, a] of Object.entries(summary?.aggregates ?? {})) {
      metrics[name] = { mean: a.mean, count: a.count, lower: a.ci?.lower ?? null, upper: a.ci?.upper ?? null }
    }
    return {
      id: r.id,
      kind: r.kind,
      name: r.name,
      status: r.status,
      seed: r.seed,
      createdAt: r.created_at,
      finishedAt: r.finished_at,
      error: r.error,
      config: JSON.parse(r.config_json) as Record<string, unknown>,
      episodes: r.episodes,
      metrics,
    }
  })
}

interface EpisodeDbRow {
  id: number
  question_id: number | null
  question: string
  answer: string | null
  gold_json: string
  turns: number
  format_errors: number
  ms: number
  metrics_json: string
  seed: number
  outcome_json: string
  initial_snapshot_json: string | null
  steps_blob: Buffer | null
  train_step: number | null
}

const toEpisode = (r: EpisodeDbRow) => ({
  id: r.id,
  questionId: r.question_id,
  question: r.question,
  answer: r.answer,
  gold: (JSON.parse(r.gold_json) as { answers: string[] }).answers,
  turns: r.turns,
  formatErrors: r.format_errors,
  ms: r.ms,
  metrics: JSON.parse(r.metrics_json) as Record<string, number | null>,
})

export function listEpisodes(raw: SQLite.Database, runId: number, offset: number, limit: number) {
  const total = Number(raw.prepare('select count(*) from episodes where run_id = ?').pluck().get(runId))
  const rows = raw.prepare('select * from episodes where run_id = ? order by id limit ? offset ?').all(runId, limit, offset) as EpisodeDbRow[]
  return { total, episodes: rows.map(toEpisode) }
}

/**
 * One episode with every step, each described by its environment (what changed, working memory or
 * committed evidence). A training rollout, stored compactly, is replayed to rebuild its steps.
 */
export async function getEpisode(raw: SQLite.Database, episodeId: number) {
  const r = raw.prepare('select e.*, r.config_json as run_config_json, r.kind as run_kind from episodes e join runs r on r.id = e.run_id where e.id = ?').get(episodeId) as
    | (EpisodeDbRow & { run_config_json: string; run_kind: string })
    | undefined
  if (!r) return null
  const runConfig = JSON.parse(r.run_config_json) as { environment?: unknown; envConfig?: Record<string, unknown>; config?: { environment?: unknown; envConfig?: Record<string, unknown> } }
  // Training runs keep the training config under `config`.
  const envSource = r.run_kind === 'train' && runConfig.config ? runConfig.config : runConfig
  const environment = String(envSource.environment ?? '')
  ensureEnvironments()
  const describe = environmentNames().includes(environment) ? environmentFactory(environment).describeStep : null
  const describeOf = (previous: unknown, snapshot: unknown) => (describe ? describe(previous, snapshot) : { changes: [], memory: null, committed: null })
  const base = { ...toEpisode(r), seed: r.seed, environment, outcome: JSON.parse(r.outcome_json) as EpisodeOutcome }
  if (r.steps_blob) {
    const { trajectory, faithful } = await replayRollout(raw, {
      environment, envConfig: envSource.envConfig ?? {}, questionId: r.question_id, question: r.question, seed: r.seed,
      gold: JSON.parse(r.gold_json) as Parameters<typeof replayRollout>[1]['gold'], outcomeJson: r.outcome_json, steps: r.steps_blob,
    })
    let previous: unknown = trajectory.initialSnapshot
    return {
      ...base,
      replay: { faithful, note: faithful ? 'Rebuilt by replaying the stored actions.' : 'Replayed from the stored actions, but the replay no longer ends with the stored evidence: the corpus or the environment changed since this rollout.' },
      steps: trajectory.steps.map((s) => {
        const view = describeOf(previous, s.snapshot)
        previous = s.snapshot
        const { snapshot: _snapshot, observation: _observation, ...step } = s
        return { ...step, view }
      }),
    }
  }
  const steps = raw.prepare('select * from episode_steps where episode_id = ? order by t').all(episodeId) as StepDbRow[]
  let previous: unknown = r.initial_snapshot_json ? (JSON.parse(r.initial_snapshot_json) as unknown) : null
  return {
    ...base,
    replay: null,
    steps: steps.map((s) => {
      const snapshot = JSON.parse(s.snapshot_json) as unknown
      const view = describeOf(previous, snapshot)
      previous = snapshot
      return {
        t: s.t,
        observationText: s.observation_text,
        actions: JSON.parse(s.actions_json) as ActionSpace,
        previews: s.previews_json ? (JSON.parse(s.previews_json) as Record<string, Preview | null>) : null,
        action: JSON.parse(s.action_json) as Action,
        decision: JSON.parse(s.decision_json) as TrajectoryStep['decision'],
        info: JSON.parse(s.info_json) as StepInfo,
        ms: s.ms,
        view,
      }
    }),
  }
}

interface StepDbRow {
  t: number
  observation_text: string
  actions_json: string
  previews_json: string | null
  action_json: string
  decision_json: string
  info_json: string
  snapshot_json: string
  ms: number
}
