import type { RunSummary } from '../../preload/contract'
import type { WorkspaceHandle } from '../corpus/repository'
import { environmentFactory, environmentNames, type Action, type ActionSpace, type EpisodeOutcome, type Preview, type StepInfo, type TrajectoryStep } from '../harness'
import { ensureEnvironments } from './catalog'
import { runStore, type EpisodeRecord } from './store'
import { replayRollout } from './training/replay'

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
export function listRuns(raw: WorkspaceHandle, jobOf: JobLookup = () => undefined): RunSummary[] {
  return runStore(raw).runsWithEpisodeCounts().map((row) => {
    const r: Omit<typeof row, 'status'> & { status: string } = row
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

const toEpisode = (r: EpisodeRecord) => ({
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

export function listEpisodes(raw: WorkspaceHandle, runId: number, offset: number, limit: number) {
  const runs = runStore(raw)
  const total = runs.episodeCount(runId)
  const rows = runs.episodePage(runId, offset, limit)
  return { total, episodes: rows.map(toEpisode) }
}

/**
 * One episode with every step, each described by its environment (what changed, working memory or
 * committed evidence). A training rollout, stored compactly, is replayed to rebuild its steps.
 */
export async function getEpisode(raw: WorkspaceHandle, episodeId: number) {
  const runs = runStore(raw)
  const r = runs.episodeWithRun(episodeId)
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
  const steps = runs.episodeSteps(episodeId)
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
