/**
 * Bridge questions: two documents joined by a named entity E. The first document's sentence names E
 * (hop 1); a sentence of a second document that mentions E gives the answer, another mention in it
 * (hop 2). The question names neither E nor the answer and quotes neither sentence: it describes E by
 * its relation to the first document (its title, and the few words the sentence puts next to E) and
 * the answer by the words next to it, so finding either gold sentence takes a search. Only entities
 * whose type their own words support are used (entity-types.ts), and answers that name something
 * (quality.ts). Gold: both sentences.
 */
import type { GenMention, QuestionGenerationRepository } from '../../corpus/repository'
import { STOPWORDS } from '../../retrieval'
import { confidentType } from './entity-types'
import { goldQuoteShare, isStopPhrase, QUOTE_SHARE } from './quality'
import type { GeneratedQuestion } from './types'

const VALUE_TYPES = new Set(['DATE', 'MONEY', 'PERCENT', 'CARDINAL', 'QUANTITY'])

export const BRIDGE_TYPES = ['PERSON', 'ORG', 'GPE', 'LOC', 'FAC', 'EVENT', 'WORK_OF_ART', 'PRODUCT', 'LAW', 'NAME']

const WORD: Record<string, string> = { PERSON: 'person', ORG: 'organisation', GPE: 'place', LOC: 'place', FAC: 'place', EVENT: 'event', WORK_OF_ART: 'work', PRODUCT: 'product', LAW: 'law', NAME: 'name' }
const ANSWER_WORD: Record<string, string> = { DATE: 'date', PERSON: 'person', ORG: 'organisation', GPE: 'place', LOC: 'place', FAC: 'place', EVENT: 'event', WORK_OF_ART: 'work', NORP: 'group', MONEY: 'amount', PERCENT: 'percentage', CARDINAL: 'number', QUANTITY: 'quantity', PRODUCT: 'product', LAW: 'law', NAME: 'name', LANGUAGE: 'language' }
/** Answer types in order of preference (a date or a name before a bare number). */
const ANSWER_TYPES = ['DATE', 'PERSON', 'ORG', 'GPE', 'LOC', 'FAC', 'EVENT', 'WORK_OF_ART', 'NORP', 'MONEY', 'PERCENT', 'QUANTITY', 'PRODUCT', 'LAW', 'LANGUAGE']

/** Sentences too short carry no clue; too long ones are not questions. */
const usableSentence = (text: string): boolean => text.length >= 30 && text.length <= 320 && !text.includes('\t') && !/Category:|\.(png|jpe?g|svg)\b/i.test(text)

/** A mention that starts and ends on word boundaries (not "France" inside "Tour_de_France.png"). */
export const wholeWord = (m: Pick<GenMention, 'text' | 'start' | 'end'>): boolean => !/[\p{L}\p{N}_]/u.test(m.text[m.start - 1] ?? ' ') && !/[\p{L}\p{N}_]/u.test(m.text[m.end] ?? ' ')

/** Single-word untyped names are mostly capitalised common words ("Category"): no bridge. */
const usableBridge = (m: GenMention): boolean => m.name.length >= 3 && confidentType(m.name, m.type)

export interface BridgeOptions {
  rand: () => number
  /** Stop after this many candidates. */
  cap: number
  throwIfCancelled(): void
  progress(share: number): void
}

export function bridgeQuestions(repo: QuestionGenerationRepository, options: BridgeOptions): GeneratedQuestion[] {
  const byEntity = new Map<number, Map<number, GenMention>>()
  for (const m of repo.bridgeMentions(BRIDGE_TYPES, 30)) {
    if (!usableBridge(m) || !usableSentence(m.text) || !wholeWord(m)) continue
    let docs = byEntity.get(m.entityId)
    if (!docs) byEntity.set(m.entityId, (docs = new Map()))
    // The document's first usable sentence that names E (rows come in document order).
    if (!docs.has(m.documentId)) docs.set(m.documentId, m)
  }
  const entities = [...byEntity.entries()].filter(([, docs]) => docs.size >= 2).map(([id]) => id)
  shuffle(entities, options.rand)
  const out: GeneratedQuestion[] = []
  for (const [i, entityId] of entities.entries()) {
    if (out.length >= options.cap) break
    if (i % 50 === 0) {
      options.throwIfCancelled()
      options.progress(i / entities.length)
    }
    const docs = [...byEntity.get(entityId)!.values()]
    shuffle(docs, options.rand)
    const q = build(repo, docs[0]!, docs[1]!) ?? build(repo, docs[1]!, docs[0]!)
    if (q) out.push(q)
  }
  return out
}

