import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { workspaceMigrations } from '../../main/db/migrations'
import { openDatabase, type OpenedDatabase } from '../../main/db/open'
import { loadQuestions } from '../../main/experiments/questions'
import { defaultIngestOptions, runIngest } from '../../main/ingest/run'
import { parseCsv } from '../../main/questions/csv'
import { importQuestionSet, QuestionSetError, readRows, searchQuestions } from '../../main/questions'
import { quiet } from '../helpers/corpus'
import { tempDir } from '../helpers/services'

const FIXTURES = join(import.meta.dirname, '../fixtures/questions')
const fixture = (name: string): string => readFileSync(join(FIXTURES, name), 'utf8')

let tmp: ReturnType<typeof tempDir>
let db: OpenedDatabase<unknown>
const sentenceId = (title: string, ord: number): number =>
  db.raw.prepare('select s.id from sentences s join documents d on d.id = s.document_id where d.title = ? and s.ord = ?').pluck().get(title, ord) as number

beforeAll(async () => {
  tmp = tempDir('harness-lab-qimport-')
  db = await openDatabase(join(tmp.dir, 'workspace.db'), workspaceMigrations)
  await runIngest(db.raw, { kind: 'folder', path: join(FIXTURES, 'corpus') }, defaultIngestOptions(), quiet)
}, 600_000)

afterAll(async () => {
  await db.close()
  tmp.cleanup()
})

