/**
 * Runs a findings run as one job: each experiment's ablation in turn (a cancelled or crashed run resumes
 * from its finished cells; a finished experiment is never run again), then every claim measured from its
 * experiment's stored results, its preconditions checked and given a verdict (`no evidence` with the
 * reason where a precondition fails). Records the app version, corpus signature and model
 * files by hash as an ablation does.
 */
import type SQLite from 'better-sqlite3'
import type { ClaimResult, FindingsResults } from '../../../preload/contract'
import { ablationDetail, runAblation, type AblationDeps } from '../ablation'
import { corpusSignature } from '../questions'
import { claim } from './claims'
import { policyText } from './policy-text'
import { findingsDetail, storedPlan } from './saved'
import { findingsStore } from './store'
import { findingsColumns } from './columns'
import { armEvidence } from './measure'
import { BOOTSTRAP, judge } from './verdict'

export type FindingsDeps = AblationDeps

export interface FindingsRunSummary {
  findingsId: number
  claims: number
  seconds: number
}

export async function runFindings(raw: SQLite.Database, id: number, deps: FindingsDeps): Promise<FindingsRunSummary> {
  const t0 = performance.now()
  const store = findingsStore(raw)
  const detail = findingsDetail(raw, id)
  if (detail.status === 'done') throw new Error(`Findings run #${id} is finished; save a new one to run again`)
  const experiments = findingsColumns.experiments.read(store.get(id)!.experiments_json)
  store.start(id, deps.jobId, { appVersion: deps.appVersion, corpusSignature: corpusSignature(raw), models: [] })
  try {
    for (const [i, e] of experiments.entries()) {
      deps.throwIfCancelled()
      if (ablationDetail(raw, e.ablationId).status === 'done') continue
      const started = performance.now()
      try {
        await runAblation(raw, e.ablationId, {
          ...deps,
          progress: (p, stage, message) => deps.progress((i + p) / experiments.length, `${e.key} (${i + 1}/${experiments.length})`, message ?? stage),
        })
      } finally {
        e.seconds += (performance.now() - started) / 1000
        store.setExperiments(id, experiments)
      }
    }
    const plan = storedPlan(raw, id)
    const claims: ClaimResult[] = []
    const models = new Set<string>()
    for (const e of experiments) {
      const ablation = ablationDetail(raw, e.ablationId)
      for (const m of ablation.ranOn?.models ?? []) models.add(m)
      if (!ablation.results) throw new Error(`Experiment ${e.key} (ablation #${e.ablationId}) has no results: ${ablation.error ?? ablation.status}`)
      for (const name of e.claims) {
        const c = claim(name)
        const { compared, ...measured } = c.evaluate({ raw, plan, results: ablation.results })
        const arms = compared.map((a) => armEvidence(raw, ablation.results!, a, c.preconditions))
        const { verdict, reason, exact } = judge(measured.effect, arms, c.preconditions, measured.metric, c.expected)
        const failed = ablation.results.rows.filter((r) => r.error !== null).map((r) => `row "${r.label}" failed: ${r.error}`)
        claims.push({
          number: c.number,
          name: c.name,
          title: c.title,
          paper: c.paper,
          expected: c.expected,
          ...measured,
          verdict,
          reason,
          exact: exact ?? null,
          questions: plan.heldOut.limit,
          seeds: plan.seeds.length,
          seconds: e.seconds,
          ablationId: e.ablationId,
          policy: policyText(ablation, detail.config.policy),
          departures: [...plan.budget.departures, ...measured.departures, ...(e.claims.length > 1 ? [`shares its experiment (${e.key}) with ${e.claims.filter((n) => n !== name).join(', ')}`] : []), ...failed],
        })
      }
    }
    claims.sort((a, b) => a.number - b.number)
    const results: FindingsResults = { claims, bootstrap: { ...BOOTSTRAP } }
    // The model files of every experiment, by hash, join what the run recorded when it started.
    const ranOn = findingsDetail(raw, id).ranOn
    if (ranOn) store.setRanOn(id, { ...ranOn, models: [...models] })
    store.finish(id, 'done', results, null)
    deps.progress(1, 'done', `${claims.length} claims`)
    return { findingsId: id, claims: claims.length, seconds: (performance.now() - t0) / 1000 }
  } catch (err) {
    const cancelled = err instanceof Error && err.name === 'JobCancelledError'
    store.finish(id, cancelled ? 'cancelled' : 'failed', null, cancelled ? null : err instanceof Error ? err.message : String(err))
    throw err
  }
}
