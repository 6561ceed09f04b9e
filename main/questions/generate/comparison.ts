/**
 * Comparison questions: two documents' subjects (their titles) with comparable facts near the start of
 * each: a year with the same event word ("born", "founded", ...), or an amount with the same metric
 * ("revenue", "employees", ...) and unit. Forms: which came first / is larger (the answer is one of
 * the two names, so it is in the question), how many years apart and the larger figure (it is not).
 * Gold: both sentences, each prose (evidence.ts): a fact read off a list or reference line is no fact.
 */
import type { GenMention, QuestionGenerationRepository } from '../../corpus/repository'
import { shuffle, wholeWord } from './bridge'
import type { CorpusView } from './corpus-view'
import type { Outcomes } from './outcomes'
import type { GeneratedQuestion, GoldSentenceRef } from './types'
import { contentWords, goldQuoteShare, QUOTE_SHARE } from './quality'
import { amountOf, yearOf, type AmountUnit } from './values'

interface Cue {
  re: RegExp
  noun: string
  first: string
}

const EVENT_CUES: Cue[] = [
  { re: /\bborn\b/i, noun: 'birth', first: 'Who was born first' },
  { re: /\b(died|death)\b/i, noun: 'death', first: 'Who died first' },
  { re: /\b(founded|established|formed|incorporated)\b/i, noun: 'founding', first: 'Which was founded first' },
  { re: /\b(released|published|premiered|aired)\b/i, noun: 'release', first: 'Which came out first' },
  { re: /\b(opened|built|completed|constructed)\b/i, noun: 'opening', first: 'Which opened first' },
  { re: /\b(took place|was held|occurred|happened|fought)\b/i, noun: 'date', first: 'Which took place first' },
  { re: /\belected\b/i, noun: 'election', first: 'Who was elected first' },
  { re: /\blaunched\b/i, noun: 'launch', first: 'Which was launched first' },
]

/** Characters before a date in which its event word must stand. */
const CUE_REACH = 40

/** The sentence is about the document's subject: it names a word of the title early, or opens with a pronoun. */
export function aboutSubject(text: string, title: string): boolean {
  if (/^\s*(he|she|it|they|his|her|its|their)\b/i.test(text)) return true
  const opening = contentWords(text.slice(0, 80))
  return [...contentWords(title.replace(/\(.*?\)/g, ' '))].some((w) => opening.has(w))
}

const METRICS = ['net sales', 'total net sales', 'revenue', 'revenues', 'net income', 'net loss', 'operating income', 'gross margin', 'total assets', 'cash and cash equivalents', 'employees', 'population', 'attendance', 'capacity', 'seats', 'votes', 'dividends', 'share repurchases', 'research and development', 'box office', 'budget', 'area']

interface Fact {
  mention: GenMention
  key: string
  value: number
  label: string
}

const gold = (m: GenMention): Omit<GoldSentenceRef, 'contains'> => ({ sentenceId: m.sentenceId, documentId: m.documentId, title: m.title, externalId: m.externalId, ord: m.ord })

/** The first fact of each (document, key) in a prose sentence: rows come by document and sentence order. */
function firstFacts(view: CorpusView, rows: readonly GenMention[], read: (m: GenMention) => Omit<Fact, 'mention'> | null): Map<string, Fact[]> {
  const seen = new Set<string>()
  const byKey = new Map<string, Fact[]>()
  for (const m of rows) {
    if (m.text.length > 400 || !wholeWord(m) || view.flaw(m.sentenceId) !== null) continue
    const f = read(m)
    if (!f) continue
    const at = `${m.documentId}\u0000${f.key}`
    if (seen.has(at)) continue
    seen.add(at)
    let list = byKey.get(f.key)
    if (!list) byKey.set(f.key, (list = []))
    list.push({ mention: m, ...f })
  }
  return byKey
}

/** Pairs of documents sharing a key, drawn by the seeded generator; values must differ. */
function pairs(byKey: Map<string, Fact[]>, rand: () => number, perKey: number): [Fact, Fact][] {
  const out: [Fact, Fact][] = []
  for (const key of [...byKey.keys()].sort()) {
    const list = shuffle([...byKey.get(key)!], rand)
    for (let i = 0; i + 1 < list.length && i / 2 < perKey; i += 2) {
      const [a, b] = [list[i]!, list[i + 1]!]
      if (a.mention.title !== b.mention.title && a.value !== b.value) out.push([a, b])
    }
  }
  return shuffle(out, rand)
}

export interface ComparisonOptions {
  rand: () => number
  cap: number
  throwIfCancelled(): void
}

