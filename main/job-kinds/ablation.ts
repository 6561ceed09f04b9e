import { runAblation, storedAblation } from '../experiments/ablation'
import { defineJobKind } from '../jobs/define-job-kind'
import type { LlmHome } from '../llm/llama-runtime'
import { experimentDeps } from './experiment-deps'
import { trainedModels } from './trained-models'

/** An ablation matrix in a worker thread: its cells (row x seed) with progress each, cancel between episodes, resume from finished cells. */
export const ablationJob = (llm: LlmHome) =>
  defineJobKind({
  kind: 'ablation.run',
  run: async (ctx, { params, db, own }) => {
    const { config } = storedAblation(db.raw, params.ablationId)
    // The GGUF weights its training cells train are saved and registered as train.run's are.
    const models = trainedModels(ctx, own)
    const deps = { ...(await experimentDeps(ctx, own, config.base.answerer, llm)), ...models.deps }
    const summary = await runAblation(db.raw, params.ablationId, deps)
    return { result: summary, message: `Ablation #${summary.ablationId}: ${summary.cells} cells in ${summary.seconds.toFixed(1)} s${models.summary()}` }
  },
})
