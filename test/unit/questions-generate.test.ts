import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { workspaceMigrations } from '../../main/db/migrations'
import { openDatabase, type OpenedDatabase } from '../../main/db/open'
import { loadQuestions } from '../../main/experiments/questions'
import { defaultIngestOptions, runIngest } from '../../main/ingest/run'
import { answerInQuestion, confidentType, generateCandidates, generateQuestionSet, goldQuoteShare, isStopPhrase, questionFigures, QUOTE_SHARE, searchQuestions, selectGenerated, type GeneratedQuestion } from '../../main/questions'
import { relation } from '../../main/questions/generate/bridge'
import { amountOf, yearOf } from '../../main/questions/generate/values'
import { openDemoWorkspace, quiet, type DemoWorkspace } from '../helpers/corpus'
import { tempDir } from '../helpers/services'

const FIXTURES = join(import.meta.dirname, '../fixtures/questions')

let tmp: ReturnType<typeof tempDir>
let db: OpenedDatabase<unknown>
let demo: DemoWorkspace

beforeAll(async () => {
  tmp = tempDir('harness-lab-qgen-')
  db = await openDatabase(join(tmp.dir, 'workspace.db'), workspaceMigrations)
  await runIngest(db.raw, { kind: 'folder', path: join(FIXTURES, 'corpus') }, defaultIngestOptions(), quiet)
  demo = await openDemoWorkspace(3, 1)
}, 600_000)

afterAll(async () => {
  await db.close()
  await demo.close()
  tmp.cleanup()
})

const all = { seed: 7, kinds: ['bridge', 'comparison'] as ('bridge' | 'comparison')[], maxPerKind: 200 }

/** Every gold sentence exists, belongs to the document and position it names, and holds what the question needs. */
function expectValidGold(raw: OpenedDatabase<unknown>['raw'], q: GeneratedQuestion): void {
  expect(q.gold.length).toBe(2)
  expect(new Set(q.gold.map((g) => g.documentId)).size).toBe(2)
  for (const g of q.gold) {
    const row = raw.prepare('select s.text, s.ord, s.document_id as documentId, d.title from sentences s join documents d on d.id = s.document_id where s.id = ?').get(g.sentenceId) as
      | { text: string; ord: number; documentId: number; title: string }
      | undefined
    expect(row, `${q.externalId}: sentence ${g.sentenceId}`).toBeDefined()
    expect({ ord: row!.ord, documentId: row!.documentId, title: row!.title }).toEqual({ ord: g.ord, documentId: g.documentId, title: g.title })
    for (const needed of g.contains) expect(row!.text.toLowerCase(), `${q.externalId} needs "${needed}"`).toContain(needed.toLowerCase())
  }
  // A bridge's answer is in the second sentence; a years answer is the difference of the two years.
  if (q.form === 'bridge') expect(q.gold[1]!.contains).toContain(q.answers[0])
  if (q.form === 'comparison-years') {
    const years = q.gold.map((g) => yearOf(g.contains[0]!)!)
    expect(q.answers[0]).toBe(String(Math.abs(years[0]! - years[1]!)))
  }
  if (q.form === 'comparison-choice' || q.form === 'comparison-amount') expect(q.gold.map((g) => g.title)).toContain(q.answers[0])
  if (q.form === 'comparison-figure') expect(q.gold.map((g) => g.contains[0])).toContain(q.answers[0])
}

