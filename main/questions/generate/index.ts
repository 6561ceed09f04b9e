/**
 * Questions generated from the corpus itself: bridge and comparison questions from the graph
 * (entities, mentions, sentences), with gold answers and gold sentences, deterministic by seed; an
 * optional rewrite through a GGUF model rewords them, each rewrite checked before it is kept.
 * Each question stores its provenance; the answer filter keeps only those whose answer is not in the
 * question. The set is written in one transaction at the end, so a cancelled run leaves nothing.
 */
import type { GenerationDrop, GenerationReport, QuestionGenerateParams, QuestionGenerateResult, QuestionProvenance } from '../../../preload/contract'
import { corpusRepositories, questionColumns, type WorkspaceHandle } from '../../corpus/repository'
import { seededRandom } from '../../eval/bootstrap'
import { QuestionSetError } from '../errors'
import { answerInQuestion } from '../view'
import { bridgeQuestions } from './bridge'
import { comparisonQuestions } from './comparison'
import { CorpusView } from './corpus-view'
import type { Outcomes } from './outcomes'
import { rewriteQuestions, type QuestionRewriter } from './rewrite'
import type { GeneratedQuestion } from './types'

export type { GeneratedQuestion, GoldSentenceRef } from './types'
export { checkRewrite, cleanRewrite, type RewriteVerdict } from './rewrite-check'
export { openQuestionRewriter, rewritePrompt, rewriteQuestions, REWRITE_SYSTEM_PROMPT, type QuestionRewriter, type RewriteOutcome } from './rewrite'

export interface GenerateReporter {
  progress(progress: number, stage: string, message?: string): void
  throwIfCancelled(): void
}

export const silentReporter: GenerateReporter = { progress: () => undefined, throwIfCancelled: () => undefined }

/** The questions of the requested kinds that passed the checks (before the answer filter and the cap), in the seed's order, and the candidates the checks dropped. */
export interface Generated {
  questions: GeneratedQuestion[]
  /** By kind, then reason. */
  dropped: Record<string, Outcomes['dropped']>
}

export function generateCandidates(raw: WorkspaceHandle, params: Pick<QuestionGenerateParams, 'seed' | 'kinds' | 'maxPerKind'>, reporter: GenerateReporter = silentReporter): Generated {
  const repo = corpusRepositories(raw).questionGeneration
  const view = new CorpusView(repo, reporter.throwIfCancelled)
  // Each kind draws from its own stream, so asking for one kind does not change the other's questions.
  const out: Generated = { questions: [], dropped: {} }
  // Questions beyond the cap leave room for the answer filter.
  const cap = params.maxPerKind * 4
  const add = (kind: string, o: Outcomes): void => {
    out.questions.push(...o.questions)
    out.dropped[kind] = o.dropped
  }
  if (params.kinds.includes('bridge')) {
    reporter.progress(0.05, 'bridges', 'Joining documents by shared entities; checking each question has one answer')
    add('bridge', bridgeQuestions(repo, view, { rand: seededRandom(params.seed), cap, throwIfCancelled: reporter.throwIfCancelled, progress: (s) => reporter.progress(0.05 + 0.5 * s, 'bridges') }))
  }
  if (params.kinds.includes('comparison')) {
    reporter.progress(0.55, 'comparisons', 'Pairing dated and numeric facts')
    add('comparison', comparisonQuestions(repo, view, { rand: seededRandom(params.seed ^ 0x5bd1e995), cap, throwIfCancelled: reporter.throwIfCancelled }))
  }
  return out
}

export interface GeneratedSet {
  kept: GeneratedQuestion[]
  result: Omit<QuestionGenerateResult, 'setId' | 'seconds' | 'rewrite'>
}

const KINDS = ['bridge', 'comparison'] as const

/** Filtered (answer not in question, when asked) and capped per kind; every candidate not kept is counted by reason. */
export function selectGenerated(generated: Generated, params: Pick<QuestionGenerateParams, 'maxPerKind' | 'answerNotInQuestion'>): GeneratedSet {
  const { questions } = generated
  const count = (xs: readonly GeneratedQuestion[]): Record<string, number> => Object.fromEntries(KINDS.map((k) => [k, xs.filter((q) => q.kind === k).length]))
  const leaking = questions.filter((q) => answerInQuestion(q.question, q.answers))
  const pool = params.answerNotInQuestion ? questions.filter((q) => !leaking.includes(q)) : [...questions]
  const kept: GeneratedQuestion[] = []
  const per = new Map<string, number>()
  const ids = new Set<string>()
  const dropped: GenerationReport['dropped'] = {}
  const drop = (reason: GenerationDrop, kind: string, n = 1): void => {
    if (n === 0) return
    const row = (dropped[reason] ??= {})
    row[kind] = (row[kind] ?? 0) + n
  }
  for (const [kind, reasons] of Object.entries(generated.dropped)) for (const [reason, n] of Object.entries(reasons)) drop(reason as GenerationDrop, kind, n)
  if (params.answerNotInQuestion) for (const q of leaking) drop('answer-in-question', q.kind)
  for (const q of pool) {
    if ((per.get(q.kind) ?? 0) >= params.maxPerKind || ids.has(q.externalId)) {
      drop('over-cap', q.kind)
      continue
    }
    per.set(q.kind, (per.get(q.kind) ?? 0) + 1)
    ids.add(q.externalId)
    kept.push(q)
  }
  const candidates = count(questions)
  for (const [kind, reasons] of Object.entries(generated.dropped)) candidates[kind] = (candidates[kind] ?? 0) + Object.values(reasons).reduce((a, b) => a + (b ?? 0), 0)
  return { kept, result: { kept: count(kept), candidates, answerInQuestion: count(leaking), dropped } }
}

