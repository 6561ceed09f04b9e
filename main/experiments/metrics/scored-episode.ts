import type { EnvQuestion, EpisodeOutcome } from '../../harness'
import { goldFactUnits, sentenceKey, type GoldFactUnit, type ResolvedGold } from '../../corpus/gold'
import { scoreAnswer, supportingFactScore, type Harness1Recalls } from '../../eval'
import { goldDocumentRecalls } from '../../rl/rewards/harness1-gold'
import type { EvidenceResolver } from './evidence'

export type AnswerVariant = 'official' | 'graphr1'

/**
 * What the metric declarations compute from: one episode's scores, each computed once and shared by the
 * metrics that read it (EM and F1 of one normalisation, the four supporting-fact set metrics, the
 * document recalls). A part is null when the episode cannot be scored that way (no gold answer, no
 * fact gold or no sentence evidence, no gold document); its metrics are then left out of the episode.
 */
export interface ScoredEpisode {
  outcome: EpisodeOutcome
  answer: Readonly<Record<AnswerVariant, { em: number; f1: number }>> | null
  supportingFacts: { recall: number; precision: number; f1: number; em: number } | null
  documents: Harness1Recalls | null
  /**
   * What the policy's own queries found (free query): the share of the gold facts, and of the gold
   * documents, that its searches made visible; null where it writes no queries, a part null without that gold.
   */
  queried: { facts: number | null; documents: number | null } | null
}

/**
 * Gold comes resolved by document and sentence id (question.gold, else resolved now by the same
 * resolver), so a paragraph is gold because it is the document the question names, never because it
 * shares that document's title; gold that could not be resolved counts as never covered.
 */
export function scoredEpisode(question: EnvQuestion, outcome: EpisodeOutcome, answer: string, evidence: EvidenceResolver): ScoredEpisode {
  const answers = question.answers.length > 0 ? { official: scoreAnswer(answer, question.answers, 'official'), graphr1: scoreAnswer(answer, question.answers, 'graphr1') } : null
  const gold = evidence.gold(question)
  const committed = evidence.sentences(outcome.evidence.sentenceIds ?? [])
  const facts = goldFactUnits(gold)
  // Sets of keys, one per sentence; an unresolved gold fact has a key no sentence has.
  const supportingFacts =
    facts.length > 0 && outcome.evidence.sentenceIds
      ? supportingFactScore(
          committed.map((s) => [sentenceKey(s.id), 0] as const),
          facts.map((f) => [f.key, 0] as const),
        )
      : null
  let documents: Harness1Recalls | null = null
  // Documents: from committed sentences (Harness-G) or curated chunks (Harness-1), by document id.
  if (gold.documents.length > 0) {
    const seenSentences = evidence.sentences(outcome.seen.sentenceIds ?? [])
    const committedChunks = evidence.chunks(outcome.evidence.chunkIds ?? [])
    const seenChunks = evidence.chunks(outcome.seen.chunkIds ?? [])
    const curatedDocs = [...committed.map((s) => s.documentId), ...committedChunks.map((c) => c.documentId)]
    const seenDocs = [...seenSentences.map((s) => s.documentId), ...seenChunks.map((c) => c.documentId)]
    documents = goldDocumentRecalls(evidence.goldEvidence, gold, curatedDocs, [...seenDocs, ...curatedDocs], question.answers)
  }
  return { outcome, answer: answers, supportingFacts, documents, queried: queriedShares(outcome, gold, facts, evidence) }
}

function queriedShares(outcome: EpisodeOutcome, gold: ResolvedGold, facts: readonly GoldFactUnit[], evidence: EvidenceResolver): ScoredEpisode['queried'] {
  if (!outcome.queried) return null
  const found = evidence.sentences(outcome.queried.sentenceIds ?? [])
  const foundKeys = new Set(found.map((s) => sentenceKey(s.id)))
  const foundDocuments = new Set(found.map((s) => s.documentId))
  const share = (hits: number, of: number) => (of === 0 ? null : hits / of)
  return {
    facts: share(facts.filter((f) => foundKeys.has(f.key)).length, facts.length),
    // Unresolved gold documents (documentId null) count as never found.
    documents: share(gold.documents.filter((d) => d.documentId !== null && foundDocuments.has(d.documentId)).length, gold.documents.length),
  }
}