describe('question import', () => {
  it('JSONL: every kind of gold reference resolves; bad rows and unresolved gold are reported with their line', () => {
    const { setId, report } = importQuestionSet(db.raw, { name: 'jsonl', text: fixture('questions.jsonl'), fileName: 'questions.jsonl' })
    expect(report.format).toBe('jsonl')
    expect(report.imported).toBe(5)
    expect(report.badRows.map((b) => [b.line, b.reason.split(':')[0]])).toEqual([
      [4, 'invalid JSON'],
      [5, 'no question (question / query / question_text / q)'],
      [6, 'answers'],
      [9, 'expected an object, got an array'],
      [10, 'duplicate id "q1" (first on line 1)'],
    ])
    const unresolved = report.unresolved.map((u) => [u.line, u.item])
    expect(unresolved).toContainEqual([8, 'gold document "Nonexistent Page"'])
    expect(unresolved).toContainEqual([8, 'sentence "Babbage"'])
    expect(report.unresolved.find((u) => u.item === 'sentence "Babbage"')!.reason).toMatch(/^ambiguous: \d+ sentences match/)
    expect(unresolved).toContainEqual([11, 'gold sentence 99 of "Charles Babbage"'])
    expect(report.unresolved.filter((u) => u.line <= 3)).toEqual([])

    // Loaded the way evaluations load them, the gold is pinned to the right sentences and documents.
    const byExternal = new Map(loadQuestions(db.raw, { questionSetId: setId, limit: 100 }).map((q) => [q.question, q]))
    const q1 = byExternal.get('Where was Ada Lovelace born?')!
    expect(q1.answers).toEqual(['London'])
    expect(q1.gold.sentenceIds).toEqual([sentenceId('Ada Lovelace', 1)])
    const q2 = byExternal.get('Who designed the Difference Engine?')!
    expect(q2.answers).toEqual(['Charles Babbage', 'Babbage'])
    expect(q2.gold.sentenceIds).toEqual([sentenceId('Charles Babbage', 2)])
    expect(q2.gold.missing).toEqual([])
    // A file name names its document; a case-insensitive partial quote names its one sentence.
    const q3 = byExternal.get('Who visited the workshop in 1833?')!
    expect(q3.gold.sentenceIds).toEqual([sentenceId('notes', 1)])
    expect(q3.gold.documents.map((d) => d.title)).toEqual(['notes'])
    // HotpotQA's {title: [...], sent_id: [...]} facts.
    const q8 = byExternal.get('Who built part of the machine?')!
    expect(q8.gold.sentenceIds).toEqual([sentenceId('Analytical Engine', 4)])
    expect(q8.gold.missing).toEqual(['gold document "Nonexistent Page" is not in the corpus'])
  })

  it('JSON under {data: [...]} reports each element at its own line; answers as a string or {text: [...]}', () => {
    const { setId, report } = importQuestionSet(db.raw, { name: 'json', text: fixture('questions.json'), fileName: 'q.json' })
    expect(report.imported).toBe(2)
    expect(report.badRows).toEqual([{ line: 10, question: null, item: null, reason: expect.stringMatching(/^no question/) }])
    const qs = loadQuestions(db.raw, { questionSetId: setId, limit: 10 })
    expect(qs.map((q) => q.answers)).toEqual([['1871'], ['Turin', 'in Turin']])
    expect(qs[0]!.gold.sentenceIds).toEqual([sentenceId('Charles Babbage', 4)])
    expect(qs[1]!.gold.sentenceIds).toEqual([sentenceId('Analytical Engine', 2)])
  })

  it('CSV with a BOM, CRLF, quoted commas, quotes and newlines; bad rows keep their line', () => {
    const { setId, report } = importQuestionSet(db.raw, { name: 'csv', text: fixture('questions.csv'), fileName: 'questions.csv' })
    expect(report.imported).toBe(3)
    expect(report.badRows.map((b) => [b.line, b.reason])).toEqual([
      [5, expect.stringMatching(/^no question/)],
      [6, 'malformed CSV: 7 fields, the header has 6'],
    ])
    const { questions } = searchQuestions(db.raw, setId, {}, 0, 10)
    expect(questions.map((q) => q.externalId)).toEqual(['c1', 'c2', 'c5'])
    expect(questions[0]!.question).toBe('Who worked with Charles Babbage, on the engine?')
    expect(questions[0]!.answers).toEqual(['Ada Lovelace', 'Lovelace'])
    expect(questions[1]!.question).toBe('A question\nover two lines with "quotes"')
    expect(questions[1]!.provenance).toEqual({ origin: 'import', line: 3, fields: { split: 'dev' } })
    // The page shows the gold sentence's text.
    expect(questions[0]!.goldSentences.map((g) => g.text)).toEqual(['She worked with Charles Babbage on the Analytical Engine.'])
    expect(questions[2]!.goldDocuments.map((d) => d.title)).toEqual(['Analytical Engine'])
  })

  it('refuses a second set with the same name, and keeps the first', () => {
    const before = db.raw.prepare('select count(*) from questions').pluck().get()
    expect(() => importQuestionSet(db.raw, { name: 'csv', text: fixture('questions.csv') })).toThrow(QuestionSetError)
    expect(db.raw.prepare('select count(*) from questions').pluck().get()).toBe(before)
  })

  it('a JSON array with one broken element keeps the others and reports that element at its line', () => {
    const { report } = importQuestionSet(db.raw, { name: 'broken', text: '[\n  {"question": "a", "answer": "b"},\n  {"question": oops},\n  {"question": "c", "answer": "d"}\n]', fileName: 'x.json' })
    expect(report.imported).toBe(2)
    expect(report.badRows.map((b) => [b.line, b.reason.slice(0, 12)])).toEqual([[3, 'invalid JSON']])
    expect(importQuestionSet(db.raw, { name: 'garbage', text: '{"data": 5', fileName: 'y.json' }).report.badRows).toEqual([{ line: 1, question: null, item: null, reason: expect.stringMatching(/^invalid JSON/) }])
  })
})

describe('CSV reader', () => {
  it('reads quoted fields, escaped quotes and embedded newlines, and reports an unterminated quote', () => {
    expect(parseCsv('a,b\n"x, y","he said ""hi""\nbye"\n').records).toEqual([
      { line: 1, fields: ['a', 'b'] },
      { line: 2, fields: ['x, y', 'he said "hi"\nbye'] },
    ])
    expect(parseCsv('a,b\n1,"open\n').errors).toEqual([{ line: 2, reason: 'unterminated quoted field' }])
    expect(readRows('q\tanswer\nwho?\tme\n', 'csv').rows).toEqual([{ line: 2, value: { q: 'who?', answer: 'me' } }])
  })
})
