import { defineJobKind } from '../jobs/define-job-kind'
import type { LlmHome } from '../llm/llama-runtime'
import { generateQuestionSet, openQuestionRewriter } from '../questions'

/**
 * Question generation as a job: progress by stage, cancellable (between rewrite batches too); the set is
 * written in one transaction at the end. A rewrite model is held for the rewrite only and reported to the
 * job manager while held. The model loads through `llm`, the LLM home the composition root hands it.
 */
export const questionsGenerateJobWith = (llm: LlmHome) =>
  defineJobKind({
    kind: 'questions.generate',
    run: async (ctx, { params, db, own }) => {
      const result = await generateQuestionSet(
        db.raw,
        params,
        { progress: (p, stage, message) => ctx.progress(p, stage, message), throwIfCancelled: () => ctx.throwIfCancelled() },
        async (path) => {
          const rewriter = await openQuestionRewriter(path, await llm())
          // Released by generateQuestionSet when the rewrite ends; owning it as well releases it on any failure, and reports the hold.
          return own(rewriter, path)
        },
      )
      const kept = Object.entries(result.kept).map(([k, n]) => `${n} ${k}`).join(', ')
      const rw = result.rewrite
      const rewritten = rw ? `; rewritten by ${rw.model}: ${rw.accepted} accepted, ${Object.values(rw.rejected).reduce((a, b) => a + b, 0)} rejected${rw.overBudget ? `, ${rw.overBudget} over budget` : ''}` : ''
      return { result, message: `Question set #${result.setId}: ${kept} (from ${Object.values(result.candidates).reduce((a, b) => a + b, 0)} candidates)${rewritten}` }
    },
  })

