import type SQLite from 'better-sqlite3'
import type { RunSummary } from '../../preload/contract'
import { diffSnapshots, type StatefulSnapshot } from '../harness/stateful'

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

export function getEpisode(raw: SQLite.Database, episodeId: number) {
  const r = raw.prepare('select * from episodes where id = ?').get(episodeId) as EpisodeDbRow | undefined
  if (!r) return null
  const steps = raw.prepare('select * from episode_steps where episode_id = ? order by t').all(episodeId) as Record<string, unknown>[]
  let previous: StatefulSnapshot | null = null
  const changesOf = (snapshot: unknown): string[] | null => {
    const s = snapshot as Partial<StatefulSnapshot>
    if (s.mode !== 'stateful' && s.mode !== 'transcript') return null
    const changes = previous ? describeDiff(diffSnapshots(previous, s as StatefulSnapshot)) : ['initial state']
    previous = s as StatefulSnapshot
    return changes
  }
  return {
    ...toEpisode(r),
    seed: r.seed,
    outcome: JSON.parse(r.outcome_json) as unknown,
    steps: steps.map((s) => ({
      t: s.t as number,
      observationText: s.observation_text as string,
      actions: JSON.parse(s.actions_json as string) as unknown,
      previews: s.previews_json ? (JSON.parse(s.previews_json as string) as unknown) : null,
      action: JSON.parse(s.action_json as string) as unknown,
      decision: JSON.parse(s.decision_json as string) as unknown,
      info: JSON.parse(s.info_json as string) as unknown,
      snapshot: JSON.parse(s.snapshot_json as string) as unknown,
      ms: s.ms as number,
    })).map((s) => ({ ...s, changes: changesOf(s.snapshot) })),
  }
}

/** One line per kind of change a Harness-1 step made to the working memory. */
function describeDiff(d: ReturnType<typeof diffSnapshots>): string[] {
  const out: string[] = []
  const list = (xs: string[]) => xs.slice(0, 8).join(', ') + (xs.length > 8 ? ` +${xs.length - 8}` : '')
  if (d.curated.added.length) out.push(`curated +${d.curated.added.length}: ${list(d.curated.added.map((c) => `${c.id}${c.tag ? ` (${c.tag})` : ''}`))}`)
  if (d.curated.removed.length) out.push(`curated -${d.curated.removed.length}: ${list(d.curated.removed.map((c) => c.id))}`)
  if (d.curated.retagged.length) out.push(`retagged: ${list(d.curated.retagged.map((c) => `${c.id} ${c.from ?? '-'}→${c.to ?? '-'}`))}`)
  if (d.pool.added.length) out.push(`pool +${d.pool.added.length}`)
  if (d.seen.added.length) out.push(`seen +${d.seen.added.length}`)
  if (d.evidenceGraph?.bridgesAdded.length) out.push(`bridge entities +${d.evidenceGraph.bridgesAdded.length}: ${list(d.evidenceGraph.bridgesAdded)}`)
  if (d.verificationsAdded.length) out.push(`verified: ${d.verificationsAdded.map((v) => `${v.verdict} (${v.checker})`).join('; ')}`)
  if (d.budget.warningTo !== d.budget.warningFrom && d.budget.warningTo !== null) out.push(`budget warning ${d.budget.warningTo}%`)
  out.push(`context ${d.budget.from} → ${d.budget.to} tokens`)
  if (d.formatErrors.to > d.formatErrors.from) out.push('format error')
  return out
}
