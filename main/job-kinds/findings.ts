import { APP_VERSION } from '../config/version'
import { answererFor } from '../experiments/factories'
import { findingsDetail, runFindings } from '../experiments/findings'
import { defineJobKind } from '../jobs/define-job-kind'

/** A findings run in a worker thread: its experiments' ablations in turn (progress per cell, cancel between episodes, resume by cell), then a verdict per claim. */
export const findingsJob = defineJobKind({
  kind: 'findings.run',
  run: async (ctx, { params, db, own }) => {
    const answererSpec = findingsDetail(db.raw, params.findingsId).config.answerer
    const answerer = own(await answererFor(answererSpec), answererSpec.kind === 'gguf' ? answererSpec.modelPath : undefined)
    const summary = await runFindings(db.raw, params.findingsId, {
      answerer: answerer.value,
      answererSpec,
      appVersion: APP_VERSION,
      jobId: ctx.jobId,
      progress: (p, stage, message) => ctx.progress(p, stage, message),
      throwIfCancelled: () => ctx.throwIfCancelled(),
    })
    return { result: summary, message: `Findings #${summary.findingsId}: ${summary.claims} claims in ${summary.seconds.toFixed(0)} s` }
  },
})
