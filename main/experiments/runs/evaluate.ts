import type SQLite from 'better-sqlite3'
import type { AblationPolicy, EvalParams, RunConfig } from '../../../preload/contract'
import { aggregate } from '../../eval'
import { createEnvironment, environmentFactory, resolvedConfig, runEpisode, type Answerer, type Policy, environmentContext } from '../../harness'
import { rewarderFor } from '../metrics/rewards'
import { EvidenceResolver } from '../metrics/evidence'
import { scoreEpisode } from '../metrics/score'
import { corpusSignature, loadQuestions } from '../questions'
import { RunStore } from './store'

/**
 * What an evaluation runs: the eval.run job's parameters (the contract's EvalParams, parsed at its border),
 * except that an ablation's cell may evaluate any of its row policies (the trained head before or after its
 * run, a LoRA pair) and may leave the reward weights out, and names its ablation and row: the run is then
 * stored as an ablation-cell run. The policy and answerer are descriptions stored with the run; the
 * factories build them.
 */
export type EvaluationSpec = Omit<EvalParams, 'policy' | 'rewardWeights'> & {
  policy: AblationPolicy
  rewardWeights?: EvalParams['rewardWeights']
  ablation?: { id: number; row: number }
}

export interface EvaluationDeps {
  policy: Policy
  answerer: Answerer
  appVersion: string
  jobId: string | null
  progress(progress: number, stage: string, message?: string): void
  throwIfCancelled(): void
}

export interface EvaluationSummary {
  runId: number
  episodes: number
  aggregates: ReturnType<typeof aggregate>
  answerer: { name: string; lexical: boolean }
  seconds: number
  /** Episodes and steps whose results a wall-clock safety net cut short (0 and 0: the figures depend on the seed alone). */
  wallClockGuards: { episodes: number; steps: number }
}

/**
 * An evaluation: one episode per question of the split, each stored whole (steps, previews, snapshots,
 * metrics) in its own transaction; aggregates are computed from the stored per-question results.
 * Cancelling stops between episodes and keeps what was stored.
 */
export async function runEvaluation(raw: SQLite.Database, spec: EvaluationSpec, deps: EvaluationDeps): Promise<EvaluationSummary> {
  const t0 = performance.now()
  const questions = loadQuestions(raw, spec)
  if (questions.length === 0) throw new Error(`Question set ${spec.questionSetId} has no questions in that range`)
  const store = new RunStore(raw)
  const { ablation, ...fields } = spec
  const evaluation = {
    ...fields,
    envConfig: resolvedConfig(spec.environment, spec.envConfig),
    // Names carry the model file hash: a run records exactly which policy and answerer it used.
    policy: { ...spec.policy, name: deps.policy.name },
    answerer: { ...spec.answerer, name: deps.answerer.name, lexical: deps.answerer.lexical },
  }
  const config: RunConfig = ablation ? { kind: 'ablation-cell', ...evaluation, ablation } : { kind: 'evaluation', ...evaluation }
  const runId = store.createRun({ kind: 'eval', name: spec.name, config, seed: spec.seed, appVersion: deps.appVersion, corpusSignature: corpusSignature(raw), jobId: deps.jobId })
  const ctx = environmentContext(raw)
  const evidence = new EvidenceResolver(raw)
  const rewarder = rewarderFor(environmentFactory(spec.environment).rewardScheme, raw, spec.rewardWeights)
  const summarise = (): EvaluationSummary => {
    const records = store.metricsOf(runId)
    return {
      runId,
      episodes: records.length,
      aggregates: aggregate(records.map((r) => ({ questionId: r.questionId, variant: null, metrics: r.metrics })), { seed: spec.seed }),
      answerer: { name: deps.answerer.name, lexical: deps.answerer.lexical },
      seconds: (performance.now() - t0) / 1000,
      wallClockGuards: store.wallClockGuards(runId),
    }
  }
  try {
    for (const [i, q] of questions.entries()) {
      deps.throwIfCancelled()
      deps.progress(i / questions.length, 'episodes', `Question ${i + 1}/${questions.length}`)
      const env = createEnvironment(spec.environment, ctx, spec.envConfig)
      // Each question gets its own seed derived from the run seed, so episodes are reproducible one by one.
      const seed = (spec.seed * 1_000_003 + q.rowId) >>> 0
      const trajectory = await runEpisode(env, deps.policy, q, seed, {
        previews: spec.previews,
        maxSteps: 200,
        finish: async (_env, outcome) => {
          const answer = outcome.answer ?? (await deps.answerer.answer(q.question, evidence.evidenceTexts(outcome)))
          return { answer, metrics: { ...scoreEpisode(q, outcome, answer, evidence), ...(rewarder?.(q, outcome) ?? {}) } }
        },
      })
      store.saveEpisode(runId, q.rowId, trajectory)
    }
  } catch (err) {
    const cancelled = err instanceof Error && err.name === 'JobCancelledError'
    store.finishRun(runId, cancelled ? 'cancelled' : 'failed', summarise(), cancelled ? undefined : err instanceof Error ? err.message : String(err))
    throw err
  }
  const summary = summarise()
  store.finishRun(runId, 'done', summary)
  deps.progress(1, 'done', `${summary.episodes} episodes`)
  return summary
}
