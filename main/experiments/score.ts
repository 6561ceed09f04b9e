import type { EnvQuestion, EpisodeOutcome } from '../harness/types'
import { documentRecalls, scoreAnswer, supportingFactScore } from '../eval'
import type { EvidenceResolver } from './evidence'

export type EpisodeMetrics = Record<string, number | null>

/**
 * Every metric of one episode, named with the variant it follows: answer EM/F1 under the official
 * HotpotQA/2Wiki rule and the Graph-R1 rule; supporting-fact recall/precision/F1 ([title, sentence]);
 * paragraph recall of evidence and of everything seen; Harness-1 curated/trajectory/answer recalls.
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
  const committed = evidence.sentences(outcome.evidence.sentenceIds ?? [])
  const seenSentences = evidence.sentences(outcome.seen.sentenceIds ?? [])
  const committedChunks = evidence.chunks(outcome.evidence.chunkIds ?? [])
  const seenChunks = evidence.chunks(outcome.seen.chunkIds ?? [])

  if (question.supportingFacts.length > 0 && outcome.evidence.sentenceIds) {
    const sp = supportingFactScore(committed.map((s) => [s.title, s.ord] as [string, number]), question.supportingFacts.map((f) => [f.title, f.sentence] as [string, number]))
    m['sp.recall'] = sp.recall
    m['sp.precision'] = sp.precision
    m['sp.f1'] = sp.f1
    m['sp.em'] = sp.em
  }

  // Documents: from committed sentences (Harness-G) or curated chunks (Harness-1).
  const curatedDocs = [...committed.map((s) => ({ id: s.title, text: s.text })), ...committedChunks.map((c) => ({ id: c.title, text: c.text }))]
  const seenDocs = [...seenSentences.map((s) => ({ id: s.title, text: s.text })), ...seenChunks.map((c) => ({ id: c.title, text: c.text }))]
  if (question.supportingDocs.length > 0) {
    const r = documentRecalls({
      curated: curatedDocs.map((d) => d.id),
      seen: [...seenDocs, ...curatedDocs].map((d) => d.id),
      gold: question.supportingDocs.map((id) => ({ id, text: evidence.documentText(id) })),
      answers: question.answers,
    })
    m['paragraph.recall'] = r.curatedRecall
    m['paragraph.trajectoryRecall'] = r.trajectoryRecall
    m['harness1.answerRecall'] = r.answerRecall
    m['harness1.trajectoryAnswerRecall'] = r.trajectoryAnswerRecall
    m['harness1.curatedFBeta'] = r.curatedFBeta
  }
  m.turns = outcome.turns
  m.formatErrors = outcome.formatErrors
  return m
}