describe('question generation', () => {
  it('builds bridge and comparison questions from the fixture corpus, with valid gold', () => {
    const qs = generateCandidates(db.raw, all).questions
    const forms = new Set(qs.map((q) => q.form))
    expect(forms).toEqual(new Set(['bridge', 'comparison-choice', 'comparison-years', 'comparison-amount', 'comparison-figure']))
    for (const q of qs) expectValidGold(db.raw, q)
    const born = qs.find((q) => q.form === 'comparison-years' && q.question.includes('birth'))!
    expect(born.answers[0]).toBe('24') // 1815 - 1791
    const choice = qs.find((q) => q.form === 'comparison-choice' && q.question.startsWith('Who was born first'))!
    expect(choice.answers).toEqual(['Charles Babbage'])
    const figure = qs.find((q) => q.form === 'comparison-figure')!
    expect(figure.answers).toEqual(['8,900,000'])
    expect(answerInQuestion(figure.question, figure.answers)).toBe(false)
    expect(qs.find((q) => q.form === 'comparison-amount')!.answers).toEqual(['london'])
  })

  it('is deterministic by seed, and another seed draws another set', () => {
    const a = generateCandidates(demo.db.raw, all).questions
    const b = generateCandidates(demo.db.raw, all).questions
    expect(b).toEqual(a)
    expect(a.length).toBeGreaterThan(20)
    const c = generateCandidates(demo.db.raw, { ...all, seed: 8 }).questions
    expect(c.map((q) => q.externalId)).not.toEqual(a.map((q) => q.externalId))
    for (const q of a) expectValidGold(demo.db.raw, q)
  })

  it('the answer filter keeps only questions whose answer is not in the question; the cap holds per kind', () => {
    const generated = generateCandidates(demo.db.raw, all)
    const candidates = generated.questions
    const leaking = candidates.filter((q) => answerInQuestion(q.question, q.answers))
    // Choice comparisons name both options, so they always leak.
    expect(leaking.some((q) => q.form === 'comparison-choice')).toBe(true)
    const { kept, result } = selectGenerated(generated, { maxPerKind: 5, answerNotInQuestion: true })
    expect(kept.every((q) => !answerInQuestion(q.question, q.answers))).toBe(true)
    expect(result.kept.bridge).toBeLessThanOrEqual(5)
    expect(result.kept.comparison).toBeLessThanOrEqual(5)
    expect(result.answerInQuestion.comparison).toBe(leaking.filter((q) => q.kind === 'comparison').length)
    const unfiltered = selectGenerated(generated, { maxPerKind: 1000, answerNotInQuestion: false })
    expect(unfiltered.kept.length).toBe(candidates.length)
  })

  it('stores a set whose gold every load resolves to the generated sentences, with provenance', async () => {
    const candidates = selectGenerated(generateCandidates(demo.db.raw, all), { maxPerKind: 30, answerNotInQuestion: true }).kept
    const r = await generateQuestionSet(demo.db.raw, { ...all, name: 'generated', maxPerKind: 30, answerNotInQuestion: true })
    const loaded = loadQuestions(demo.db.raw, { questionSetId: r.setId, limit: 1000 })
    expect(loaded.map((q) => q.question)).toEqual(candidates.map((q) => q.question))
    loaded.forEach((q, i) => {
      expect(q.gold.missing).toEqual([])
      expect(q.gold.sentenceIds).toEqual(candidates[i]!.gold.map((g) => g.sentenceId))
    })
    const page = searchQuestions(demo.db.raw, r.setId, { origin: 'generated' }, 0, 5)
    expect(page.total).toBe(loaded.length)
    expect(page.questions[0]!.provenance).toMatchObject({ origin: 'generated', answerInQuestion: false })
    expect(page.questions[0]!.provenance.detail).toBeTruthy()
    expect(page.questions[0]!.goldSentences.every((g) => g.text !== null)).toBe(true)
  })
})

