/** What the Questions page and the CLI read: a set with its splits and report, questions with their gold sentences' text, a question's episodes. */
import type { QuestionDetail, QuestionFilter, QuestionProvenance, QuestionSetDetail, RewriteCounts } from '../../preload/contract'
import { resolveGoldAll, type ResolvedGold } from '../corpus/gold'
import { corpusRepositories, questionColumns, setReports, type QuestionRecord, type WorkspaceHandle } from '../corpus/repository'
import { episodeColumns } from '../db/episode-columns'
import { normaliseAnswer } from '../eval/normalise'
import { QuestionSetError } from './errors'
import type { QuestionUsage } from './usage'

export function questionSetDetail(raw: WorkspaceHandle, usage: QuestionUsage, setId: number): QuestionSetDetail {
  const repo = corpusRepositories(raw).questions
  const set = repo.set(setId)
  if (!set) throw new QuestionSetError('not-found', `No question set ${setId}`)
  return {
    id: set.id,
    name: set.name,
    source: set.source,
    createdAt: set.createdAt,
    questions: set.questions,
    splitSpec: questionColumns.splitSpec.readNullable(set.splitJson),
    splits: repo.splitCounts(setId),
    // Questions in no split, whether or not the set was ever split (an unsplit set has all of them unassigned).
    unassigned: repo.unassigned(setId),
    usedBy: usage.usedBy(setId),
    ...setReports(set.reportJson),
    rewrites: rewriteSummary(repo.rewriteCounts(setId)),
  }
}

/** Rows by (model, status, reason) folded into one RewriteCounts per model. */
function rewriteSummary(rows: ReadonlyArray<{ model: string; status: string; reason: string | null; n: number }>): RewriteCounts[] {
  const by = new Map<string, RewriteCounts>()
  for (const r of rows) {
    let c = by.get(r.model)
    if (!c) by.set(r.model, (c = { model: r.model, accepted: 0, rejected: {}, overBudget: 0 }))
    if (r.status === 'accepted') c.accepted += r.n
    else if (r.status === 'over-budget') c.overBudget += r.n
    else c.rejected[r.reason ?? 'unknown'] = (c.rejected[r.reason ?? 'unknown'] ?? 0) + r.n
  }
  return [...by.values()]
}

const provenanceOf = (r: QuestionRecord): QuestionProvenance => questionColumns.meta.readNullable(r.meta_json) ?? { origin: 'benchmark' }

/** The answer (any alias) occurs in the question, compared normalised (case, punctuation, articles). */
export function answerInQuestion(question: string, answers: readonly string[]): boolean {
  const q = ` ${normaliseAnswer(question)} `
  return answers.some((a) => {
    const n = normaliseAnswer(a)
    return n !== '' && q.includes(` ${n} `)
  })
}

const names = (r: QuestionRecord) => ({
  supportingFacts: questionColumns.supportingFacts.read(r.supporting_facts_json),
  supportingDocs: questionColumns.supportingDocs.read(r.supporting_docs_json),
})

export function toDetail(raw: WorkspaceHandle, r: QuestionRecord, gold: ResolvedGold): QuestionDetail {
  const lookup = corpusRepositories(raw).questionGold
  const answers = questionColumns.answers.read(r.answers_json)
  return {
    id: r.id,
    externalId: r.external_id,
    question: r.question,
    answers,
    type: r.type,
    split: r.split,
    provenance: provenanceOf(r),
    ...names(r),
    goldSentences: gold.facts.map((f) => {
      const s = f.sentenceId !== null ? lookup.sentence(f.sentenceId) : undefined
      return { title: f.title, sentence: f.sentence, documentId: f.documentId, sentenceId: f.sentenceId, chunkId: s?.chunkId ?? null, text: s?.text ?? null }
    }),
    goldDocuments: gold.documents,
    missing: gold.missing,
  }
}

/** A page of the set's questions matching the filter, by id. */
export function searchQuestions(raw: WorkspaceHandle, setId: number, filter: QuestionFilter, offset: number, limit: number): { total: number; questions: QuestionDetail[] } {
  const repo = corpusRepositories(raw).questions
  if (!repo.set(setId)) throw new QuestionSetError('not-found', `No question set ${setId}`)
  const text = filter.text?.trim().toLowerCase()
  let rows = repo.all(setId).filter((r) => {
    // '-' selects the questions in no split.
    if (filter.split !== undefined && (filter.split === '-' ? r.split !== null : r.split !== filter.split)) return false
    if (filter.type !== undefined && r.type !== filter.type) return false
    if (filter.origin !== undefined && provenanceOf(r).origin !== filter.origin) return false
    if (text && !r.question.toLowerCase().includes(text) && !r.answers_json.toLowerCase().includes(text)) return false
    if (filter.answerNotInQuestion && answerInQuestion(r.question, questionColumns.answers.read(r.answers_json))) return false
    return true
  })
  let gold: ResolvedGold[] | null = null
  if (filter.unresolved) {
    gold = resolveGoldAll(raw, rows.map(names))
    const keep = gold.map((g) => g.missing.length > 0)
    rows = rows.filter((_, i) => keep[i])
    gold = gold.filter((_, i) => keep[i])
  }
  const page = rows.slice(offset, offset + limit)
  const pageGold = gold ? gold.slice(offset, offset + limit) : resolveGoldAll(raw, page.map(names))
  return { total: rows.length, questions: page.map((r, i) => toDetail(raw, r, pageGold[i]!)) }
}

/** A question's episodes across runs, newest run first. */
export function questionEpisodes(usage: QuestionUsage, questionId: number, limit: number) {
  return usage.episodes(questionId, limit).map((e) => ({
    episodeId: e.episodeId,
    runId: e.runId,
    runName: e.runName,
    runKind: e.runKind,
    trainStep: e.trainStep,
    answer: e.answer,
    turns: e.turns,
    metrics: episodeColumns.metrics.read(e.metricsJson),
  }))
}
