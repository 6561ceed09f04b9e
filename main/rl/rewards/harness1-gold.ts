/**
 * Harness-1 recalls for one episode, from chunk ids and a question's resolved gold (main/corpus/gold.ts:
 * documents and sentences by id), at document or fact level.
 * - Document level: gold = the question's gold documents; a curated chunk covers its whole document.
 *   Answer-bearing: the document text contains a gold answer.
 * - Fact level: gold = the gold sentences; a chunk covers a fact when it holds at least half of the
 *   sentence's characters. Answer-bearing: the sentence contains a gold answer.
 * Gold the corpus does not hold (or that cannot be pinned to one document) still counts, as never
 * covered: recall is measured against the question, not against what ingest happened to keep. A
 * fact-level request on a question without supporting facts falls back to document level, and says so.
 * scoreEpisode (main/experiments/metrics/score.ts) computes its paragraph and Harness-1 recalls with
 * goldDocumentRecalls too, so evaluation metrics and the reward agree on the same evidence.
 */
import { documentKey, goldDocumentUnits, goldFactUnits, type ChunkSpan, type GoldEvidence, type ResolvedGold } from '../../corpus/gold'
import { documentRecalls, harness1Recalls, type AnswerBearingPredicate, type Harness1Recalls } from '../../eval'
import type { EnvQuestion } from '../../harness'

export type RecallLevel = 'document' | 'fact'

export interface EpisodeRecallOptions {
  level?: RecallLevel
  beta?: number
  isAnswerBearing?: AnswerBearingPredicate
}

export interface EpisodeRecalls {
  recalls: Harness1Recalls
  /** The level actually measured. */
  level: RecallLevel
  /** Gold the corpus does not hold or cannot pin down, and level fallbacks. */
  notes: string[]
}

/**
 * Where gold and evidence are read: a small reader (main/corpus/gold.ts `goldEvidence(raw)` builds one
 * over a workspace); rewards never see the database.
 */
export type EvidenceSource = GoldEvidence

interface GoldFact {
  key: string
  documentId: number | null
  start: number
  end: number
  text: string
}

/**
 * Document-level recalls of documents by id against resolved gold: curated = the documents the evidence
 * commits to (curated chunks, committed sentences), seen = every document surfaced. Unresolved gold
 * documents count as never covered. Answer-bearing: the gold document's text holds a gold answer.
 */
export function goldDocumentRecalls(
  source: EvidenceSource,
  gold: ResolvedGold,
  curatedDocumentIds: Iterable<number>,
  seenDocumentIds: Iterable<number>,
  answers: readonly string[],
  options: Pick<EpisodeRecallOptions, 'beta' | 'isAnswerBearing'> = {},
): Harness1Recalls {
  const evidence = source
  return documentRecalls({
    curated: [...curatedDocumentIds].map(documentKey),
    seen: [...seenDocumentIds].map(documentKey),
    gold: goldDocumentUnits(gold).map((u) => ({ id: u.key, text: u.documentId !== null ? evidence.documentText(u.documentId) : '' })),
    answers,
    ...(options.isAnswerBearing ? { isAnswerBearing: options.isAnswerBearing } : {}),
    ...(options.beta !== undefined ? { beta: options.beta } : {}),
  })
}

export function episodeRecalls(
  source: EvidenceSource,
  question: EnvQuestion,
  curatedChunkIds: readonly number[],
  seenChunkIds: readonly number[],
  options: EpisodeRecallOptions = {},
): EpisodeRecalls {
  const evidence = source
  const gold = evidence.gold(question)
  const notes: string[] = [...gold.missing]
  let level = options.level ?? 'document'
  if (level === 'fact' && gold.facts.length === 0) {
    notes.push('fact level requested but the question has no supporting facts: measured at document level')
    level = 'document'
  }
  const spans = evidence.chunkSpans([...curatedChunkIds, ...seenChunkIds])
  const curated = curatedChunkIds.map((id) => spans.get(id)).filter((s): s is ChunkSpan => s !== undefined)
  const seen = seenChunkIds.map((id) => spans.get(id)).filter((s): s is ChunkSpan => s !== undefined)

  if (level === 'document') {
    const recalls = goldDocumentRecalls(
      evidence,
      gold,
      curated.map((c) => c.documentId),
      seen.map((c) => c.documentId),
      question.answers,
      options,
    )
    return { recalls, level, notes }
  }

  const facts: GoldFact[] = goldFactUnits(gold).map((unit) => {
    const span = unit.sentenceId !== null ? evidence.sentenceSpan(unit.sentenceId) : undefined
    return span ? { key: unit.key, ...span } : { key: unit.key, documentId: null, start: 0, end: 0, text: '' }
  })
  const recalls = harness1Recalls<ChunkSpan, GoldFact>({
    curated,
    seen,
    gold: facts,
    answers: question.answers,
    covers: coversFact,
    goldText: (f) => f.text,
    ...(options.isAnswerBearing ? { isAnswerBearing: options.isAnswerBearing } : {}),
    ...(options.beta !== undefined ? { beta: options.beta } : {}),
  })
  return { recalls, level, notes }
}

/** A chunk covers a gold sentence when it holds at least half of its characters. */
function coversFact(chunk: ChunkSpan, fact: GoldFact): boolean {
  if (fact.documentId === null || chunk.documentId !== fact.documentId) return false
  const overlap = Math.min(chunk.end, fact.end) - Math.max(chunk.start, fact.start)
  return overlap > 0 && overlap * 2 >= fact.end - fact.start
}
