import type { Answerer } from '../../harness'
import { answerTokens } from '../../eval/normalise'
import { PolicyError } from '../../llm/errors'
import { candidateSpans, choiceAnswer, choiceOptions, contentWords, expectedType, fold, isYesNoQuestion, questionEntities, yesNoAnswer, type Span } from './lexical-spans'

export const LEXICAL_ANSWERER_NAME = 'lexical stand-in'

/** Coverage 0 scores ln(0.01): finite, so score differences (credit) stay defined. */
const FLOOR = 0.01

/** A stand-in's share in [0, 1] as a log-score: ln(0.01 + 0.99 * share). */
export const standInScore = (share: number): number => Math.log(FLOOR + (1 - FLOOR) * share)

/**
 * A model-free STAND-IN for the frozen answerer, so that environments, credit and evaluation run
 * before a GGUF model is configured. It is not a reader: `answer` picks a span out of the evidence
 * by surface cues (the capitalised phrase, date or number, not already in the question, from the
 * sentence sharing most words with the question), answers yes/no questions by a word-overlap rule
 * and "X or Y" questions by comparing the years or the mentions the evidence gives each option; `score` is ln(0.01 + 0.99 * coverage), where coverage is the share of the answer's
 * normalised tokens found in the evidence (for yes/no answers, the share of the question's named
 * entities' tokens). Every result produced with it is labelled by `lexical: true`; numbers from it
 * are not comparable with a model's log-likelihoods.
 */
export class LexicalAnswerer implements Answerer {
  readonly name: string = LEXICAL_ANSWERER_NAME
  readonly lexical = true

  async answer(question: string, evidence: string[]): Promise<string> {
    return answerLexically(question, evidence)
  }

  async score(question: string, evidence: string[], answer: string): Promise<number> {
    return standInScore(lexicalCoverage(question, evidence, answer))
  }

  async dispose(): Promise<void> {}
}

export function answerLexically(question: string, evidence: readonly string[]): string {
  const sentences = evidence.map((e) => e.trim()).filter((e) => e.length > 0)
  if (isYesNoQuestion(question)) return yesNoAnswer(question, sentences)
  const options = choiceOptions(question)
  if (options) return choiceAnswer(question, options, sentences)
  const asked = new Set(contentWords(question))
  const want = expectedType(question)
  const relevance = sentences.map((s) => {
    const words = new Set(contentWords(s))
    let shared = 0
    for (const w of asked) if (words.has(w)) shared++
    return asked.size === 0 ? 0 : shared / asked.size
  })
  let best: { span: Span; score: number } | null = null
  for (const span of candidateSpans(sentences)) {
    const words = contentWords(span.text)
    // The answer is what the question does not already say.
    if (words.length === 0 || words.every((w) => asked.has(w))) continue
    const score = 2 * relevance[span.sentence]! + (span.type === want ? 1 : 0) + 0.05 * Math.min(words.length, 4)
    // Strictly greater: ties keep the earliest span in reading order.
    if (!best || score > best.score) best = { span, score }
  }
  return best ? best.span.text.replace(/[.,;:]+$/, '') : ''
}

export function lexicalCoverage(question: string, evidence: readonly string[], answer: string): number {
  const normalised = answerTokens(answer)
  if (normalised.length === 0) throw new PolicyError('invalid-input', 'cannot score an empty answer')
  const evidenceTokens = new Set(evidence.flatMap((e) => answerTokens(e).map(fold)))
  const yesNo = normalised.length === 1 && (normalised[0] === 'yes' || normalised[0] === 'no')
  const target = yesNo ? questionEntities(question).flatMap((e) => answerTokens(e)) : normalised
  if (target.length === 0) return 0
  return target.filter((t) => evidenceTokens.has(fold(t))).length / target.length
}
