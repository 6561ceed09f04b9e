import { APP_VERSION } from '../config/version'
import { runAblation, storedAblation } from '../experiments/ablation'
import { answererFor } from '../experiments/factories'
import { defineJobKind } from '../jobs/define-job-kind'

/** An ablation matrix in a worker thread: its cells (row x seed) with progress each, cancel between episodes, resume from finished cells. */
export const ablationJob = defineJobKind({
  kind: 'ablation.run',
  run: async (ctx, { params, db, own }) => {
    const { config } = storedAblation(db.raw, params.ablationId)
    const answererSpec = config.base.answerer
    const answerer = own(await answererFor(answererSpec), answererSpec.kind === 'gguf' ? answererSpec.modelPath : undefined)
    const summary = await runAblation(db.raw, params.ablationId, {
      answerer: answerer.value,
      answererSpec,
      appVersion: APP_VERSION,
      jobId: ctx.jobId,
      progress: (p, stage, message) => ctx.progress(p, stage, message),
      throwIfCancelled: () => ctx.throwIfCancelled(),
    })
    return { result: summary, message: `Ablation #${summary.ablationId}: ${summary.cells} cells in ${summary.seconds.toFixed(1)} s` }
  },
})
