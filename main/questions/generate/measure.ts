/**
 * The acceptance figures of a question set (bench:questions), computed the same way for generated
 * sets and imported benchmarks so the two can stand side by side:
 * - quoting: share of questions holding >= 50% of some gold sentence's content words;
 * - BM25 all-gold@10: share whose question alone, as a BM25 query, already ranks every gold document
 *   among the top 10 documents (no search needed beyond the first);
 * - stop-phrase answers: share whose first answer names nothing ("that year");
 * - reference/list gold: share with a gold sentence the evidence test (evidence.ts) reads as a
 *   reference, list or markup line, end matter, or a line of a list page;
 * - for bridge questions, the share whose words lead to one answer, the gold, through the gold
 *   sentence, under the uniqueness check (bridge-check.ts) reading the question's own text.
 */
import { corpusRepositories, type WorkspaceHandle } from '../../corpus/repository'
import { createRetriever } from '../../retrieval'
import { checkBridge } from './bridge-check'
import { parseBridge } from './bridge-reading'
import { CorpusView } from './corpus-view'
import { REFERENCE_OR_LIST } from './evidence'
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
  referenceGold: number
}

/** Documents ranked by BM25 over chunks (a document at its best chunk's rank), the first k. */
export const TOP_DOCUMENTS = 10
const CHUNKS_SEARCHED = 40

export function questionFigures(raw: WorkspaceHandle, questions: readonly MeasuredQuestion[]): QuestionFigures {
  const retriever = createRetriever(raw)
  const sentences = corpusRepositories(raw).sentences
  const view = new CorpusView(corpusRepositories(raw).questionGeneration)
  let reference = 0
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
    if (q.goldSentenceIds.some((id) => isReferenceOrList(view, id))) reference++
  }
  const n = Math.max(1, questions.length)
  return { questions: questions.length, quoting: quoting / n, bm25AllGold: allGold / n, stopPhraseAnswers: stop / n, referenceGold: reference / n }
}

function isReferenceOrList(view: CorpusView, sentenceId: number): boolean {
  const flaw = view.flaw(sentenceId)
  return flaw !== null && REFERENCE_OR_LIST.has(flaw)
}

export interface BridgeFigures {
  bridges: number
  /** Written in a bridge template (a rewrite or an edit is not). */
  templated: number
  /** Whose words lead to one answer, the gold, through the second gold sentence. */
  unique: number
  /** Reading "Another article mentions the same": the second hop unnamed. */
  unnamedSecondHop: number
}

/** The uniqueness check run on each question's own text against the corpus. */
export function bridgeFigures(raw: WorkspaceHandle, bridges: readonly MeasuredQuestion[]): BridgeFigures {
  const view = new CorpusView(corpusRepositories(raw).questionGeneration)
  let templated = 0
  let unique = 0
  for (const q of bridges) {
    const reading = parseBridge(q.question)
    if (!reading) continue
    templated++
    const verdict = checkBridge(view, reading, q.answers[0] ?? '')
    if (verdict.ok && verdict.sentenceIds.includes(q.goldSentenceIds[q.goldSentenceIds.length - 1] ?? -1)) unique++
  }
  return { bridges: bridges.length, templated, unique, unnamedSecondHop: bridges.filter((q) => q.question.includes('Another article mentions the same')).length }
}
