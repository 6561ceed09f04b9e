import { answerTokens } from '../../eval/normalise'
import { PolicyError } from '../../llm/errors'
import { LexicalAnswerer, standInScore } from './lexical-answerer'
import { capitalisedPhrases, choiceOptions, comparesTime, contentWords, datesAndNumbers, fold, mentions, questionEntities } from './lexical-spans'

export const SUPPORT_ANSWERER_NAME = 'support stand-in'

/**
 * A second model-free STAND-IN for the frozen answerer, made for credit (docs/snc-investigation.md).
 * The lexical stand-in scores the share of the gold answer's tokens found anywhere in the evidence, so
 * the first sentence that merely names the answer ("X is a university city") takes the whole gain and
 * the sentences that actually decide the question gain nothing after it. This one scores how far the
 * evidence SUPPORTS the answer to this question, still without any gold sentence labels:
 *  - "X or Y" questions: per option, a sentence naming it that carries the compared attribute (a year
 *    when the question compares time, else a word of the question's property) counts 1, a bare
 *    mention 0.25; support is the mean over both options (the answer needs both sides);
 *  - yes/no questions: the same per entity the question names;
 *  - other questions: half for the answer found in a sentence linked to the question (it names a
 *    question entity, or shares a name with a sentence that does: the bridge), a fifth for the
 *    answer's tokens anywhere, and the rest for the share of the question's entities named.
 * `score` is ln(0.01 + 0.99 * support); answers, `lexical: true` and the rest are the lexical stand-in's:
 * numbers from it are not a model's log-likelihoods.
 */
export class SupportAnswerer extends LexicalAnswerer {
  override readonly name: string = SUPPORT_ANSWERER_NAME

  override async score(question: string, evidence: string[], answer: string): Promise<number> {
    return standInScore(answerSupport(question, evidence, answer))
  }
}

interface Sentence {
  words: Set<string>
  /** Content words of its capitalised phrases: the names it mentions. */
  names: Set<string>
  hasYear: boolean
}

const read = (text: string): Sentence => ({
  words: new Set(contentWords(text)),
  names: new Set(capitalisedPhrases(text).flatMap((p) => contentWords(p.text))),
  hasYear: datesAndNumbers(text).some((d) => d.type === 'date'),
})

/** 1 when a sentence names the entity and carries the attribute, 0.25 for a bare mention, else 0. */
const attributeSupport = (sentences: readonly Sentence[], entity: string, attribute: (s: Sentence) => boolean): number => {
  const about = sentences.filter((s) => mentions(s.words, entity))
  return about.some(attribute) ? 1 : about.length > 0 ? 0.25 : 0
}

const meanOf = (xs: readonly number[]): number => (xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length)

export function answerSupport(question: string, evidence: readonly string[], answer: string): number {
  const tokens = answerTokens(answer)
  if (tokens.length === 0) throw new PolicyError('invalid-input', 'cannot score an empty answer')
  // Content words, as the sentences are read; an answer of stopwords only keeps its tokens.
  const words = contentWords(answer)
  const target = words.length > 0 ? words : tokens.map(fold)
  const sentences = evidence.map((e) => e.trim()).filter((e) => e.length > 0).map(read)
  const entities = questionEntities(question)
  const entityWords = new Set(entities.flatMap(contentWords))
  const property = contentWords(question).filter((w) => !entityWords.has(w))
  const hasProperty = (s: Sentence) => property.some((w) => s.words.has(w))

  const options = choiceOptions(question)
  if (options) {
    const attribute = comparesTime(question) ? (s: Sentence) => s.hasYear : hasProperty
    return meanOf(options.map((o) => attributeSupport(sentences, o, attribute)))
  }
  const yesNo = tokens.length === 1 && (tokens[0] === 'yes' || tokens[0] === 'no')
  if (yesNo) {
    if (entities.length === 0) return property.length === 0 ? 0 : property.filter((w) => sentences.some((s) => s.words.has(w))).length / property.length
    return meanOf(entities.map((e) => attributeSupport(sentences, e, hasProperty)))
  }

  const share = (s: Sentence) => target.filter((t) => s.words.has(t)).length / target.length
  // Anchors name a whole question entity ("Gray Harbour", not any sentence with "harbour").
  const named = entities.filter((e) => contentWords(e).length > 0)
  const anchors = sentences.filter((s) => named.some((e) => mentions(s.words, e)))
  // Linked: it names a question entity itself, or shares a name (other than the answer's) with a sentence that does.
  const answerWords = new Set(target)
  const linked = (s: Sentence) => anchors.includes(s) || anchors.some((a) => a !== s && [...s.names].some((n) => !answerWords.has(n) && a.names.has(n)))
  const anchored = Math.max(0, ...sentences.filter(linked).map(share))
  const anywhere = target.filter((t) => sentences.some((s) => s.words.has(t))).length / target.length
  const covered = named.length === 0 ? 0 : named.filter((e) => sentences.some((s) => mentions(s.words, e))).length / named.length
  return 0.5 * anchored + 0.2 * anywhere + 0.3 * covered
}
