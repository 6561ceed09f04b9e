import { APP_VERSION } from '../config/version'
import { metricInfo } from '../experiments/metrics'
import { runEvaluation } from '../experiments/runs/evaluate'
import { answererFor, policyFor, policyLabel, resolvedPolicySpec } from '../experiments/factories'
import { defineJobKind } from '../jobs/define-job-kind'
import type { LlmHome } from '../llm/llama-runtime'

/** "F1 (official HotpotQA/2Wiki) 45.3%": the catalogue's label and the pages' unit convention. */
const figure = (aggregates: Record<string, { mean: number | null } | undefined>, name: string): string => {
  const info = metricInfo(name)
  const v = aggregates[name]?.mean
  const value = v === null || v === undefined ? '–' : info.format === 'fraction' ? `${(v * 100).toFixed(1)}%` : v.toFixed(3)
  return `${info.label} ${value}`
}

/** An evaluation over a question split, in a worker thread with its own database connection and models. */
export const evalJob = (llm: LlmHome) =>
  defineJobKind({
  kind: 'eval.run',
  run: async (ctx, { params, db, own }) => {
    // Owned in order, closed in reverse: answerer, policy, then the database. The model files they load are reported as held.
    const policy = own(await policyFor(params.policy, params.environment, db.raw, params.envConfig, llm), params.policy.kind === 'llm' ? params.policy.modelPath : undefined)
    const answerer = own(await answererFor(params.answerer, llm), params.answerer.kind === 'gguf' ? params.answerer.modelPath : undefined)
    // A trained policy is recorded with the step it played ("head · training run 3 · step 20").
    const spec = resolvedPolicySpec(params.policy, db.raw)
    const summary = await runEvaluation(
      db.raw,
      { ...params, policy: spec, name: params.name || `${params.environment} · ${policyLabel(spec)}` },
      {
        policy: policy.value,
        answerer: answerer.value,
        appVersion: APP_VERSION,
        jobId: ctx.jobId,
        progress: (p, stage, message) => ctx.progress(p, stage, message),
        throwIfCancelled: () => ctx.throwIfCancelled(),
      },
    )
    const a = summary.aggregates
    // The evidence figures are the F1s the Runs table and training headline show by default, not the recalls.
    const shown = ['answer.em.official', 'answer.f1.official', 'sp.f1', 'paragraph.f1'].filter((m) => a[m] !== undefined)
    const message = `Run #${summary.runId}: ${summary.episodes} episodes · ${shown.map((m) => figure(a, m)).join(' · ')} · answerer: ${summary.answerer.name}`
    return { result: { runId: summary.runId, episodes: summary.episodes, seconds: summary.seconds }, message }
  },
})