export function comparisonQuestions(repo: QuestionGenerationRepository, view: CorpusView, options: ComparisonOptions): Outcomes {
  const out: GeneratedQuestion[] = []
  const texts = new Map<number, string>()
  const perKey = Math.max(1, options.cap)
  // Dated facts: a year and an event word in one of the document's first sentences.
  // The event word just before the date ("born on 17 April 1979", not a birth three clauses away),
  // in a sentence about the document's subject: otherwise the question states a fact the text does not.
  const dated = firstFacts(view, repo.valueMentions(['DATE'], 8), (m) => {
    // A year whose era follows the mention ("1800 BC") is no year to subtract.
    const year = /^\s*(BC|BCE|B\.C\.)/.test(m.text.slice(m.end)) ? null : yearOf(m.surface)
    const before = m.text.slice(Math.max(0, m.start - CUE_REACH), m.start)
    const cue = year === null || !aboutSubject(m.text, m.title) ? undefined : EVENT_CUES.find((c) => c.re.test(before))
    return year === null || !cue ? null : { key: cue.noun, value: year, label: m.surface }
  })
  options.throwIfCancelled()
  for (const [a, b] of pairs(dated, options.rand, perKey)) {
    if (out.length >= options.cap) break
    const cue = EVENT_CUES.find((c) => c.noun === a.key)!
    for (const f of [a, b]) texts.set(f.mention.sentenceId, f.mention.text)
    const [early, late] = a.value < b.value ? [a, b] : [b, a]
    const goldOf = (f: Fact): GoldSentenceRef => ({ ...gold(f.mention), contains: [f.mention.surface] })
    const detail = `"${a.mention.title}": ${cue.noun} ${a.label} (sentence ${a.mention.ord}); "${b.mention.title}": ${cue.noun} ${b.label} (sentence ${b.mention.ord})`
    const id = `${a.mention.sentenceId}:${b.mention.sentenceId}`
    out.push({
      externalId: `comparison-choice:${id}`,
      kind: 'comparison',
      form: 'comparison-choice',
      question: `${cue.first}, "${a.mention.title}" or "${b.mention.title}"?`,
      answers: [early.mention.title],
      gold: [goldOf(a), goldOf(b)],
      detail,
    })
    const years = Math.abs(a.value - b.value)
    out.push({
      externalId: `comparison-years:${id}`,
      kind: 'comparison',
      form: 'comparison-years',
      question: `How many years apart are the ${cue.noun} of "${a.mention.title}" and the ${cue.noun} of "${b.mention.title}"?`,
      answers: [String(years), `${years} years`],
      gold: [goldOf(a), goldOf(b)],
      detail: `${detail}; ${late.value} - ${early.value} = ${years}`,
    })
  }
  options.throwIfCancelled()
  // Numeric facts: an amount with a metric word close before it, anywhere in the document (a filing's figures come late).
  const amounts = firstFacts(view, repo.valueMentions(['MONEY', 'PERCENT', 'CARDINAL', 'QUANTITY'], 1_000_000), (m) => {
    const amount = amountOf(m.surface, m.type)
    if (!amount || amount.value === 0) return null
    const before = m.text.slice(Math.max(0, m.start - 60), m.start).toLowerCase()
    const metric = METRICS.filter((w) => before.includes(w)).sort((x, y) => before.lastIndexOf(y) - before.lastIndexOf(x) || y.length - x.length)[0]
    return metric ? { key: `${metric}\u0000${amount.unit}`, value: amount.value, label: m.surface } : null
  })
  for (const [a, b] of pairs(amounts, options.rand, perKey)) {
    if (out.length >= options.cap * 3) break
    const [metric, unit] = a.key.split('\u0000') as [string, AmountUnit]
    if (Math.max(a.value, b.value) / Math.min(a.value, b.value) < 1.01) continue
    const larger = a.value > b.value ? a : b
    for (const f of [a, b]) texts.set(f.mention.sentenceId, f.mention.text)
    const gold2 = [
      { ...gold(a.mention), contains: [a.mention.surface, metric] },
      { ...gold(b.mention), contains: [b.mention.surface, metric] },
    ]
    const detail = `"${a.mention.title}": ${metric} ${a.label} (sentence ${a.mention.ord}); "${b.mention.title}": ${metric} ${b.label} (sentence ${b.mention.ord})`
    // The figure itself as the answer: a numeric comparison whose answer is not in the question.
    out.push({
      externalId: `comparison-figure:${a.mention.sentenceId}:${b.mention.sentenceId}`,
      kind: 'comparison',
      form: 'comparison-figure',
      question: `Of the ${metric} given in "${a.mention.title}" and the ${metric} given in "${b.mention.title}", what is the larger figure?`,
      answers: [larger.mention.surface],
      gold: gold2,
      detail,
    })
    out.push({
      externalId: `comparison-amount:${a.mention.sentenceId}:${b.mention.sentenceId}`,
      kind: 'comparison',
      form: 'comparison-amount',
      question: `Which gives the larger ${metric}${unit === 'percent' ? ' (in percent)' : ''}, "${a.mention.title}" or "${b.mention.title}"?`,
      answers: [larger.mention.title],
      gold: gold2,
      detail,
    })
  }
  // A short gold sentence ("X died in 1871.") is mostly the subject's name and the event word: a
  // question naming both quotes it, and is dropped like any question that contains its evidence.
  const quotes = (q: GeneratedQuestion): boolean => goldQuoteShare(q.question, q.gold.map((g) => texts.get(g.sentenceId) ?? '')) >= QUOTE_SHARE
  const dropped = out.filter(quotes).length
  return { questions: out.filter((q) => !quotes(q)), dropped: dropped > 0 ? { 'quotes-gold': dropped } : {} }
}
