import { defineJobKind } from '../jobs/define-job-kind'
import { generateQuestionSet } from '../questions'

/** Question generation as a job: progress by stage, cancellable; the set is written in one transaction at the end. */
export const questionsGenerateJob = defineJobKind({
  kind: 'questions.generate',
  run: async (ctx, { params, db }) => {
    const result = generateQuestionSet(db.raw, params, { progress: (p, stage, message) => ctx.progress(p, stage, message), throwIfCancelled: () => ctx.throwIfCancelled() })
    const kept = Object.entries(result.kept).map(([k, n]) => `${n} ${k}`).join(', ')
    return { result, message: `Question set #${result.setId}: ${kept} (from ${Object.values(result.candidates).reduce((a, b) => a + b, 0)} candidates)` }
  },
})