/** Opens the rewrite model when the params ask for one (after the cheap checks and the candidates). */
export type OpenRewriter = (modelPath: string) => Promise<QuestionRewriter>

/** For callers that hold no model: asking for a rewrite is then an error that says so. */
const noRewriter: OpenRewriter = async (path) => {
  throw new Error(`A rewrite with ${path} needs a model, and this caller opened none: pass an OpenRewriter (see openQuestionRewriter)`)
}

/**
 * Generates and stores a new question set; returns its id and the yields. With `params.rewrite`, the
 * kept questions go through the model (rewrite.ts) before the set is written; the model is opened by
 * `openRewriter` and released before the write.
 */
export async function generateQuestionSet(raw: WorkspaceHandle, params: Omit<QuestionGenerateParams, 'rewrite'> & { rewrite?: QuestionGenerateParams['rewrite'] }, reporter: GenerateReporter = silentReporter, openRewriter: OpenRewriter = noRewriter): Promise<QuestionGenerateResult> {
  const t0 = performance.now()
  const repos = corpusRepositories(raw)
  const repo = repos.questions
  if (repo.setIdByName(params.name) !== undefined) throw new QuestionSetError('conflict', `A question set named "${params.name}" exists already: pick another name`)
  const { kept, result } = selectGenerated(generateCandidates(raw, params, reporter), params)
  reporter.throwIfCancelled()
  let stored: Array<{ question: GeneratedQuestion; rewrite?: QuestionProvenance['rewrite'] }> = kept.map((question) => ({ question }))
  let rewrite: QuestionGenerateResult['rewrite'] = null
  if (params.rewrite) {
    const options = params.rewrite
    reporter.progress(0.6, 'rewrite', `Loading ${options.modelPath}`)
    const rewriter = await openRewriter(options.modelPath)
    try {
      const sentences = repos.sentences
      const goldTexts = (q: GeneratedQuestion): string[] => q.gold.map((g) => sentences.withTitle(g.sentenceId)?.text ?? '')
      const outcome = await rewriteQuestions(kept, goldTexts, rewriter, options, {
        throwIfCancelled: reporter.throwIfCancelled,
        progress: (done, total) => reporter.progress(0.6 + (0.3 * done) / Math.max(1, total), 'rewrite', `${done}/${total} rewritten with ${rewriter.model}`),
      })
      stored = outcome.questions
      const attempted = Math.min(kept.length, options.maxQuestions)
      rewrite = { ...outcome.counts, promptTemplate: rewriter.promptTemplate, seconds: outcome.seconds, questionsPerSecond: outcome.seconds > 0 ? attempted / outcome.seconds : 0 }
    } finally {
      await rewriter.dispose()
    }
  }
  reporter.throwIfCancelled()
  reporter.progress(0.9, 'writing', `Storing ${kept.length} questions`)
  const setId = raw.transaction(() => {
    const report: GenerationReport = { kind: 'generation', seed: params.seed, candidates: result.candidates, kept: result.kept, dropped: result.dropped }
    const id = repo.createSet(params.name, `generated:seed=${params.seed}${rewrite ? `;rewrite=${rewrite.model}` : ''}`, questionColumns.generation.write(report))
    for (const { question: q, rewrite: record } of stored) {
      const provenance: QuestionProvenance = {
        origin: 'generated',
        kind: q.form,
        detail: q.detail,
        answerInQuestion: answerInQuestion(q.question, q.answers),
        marks: q.gold.map((g) => g.contains),
        ...(record ? { rewrite: record } : {}),
      }
      repo.insert(id, {
        externalId: q.externalId,
        question: q.question,
        answersJson: JSON.stringify(q.answers),
        type: q.kind,
        supportingFactsJson: JSON.stringify(q.gold.map((g) => ({ title: g.title, sentence: g.ord }))),
        supportingDocsJson: JSON.stringify([...new Set(q.gold.map((g) => g.externalId))]),
        split: null,
        metaJson: JSON.stringify(provenance),
      })
    }
    return id
  }).immediate()
  reporter.progress(1, 'done', `${kept.length} questions`)
  return { setId, ...result, seconds: (performance.now() - t0) / 1000, rewrite }
}
