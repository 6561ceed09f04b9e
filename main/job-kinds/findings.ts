import { findingsDetail, runFindings } from '../experiments/findings'
import { defineJobKind } from '../jobs/define-job-kind'
import type { LlmHome } from '../llm/llama-runtime'
import { experimentDeps } from './experiment-deps'
import { trainedModels } from './trained-models'

/** A findings run in a worker thread: its experiments' ablations in turn (progress per cell, cancel between episodes, resume by cell), then a verdict per claim. */
export const findingsJob = (llm: LlmHome) =>
  defineJobKind({
  kind: 'findings.run',
  run: async (ctx, { params, db, own }) => {
    const answererSpec = findingsDetail(db.raw, params.findingsId).config.answerer
    // The GGUF weights its training arms train are saved and registered as train.run's are.
    const models = trainedModels(ctx, own)
    const deps = { ...(await experimentDeps(ctx, own, answererSpec, llm)), ...models.deps }
    const summary = await runFindings(db.raw, params.findingsId, deps)
    return { result: summary, message: `Findings #${summary.findingsId}: ${summary.claims} claims in ${summary.seconds.toFixed(0)} s${models.summary()}` }
  },
})