describe('questions that need search', () => {
  const goldTexts = (raw: OpenedDatabase<unknown>['raw'], q: GeneratedQuestion): string[] => q.gold.map((g) => raw.prepare('select text from sentences where id = ?').pluck().get(g.sentenceId) as string)

  it('never quotes a gold sentence, never answers with a stop phrase, and words only confidently typed bridges', () => {
    for (const raw of [db.raw, demo.db.raw]) {
      const generated = generateCandidates(raw, all)
      const qs = generated.questions
      const bridges = qs.filter((q) => q.form === 'bridge')
      expect(bridges.length).toBeGreaterThan(0)
      for (const q of qs) {
        expect(goldQuoteShare(q.question, goldTexts(raw, q)), q.question).toBeLessThan(QUOTE_SHARE)
        expect(isStopPhrase(q.answers[0]!), q.answers[0]).toBe(false)
      }
      for (const q of bridges) {
        const [, name, type] = /^bridge entity "(.*?)" \((\w+)\)/.exec(q.detail)!
        expect(confidentType(name!, type!), q.detail).toBe(true)
        // The bridge entity is described, never named; the answer is not given away.
        expect(q.question.toLowerCase()).not.toContain(name!.toLowerCase())
        expect(answerInQuestion(q.question, q.answers)).toBe(false)
      }
      const figures = questionFigures(raw, selectGenerated(generated, { maxPerKind: 1000, answerNotInQuestion: true }).kept.map((q) => ({ question: q.question, answers: q.answers, goldSentenceIds: q.gold.map((g) => g.sentenceId), goldDocumentIds: q.gold.map((g) => g.documentId) })))
      expect(figures.quoting).toBe(0)
      expect(figures.stopPhraseAnswers).toBe(0)
    }
  })

  it('describes a span by the words next to it, never by a name or a number', () => {
    const text = 'Ada Lovelace was born in London in 1815, and worked with Charles Babbage.'
    const span = (s: string) => ({ start: text.indexOf(s), end: text.indexOf(s) + s.length })
    expect(relation(text, span('London'))).toBe(' right after the words "was born in"')
    expect(relation(text, span('Charles Babbage'))).toBe(' right after the words "and worked with"')
    // Only function words before and a number after: nothing locates it.
    expect(relation('It was in Paris 1900.', { start: 10, end: 15 })).toBe('')
  })

  it('scores quoting, stop phrases and confident types as documented', () => {
    expect(goldQuoteShare('Where was Ada Lovelace born?', ['Ada Lovelace was born in London.'])).toBeGreaterThanOrEqual(QUOTE_SHARE)
    expect(goldQuoteShare('"Analytical Engine" mentions a person right after the words "designed by".', ['Ada Lovelace was born in London in 1815.'])).toBe(0)
    for (const a of ['that year', 'the following season', 'later', 'several']) expect(isStopPhrase(a), a).toBe(true)
    for (const a of ['1851', 'River Suel', 'the 1980s', 'Charles Babbage']) expect(isStopPhrase(a), a).toBe(false)
    expect(confidentType('Bible', 'PERSON')).toBe(false)
    expect(confidentType('Charles Babbage', 'PERSON')).toBe(true)
    expect(confidentType('University of Oxford', 'ORG')).toBe(true)
    expect(confidentType('Climate', 'ORG')).toBe(false)
    expect(confidentType('Argentina', 'GPE')).toBe(true)
    expect(confidentType('Cognitive', 'GPE')).toBe(false)
    expect(confidentType('Anything', 'NAME')).toBe(false)
  })
})

describe('values', () => {
  it('reads years and amounts, and refuses what is not one', () => {
    expect(yearOf('17 April 1979')).toBe(1979)
    expect(yearOf('the 1980s')).toBeNull()
    expect(yearOf('2015.3')).toBeNull()
    expect(yearOf('1800 BC')).toBeNull()
    expect(yearOf('c. 300 BCE')).toBeNull()
    expect(yearOf('1990 to 1995')).toBeNull()
    expect(amountOf('$391.0 billion', 'MONEY')).toEqual({ value: 391e9, unit: 'money' })
    expect(amountOf('12.5%', 'PERCENT')).toEqual({ value: 12.5, unit: 'percent' })
    expect(amountOf('164,000', 'CARDINAL')).toEqual({ value: 164000, unit: 'count' })
    expect(amountOf('about', 'CARDINAL')).toBeNull()
  })
})
