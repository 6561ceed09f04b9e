/**
 * The acceptance figures of a question set (bench:questions), computed the same way for generated
 * sets and imported benchmarks so the two can stand side by side:
 * - quoting: share of questions holding >= 50% of some gold sentence's content words;
 * - BM25 all-gold@10: share whose question alone, as a BM25 query, already ranks every gold document
 *   among the top 10 documents (no search needed beyond the first);
 * - stop-phrase answers: share whose first answer names nothing ("that year").
 */
import { corpusRepositories, type WorkspaceHandle } from '../../corpus/repository'
import { createRetriever } from '../../retrieval'
import { goldQuoteShare, isStopPhrase, QUOTE_SHARE } from './quality'

export interface MeasuredQuestion {
  question: string
  answers: readonly string[]
  goldSentenceIds: readonly number[]
  goldDocumentIds: readonly number[]
}

export interface QuestionFigures {
  questions: number
  quoting: number
  bm25AllGold: number
  stopPhraseAnswers: number
}

/** Documents ranked by BM25 over chunks (a document at its best chunk's rank), the first k. */
export const TOP_DOCUMENTS = 10
const CHUNKS_SEARCHED = 40

export function questionFigures(raw: WorkspaceHandle, questions: readonly MeasuredQuestion[]): QuestionFigures {
  const retriever = createRetriever(raw)
  const sentences = corpusRepositories(raw).sentences
  let quoting = 0
  let allGold = 0
  let stop = 0
  for (const q of questions) {
    const gold = q.goldSentenceIds.map((id) => sentences.span(id)?.text).filter((t): t is string => t !== undefined)
    if (goldQuoteShare(q.question, gold) >= QUOTE_SHARE) quoting++
    const top: number[] = []
    for (const hit of retriever.searchBm25(q.question, CHUNKS_SEARCHED).hits) {
      if (!top.includes(hit.documentId)) top.push(hit.documentId)
      if (top.length >= TOP_DOCUMENTS) break
    }
    if (q.goldDocumentIds.length > 0 && q.goldDocumentIds.every((d) => top.includes(d))) allGold++
    if (q.answers[0] === undefined || isStopPhrase(q.answers[0])) stop++
  }
  const n = Math.max(1, questions.length)
  return { questions: questions.length, quoting: quoting / n, bm25AllGold: allGold / n, stopPhraseAnswers: stop / n }
}
