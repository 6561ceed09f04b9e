import type { TrainConfig, TrainConfigRequest } from '../../preload/contract'
import { runResolvedTraining, storedTrainConfig } from '../experiments/training'
import { defineJobKind } from '../jobs/define-job-kind'
import type { LlmHome } from '../llm/llama-runtime'
import { metricInfo } from '../experiments/metrics'
import { headlineMetric } from '../rl/reward-schemes'
import { experimentDeps } from './experiment-deps'
import { trainedModels } from './trained-models'

/** The preflight stores a new run's config resolved; one without its reward, credit or estimator was queued without it. */
const queuedResolved = (config: TrainConfigRequest): TrainConfig => {
  const { reward, credit, estimator } = config
  if (reward === undefined || credit === undefined || estimator === undefined) throw new Error(`This training job was queued without its config resolved (no ${reward === undefined ? 'reward' : credit === undefined ? 'credit' : 'estimator'}): start it again`)
  // A warm start left undefined was queued by a version without one: it runs without, as it was checked.
  return { ...config, reward, credit, estimator, warmStart: config.warmStart ?? null }
}

/** A training run (or the rest of one) in a worker thread: progress per step, cancel between rollouts. */
export const trainJob = (llm: LlmHome) =>
  defineJobKind({
  kind: 'train.run',
  run: async (ctx, { params, db, own }) => {
    // The config was resolved and checked by the preflight before the job was queued (a resumed run's, when
    // it was created): parsed once more at this thread boundary, it runs as it was checked.
    const { config, answerer } = params.mode === 'new' ? { config: queuedResolved(params.config), answerer: params.answerer } : storedTrainConfig(db.raw, params.runId)
    const models = trainedModels(ctx, own)
    const deps = { ...(await experimentDeps(ctx, own, answerer, llm)), ggufDir: models.dir }
    const result = await runResolvedTraining(db.raw, config, deps, params.mode === 'resume' ? params.runId : null)
    // A GGUF run's final weights become a registered model (provenance: the run's summary and <file>.provenance.json).
    let registered = ''
    if (result.model) {
      registered = ` · model ${(await models.register(result.model)).name} registered`
    }
    // The headline is the metric the run's own reward follows (paragraph F1 on paragraph gold).
    const metric = headlineMetric(result.config.reward) ?? 'sp.f1'
    const before = result.before?.aggregates[metric]?.mean ?? null
    const after = result.after?.aggregates[metric]?.mean ?? null
    const pct = (v: number | null) => (v === null ? '–' : (v * 100).toFixed(1))
    return { result: { runId: result.runId, steps: result.steps, before, after, metric }, message: `Run #${result.runId}: ${result.steps} steps · held-out ${metricInfo(metric).label} ${pct(before)} → ${pct(after)} (greedy ${result.model ? 'GGUF policy' : 'head'})${registered}` }
  },
})
