import type { EnvQuestion, EpisodeOutcome } from '../harness'
import { goldFactUnits, sentenceKey } from '../corpus/gold'
import { scoreAnswer, supportingFactScore } from '../eval'
import { goldDocumentRecalls } from '../rl/rewards/harness1-gold'
import type { EvidenceResolver } from './evidence'

export type EpisodeMetrics = Record<string, number | null>

/**
 * Every metric of one episode, named with the variant it follows: answer EM/F1 under the official
 * HotpotQA/2Wiki rule and the Graph-R1 rule; supporting-fact recall/precision/F1 (the official
 * script's set metrics, over gold sentences by id); paragraph recall, precision, F1 and all-gold of
 * evidence, and recall of everything seen; Harness-1 curated/trajectory/answer recalls. Gold comes resolved by document and sentence id
 * (question.gold, else resolved now by the same resolver), so a paragraph is gold because it is the
 * document the question names, never because it shares that document's title; gold that could not be
 * resolved counts as never covered.
 */
export function scoreEpisode(question: EnvQuestion, outcome: EpisodeOutcome, answer: string, evidence: EvidenceResolver): EpisodeMetrics {
  const m: EpisodeMetrics = {}
  if (question.answers.length > 0) {
    for (const variant of ['official', 'graphr1'] as const) {
      const s = scoreAnswer(answer, question.answers, variant)
      m[`answer.em.${variant}`] = s.em
      m[`answer.f1.${variant}`] = s.f1
    }
  }
  const gold = evidence.gold(question)
  const committed = evidence.sentences(outcome.evidence.sentenceIds ?? [])
  const seenSentences = evidence.sentences(outcome.seen.sentenceIds ?? [])
  const committedChunks = evidence.chunks(outcome.evidence.chunkIds ?? [])
  const seenChunks = evidence.chunks(outcome.seen.chunkIds ?? [])

  const facts = goldFactUnits(gold)
  if (facts.length > 0 && outcome.evidence.sentenceIds) {
    // Sets of keys, one per sentence; an unresolved gold fact has a key no sentence has.
    const sp = supportingFactScore(
      committed.map((s) => [sentenceKey(s.id), 0] as const),
      facts.map((f) => [f.key, 0] as const),
    )
    m['sp.recall'] = sp.recall
    m['sp.precision'] = sp.precision
    m['sp.f1'] = sp.f1
    m['sp.em'] = sp.em
    m['sp.allGold'] = sp.recall === 1 ? 1 : 0
  }

  // Documents: from committed sentences (Harness-G) or curated chunks (Harness-1), by document id.
  if (gold.documents.length > 0) {
    const curatedDocs = [...committed.map((s) => s.documentId), ...committedChunks.map((c) => c.documentId)]
    const seenDocs = [...seenSentences.map((s) => s.documentId), ...seenChunks.map((c) => c.documentId)]
    const r = goldDocumentRecalls(evidence.goldEvidence, gold, curatedDocs, [...seenDocs, ...curatedDocs], question.answers)
    m['paragraph.recall'] = r.curatedRecall
    // Precision and F1 over distinct documents; nothing committed scores 0, as SP precision does.
    const precision = r.curatedPrecision ?? 0
    const recall = r.curatedRecall ?? 0
    m['paragraph.precision'] = precision
    m['paragraph.f1'] = precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0
    m['paragraph.allGold'] = r.curatedRecall === 1 ? 1 : 0
    m['paragraph.trajectoryRecall'] = r.trajectoryRecall
    m['harness1.answerRecall'] = r.answerRecall
    m['harness1.trajectoryAnswerRecall'] = r.trajectoryAnswerRecall
    m['harness1.curatedFBeta'] = r.curatedFBeta
  }
  m.turns = outcome.turns
  m.formatErrors = outcome.formatErrors
  return m
}
