/**
 * Questions generated from the corpus itself, with no LLM: bridge and comparison questions from the
 * graph (entities, mentions, sentences), with gold answers and gold sentences, deterministic by seed.
 * Each question stores its provenance; the answer filter keeps only those whose answer is not in the
 * question. The set is written in one transaction at the end, so a cancelled run leaves nothing.
 */
import type { QuestionGenerateParams, QuestionGenerateResult, QuestionProvenance } from '../../../preload/contract'
import { corpusRepositories, type WorkspaceHandle } from '../../corpus/repository'
import { seededRandom } from '../../eval/bootstrap'
import { QuestionSetError } from '../errors'
import { answerInQuestion } from '../view'
import { bridgeQuestions } from './bridge'
import { comparisonQuestions } from './comparison'
import type { GeneratedQuestion } from './types'

export type { GeneratedQuestion, GoldSentenceRef } from './types'

export interface GenerateReporter {
  progress(progress: number, stage: string, message?: string): void
  throwIfCancelled(): void
}

export const silentReporter: GenerateReporter = { progress: () => undefined, throwIfCancelled: () => undefined }

/** Every candidate of the requested kinds (before the answer filter and the cap), in the seed's order. */
export function generateCandidates(raw: WorkspaceHandle, params: Pick<QuestionGenerateParams, 'seed' | 'kinds' | 'maxPerKind'>, reporter: GenerateReporter = silentReporter): GeneratedQuestion[] {
  const repo = corpusRepositories(raw).questionGeneration
  // Each kind draws from its own stream, so asking for one kind does not change the other's questions.
  const out: GeneratedQuestion[] = []
  // Candidates beyond the cap leave room for the answer filter.
  const cap = params.maxPerKind * 4
  if (params.kinds.includes('bridge')) {
    reporter.progress(0.05, 'bridges', 'Joining documents by shared entities')
    out.push(...bridgeQuestions(repo, { rand: seededRandom(params.seed), cap, throwIfCancelled: reporter.throwIfCancelled, progress: (s) => reporter.progress(0.05 + 0.5 * s, 'bridges') }))
  }
  if (params.kinds.includes('comparison')) {
    reporter.progress(0.55, 'comparisons', 'Pairing dated and numeric facts')
    out.push(...comparisonQuestions(repo, { rand: seededRandom(params.seed ^ 0x5bd1e995), cap, throwIfCancelled: reporter.throwIfCancelled }))
  }
  return out
}

export interface GeneratedSet {
  kept: GeneratedQuestion[]
  result: Omit<QuestionGenerateResult, 'setId' | 'seconds'>
}

/** Candidates filtered (answer not in question, when asked) and capped per kind. */
export function selectGenerated(candidates: readonly GeneratedQuestion[], params: Pick<QuestionGenerateParams, 'maxPerKind' | 'answerNotInQuestion'>): GeneratedSet {
  const count = (xs: readonly GeneratedQuestion[]): Record<string, number> => Object.fromEntries(['bridge', 'comparison'].map((k) => [k, xs.filter((q) => q.kind === k).length]))
  const leaking = candidates.filter((q) => answerInQuestion(q.question, q.answers))
  const pool = params.answerNotInQuestion ? candidates.filter((q) => !leaking.includes(q)) : [...candidates]
  const kept: GeneratedQuestion[] = []
  const per = new Map<string, number>()
  const ids = new Set<string>()
  for (const q of pool) {
    if ((per.get(q.kind) ?? 0) >= params.maxPerKind || ids.has(q.externalId)) continue
    per.set(q.kind, (per.get(q.kind) ?? 0) + 1)
    ids.add(q.externalId)
    kept.push(q)
  }
  return { kept, result: { kept: count(kept), candidates: count(candidates), answerInQuestion: count(leaking) } }
}

/** Generates and stores a new question set; returns its id and the yields. */
export function generateQuestionSet(raw: WorkspaceHandle, params: QuestionGenerateParams, reporter: GenerateReporter = silentReporter): QuestionGenerateResult {
  const t0 = performance.now()
  const repo = corpusRepositories(raw).questions
  if (repo.setIdByName(params.name) !== undefined) throw new QuestionSetError('conflict', `A question set named "${params.name}" exists already: pick another name`)
  const { kept, result } = selectGenerated(generateCandidates(raw, params, reporter), params)
  reporter.throwIfCancelled()
  reporter.progress(0.9, 'writing', `Storing ${kept.length} questions`)
  const setId = raw.transaction(() => {
    const id = repo.createSet(params.name, `generated:seed=${params.seed}`, null)
    for (const q of kept) {
      const provenance: QuestionProvenance = { origin: 'generated', kind: q.form, detail: q.detail, answerInQuestion: answerInQuestion(q.question, q.answers) }
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
  return { setId, ...result, seconds: (performance.now() - t0) / 1000 }
}