/** Answers must name something: a value with a digit, a name whose type its own words support. */
function usableAnswer(m: GenMention): boolean {
  if (isStopPhrase(m.surface)) return false
  if (VALUE_TYPES.has(m.type)) return /\d/.test(m.surface)
  return m.type === 'NORP' || m.type === 'LANGUAGE' || confidentType(m.surface, m.type)
}

function build(repo: QuestionGenerationRepository, a: GenMention, b: GenMention): GeneratedQuestion | null {
  const name = a.name.toLowerCase()
  const aText = a.text.toLowerCase()
  const answers = repo
    .mentionsOf([b.sentenceId])
    .filter((m) => m.entityId !== b.entityId && ANSWER_TYPES.includes(m.type) && wholeWord(m) && (m.end <= b.start || m.start >= b.end) && usableAnswer(m))
    .filter((m) => {
      const s = m.surface.toLowerCase()
      // The answer must be new: not part of E's name, not in the first sentence.
      return s.length >= 2 && !name.includes(s) && !s.includes(name) && !aText.includes(s)
    })
    .sort((x, y) => ANSWER_TYPES.indexOf(x.type) - ANSWER_TYPES.indexOf(y.type) || x.start - y.start)
  const word = WORD[a.type] ?? 'entity'
  for (const ans of answers) {
    const answerWord = ANSWER_WORD[ans.type] ?? 'entity'
    const hop1 = relation(a.text, a)
    const hop2 = relation(b.text, ans)
    // The bridge is described by its relation to the first document: without one, "mentions a place"
    // names nothing in particular. The answer may go without a cue (the entity's article names it).
    if (!hop1) return null
    const about = normalisedName(b.title) === normalisedName(a.name)
    const question = about
      ? `"${a.title}" mentions ${article(word)} ${word}${hop1}. What ${answerWord} does the article on that ${word} give${hop2}?`
      : `"${a.title}" mentions ${article(word)} ${word}${hop1}. Another article mentions the same ${word}: what ${answerWord} does it give${hop2}?`
    if (goldQuoteShare(question, [a.text, b.text]) >= QUOTE_SHARE) continue
    return {
      externalId: `bridge:${a.entityId}:${a.sentenceId}:${b.sentenceId}`,
      kind: 'bridge',
      form: 'bridge',
      question,
      answers: [ans.surface],
      gold: [
        { sentenceId: a.sentenceId, documentId: a.documentId, title: a.title, externalId: a.externalId, ord: a.ord, contains: [a.surface] },
        { sentenceId: b.sentenceId, documentId: b.documentId, title: b.title, externalId: b.externalId, ord: b.ord, contains: [b.surface, ans.surface] },
      ],
      detail: `bridge entity "${a.name}" (${a.type}) joins "${a.title}" (sentence ${a.ord}) and "${b.title}" (sentence ${b.ord}); answer "${ans.surface}" (${ans.type}) from the second`,
    }
  }
  return null
}

const article = (word: string): string => (/^[aeiou]/.test(word) ? 'an' : 'a')

const normalisedName = (s: string): string => s.toLowerCase().replace(/\s*\(.*\)\s*$/, '').replace(/[^\p{L}\p{N}]+/gu, ' ').trim()

/**
 * How a sentence places a span, in a few of its own lower-case words: ' right after the words "born
 * in"' or ' right before the words "was founded"'. Words with a content word come first; '' when
 * neither side has one (a cue of function words only locates nothing).
 */
export function relation(text: string, span: { start: number; end: number }): string {
  const before = cueWords(text.slice(0, span.start), 'before')
  if (before.some((w) => !STOPWORDS.has(w))) return ` right after the words "${before.join(' ')}"`
  const after = cueWords(text.slice(span.end), 'after')
  if (after.some((w) => !STOPWORDS.has(w))) return ` right before the words "${after.join(' ')}"`
  return ''
}

const CUE_WORDS = 3

/** Up to three lower-case words next to a span, stopping at punctuation, digits and capitalised words (names stay out). */
function cueWords(side: string, where: 'before' | 'after'): string[] {
  const tokens = [...side.matchAll(/[\p{L}\p{N}'’-]+|[^\s\p{L}\p{N}]/gu)].map((m) => m[0])
  if (where === 'before') tokens.reverse()
  const out: string[] = []
  for (const t of tokens) {
    if (out.length >= CUE_WORDS || !/^\p{Ll}[\p{Ll}'’-]*$/u.test(t)) break
    out.push(t)
  }
  return where === 'before' ? out.reverse() : out
}

/** Fisher-Yates with the seeded generator. */
export function shuffle<T>(xs: T[], rand: () => number): T[] {
  for (let i = xs.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1))
    ;[xs[i], xs[j]] = [xs[j]!, xs[i]!]
  }
  return xs
}
