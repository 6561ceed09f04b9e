/**
 * The optional GGUF rewrite of generated questions: each kept question, up to the budget, goes through
 * the model with a short instruction; every reply is checked (rewrite-check.ts) and only a reply that
 * passes replaces the template. Each question records what happened, with the model file and hash.
 * The model is leased from the LLM home's cache (main/llm/), so a job holding it shows on the Models page.
 */
import type { QuestionProvenance, QuestionRewriteOptions, RewriteCounts } from '../../../preload/contract'
import { PolicyError } from '../../llm/errors'
import { instructLine, renderInstruct, type InstructLine, type InstructPrompt } from '../../llm/instruct-line'
import type { LlamaRuntime } from '../../llm/llama-runtime'
import { describeModel, modelCacheFor } from '../../llm/model-cache'
import { checkRewrite } from './rewrite-check'
import type { GeneratedQuestion } from './types'

/** A model that writes one line after an instruction, named as run records name models. */
export interface QuestionRewriter {
  /** "<file name>@<first 12 hex of SHA-256>" */
  readonly model: string
  readonly sha256: string
  /** 'plain' or the model's chat template wrapper. */
  readonly promptTemplate: string
  /** Prompts written at once (the pool's sequences decode in one batch). */
  readonly parallel: number
  /** null when the prompt does not fit the context. */
  write(prompt: InstructPrompt, maxTokens: number): Promise<InstructLine | null>
  dispose(): Promise<void>
}

export const REWRITE_SYSTEM_PROMPT =
  'You rewrite quiz questions so they read naturally. Keep every name in double quotes exactly as written. ' +
  'Do not add facts, do not answer, do not name anything the question only describes. Reply with the rewritten question only: one sentence ending with "?".'

export const rewritePrompt = (question: string): InstructPrompt => ({ system: REWRITE_SYSTEM_PROMPT, user: `Question: ${question}`, cue: 'Rewritten question:' })

const SEQUENCES = 4
const CONTEXT = 1024

/** Opens the model at `modelPath` through the LLM home's cache (bad files fail here with a clear ModelFileError). */
export async function openQuestionRewriter(modelPath: string, runtime: LlamaRuntime): Promise<QuestionRewriter> {
  // Read from the header first: a missing or bad file, or an embedding model, fails before anything loads.
  const file = await describeModel(modelPath)
  if (file.isEmbeddingModel) throw new PolicyError('invalid-input', `${modelPath} looks like an embedding model (${file.embeddingReasons.join('; ')}): a rewrite needs a generator`)
  // The context is as long as the model allows, up to CONTEXT tokens.
  const lease = await modelCacheFor(runtime).lease(modelPath, { sequences: SEQUENCES, contextSize: Math.min(CONTEXT, file.contextLength ?? CONTEXT) })
  return {
    model: lease.modelId,
    sha256: lease.file.sha256!,
    promptTemplate: renderInstruct(lease.pool.model, rewritePrompt('?')).template,
    parallel: lease.pool.size,
    write: async (prompt, maxTokens) => {
      // A question too long for a small model's context is refused as such, not a failed job.
      if (renderInstruct(lease.pool.model, prompt).tokens.length + maxTokens > lease.pool.context.contextSize) return null
      return instructLine(lease.pool, prompt, maxTokens)
    },
    dispose: () => lease.release(),
  }
}

export interface RewriteReporter {
  progress(done: number, total: number): void
  throwIfCancelled(): void
}

export interface RewriteOutcome {
  /** The questions in their order, each with its stored text and rewrite record. */
  questions: Array<{ question: GeneratedQuestion; rewrite: NonNullable<QuestionProvenance['rewrite']> }>
  counts: RewriteCounts
  seconds: number
}

/**
 * Rewrites `questions` (in order, the first `maxQuestions`), a batch of `rewriter.parallel` at a time:
 * cancellation is checked and progress reported between batches. `goldTexts(q)` gives the gold
 * sentences' text for the quoting check.
 */
export async function rewriteQuestions(
  questions: readonly GeneratedQuestion[],
  goldTexts: (q: GeneratedQuestion) => string[],
  rewriter: QuestionRewriter,
  options: Pick<QuestionRewriteOptions, 'maxQuestions' | 'maxTokens'>,
  reporter: RewriteReporter,
): Promise<RewriteOutcome> {
  const t0 = performance.now()
  const counts: RewriteCounts = { model: rewriter.model, accepted: 0, rejected: {}, overBudget: 0 }
  const base = { model: rewriter.model, sha256: rewriter.sha256 }
  const sent = questions.slice(0, options.maxQuestions)
  const out: RewriteOutcome['questions'] = []
  const batch = Math.max(1, rewriter.parallel)
  for (let i = 0; i < sent.length; i += batch) {
    reporter.throwIfCancelled()
    const group = sent.slice(i, i + batch)
    const lines = await Promise.all(group.map((q) => rewriter.write(rewritePrompt(q.question), options.maxTokens)))
    for (const [j, q] of group.entries()) {
      const line = lines[j]!
      const verdict = line === null ? ({ ok: false, reason: 'too-long-prompt', because: 'the instruction and the question do not fit the model context' } as const) : checkRewrite(q, goldTexts(q), line.text)
      const output = line?.text
      if (verdict.ok) {
        counts.accepted++
        out.push({ question: { ...q, question: verdict.text }, rewrite: { ...base, status: 'accepted', template: q.question, output } })
      } else {
        counts.rejected[verdict.reason] = (counts.rejected[verdict.reason] ?? 0) + 1
        out.push({ question: q, rewrite: { ...base, status: 'rejected', template: q.question, ...(output !== undefined ? { output } : {}), reason: verdict.reason, because: verdict.because } })
      }
    }
    reporter.progress(Math.min(sent.length, i + batch), sent.length)
  }
  for (const q of questions.slice(sent.length)) {
    counts.overBudget++
    out.push({ question: q, rewrite: { ...base, status: 'over-budget', template: q.question } })
  }
  return { questions: out, counts, seconds: (performance.now() - t0) / 1000 }
}
