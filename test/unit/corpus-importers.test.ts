import { existsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  BENCHMARK_KINDS,
  detectBenchmark,
  import2WikiMultiHopQA,
  importBenchmark,
  importFlashRAG,
  importHotpotQA,
  importMuSiQue,
} from '../../main/corpus/importers'
import { splitContents } from '../../main/corpus/importers/flashrag'
import { IngestFileError, type ParsedSource, type SourceDocument } from '../../main/corpus/types'
import { tempDir } from '../helpers/services'
import { sharedPath } from '../helpers/shared-data'

const FIXTURES = new URL('../fixtures/corpus/benchmarks/', import.meta.url).pathname
const fixture = (name: string) => join(FIXTURES, name)

let tmp: ReturnType<typeof tempDir>
const write = (name: string, content: string): string => {
  const path = join(tmp.dir, name)
  writeFileSync(path, content)
  return path
}

beforeAll(() => {
  tmp = tempDir('harness-lab-importers-')
})
afterAll(() => tmp.cleanup())

async function failure(promise: Promise<unknown>, reason: IngestFileError['reason'], message: RegExp): Promise<void> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  )
  expect(error).toBeInstanceOf(IngestFileError)
  expect((error as IngestFileError).reason).toBe(reason)
  expect((error as IngestFileError).message).toMatch(message)
}

const byId = (result: ParsedSource): Map<string, SourceDocument> => new Map(result.documents.map((doc) => [doc.externalId, doc]))

/** Every gold supporting fact points at an existing sentence of the document with that title. */
function expectFactsResolve(result: ParsedSource): number {
  const documents = byId(result)
  let facts = 0
  for (const question of result.questions) {
    for (const fact of question.supportingFacts) {
      const sentences = documents.get(fact.title)?.sentences
      expect(sentences, `${question.externalId}: ${fact.title}`).toBeDefined()
      expect(sentences![fact.sentence], `${question.externalId}: ${fact.title}[${fact.sentence}]`).toBeTypeOf('string')
      facts++
    }
    for (const title of question.supportingDocs) expect(documents.has(title), title).toBe(true)
  }
  return facts
}

/** The invariant the chunker relies on: text is the sentences joined by single spaces. */
const expectSentenceText = (result: ParsedSource) => {
  for (const doc of result.documents) if (doc.sentences) expect(doc.text).toBe(doc.sentences.join(' '))
}

describe('HotpotQA', () => {
  it('builds documents from context paragraphs, deduplicated by title, with sentences aligned to sent_id', async () => {
    const result = await importHotpotQA({ questionsFile: fixture('hotpot-mini.json') })
    expect(result.documents.map((doc) => doc.externalId)).toEqual(['Castor Point Light', 'Mabel Voss', 'Pell Quay', 'Tarrow'])
    const voss = byId(result).get('Mabel Voss')!
    expect(voss).toEqual({
      externalId: 'Mabel Voss',
      title: 'Mabel Voss',
      sentences: [
        'Mabel Voss (1862-1940) was a lighthouse keeper and amateur botanist.',
        'She was born in the fishing village of Tarrow.',
        '', // a blank sentence keeps its slot so later indices stay right
        'Her pressed flowers are kept at the bay museum.',
      ],
      text: 'Mabel Voss (1862-1940) was a lighthouse keeper and amateur botanist. She was born in the fishing village of Tarrow.  Her pressed flowers are kept at the bay museum.',
      source: { path: 'hotpot-mini.json', record: 0 },
    })
    expect(byId(result).get('Tarrow')!.source).toEqual({ path: 'hotpot-mini.json', record: 1 })
    expectSentenceText(result)
  })

  it('produces gold questions with answers, type, level, supporting facts and documents', async () => {
    const { questions } = await importHotpotQA({ questionsFile: fixture('hotpot-mini.json') })
    expect(questions[0]).toEqual({
      externalId: 'hq-bridge-1',
      question: 'In which village was the keeper of the Castor Point Light born?',
      answers: ['Tarrow'],
      type: 'bridge',
      supportingFacts: [
        { title: 'Castor Point Light', sentence: 2 },
        { title: 'Mabel Voss', sentence: 1 },
      ],
      supportingDocs: ['Castor Point Light', 'Mabel Voss'],
      metadata: { benchmark: 'hotpotqa', level: 'easy' },
    })
    // A fact pointing past the paragraph's last sentence is kept visible, not passed on as gold.
    expect(questions[1]!.supportingFacts).toEqual([
      { title: 'Pell Quay', sentence: 1 },
      { title: 'Castor Point Light', sentence: 1 },
    ])
    expect(questions[1]!.metadata).toEqual({ benchmark: 'hotpotqa', level: 'medium', unresolvedSupportingFacts: [{ title: 'Castor Point Light', sentence: 7 }] })
  })

  it('reads a title -> sentences corpus file first, so extra titles and corpus provenance come with it', async () => {
    const result = await importHotpotQA({ questionsFile: fixture('hotpot-mini.json'), corpusFile: fixture('hotpot-mini-corpus.json') })
    expect(result.documents.map((doc) => doc.externalId)).toEqual(['Orrin Bay', 'Castor Point Light', 'Mabel Voss', 'Pell Quay', 'Tarrow'])
    expect(byId(result).get('Pell Quay')!.source).toEqual({ path: 'hotpot-mini-corpus.json', record: 3 })
    expect(result.documents.every((doc) => doc.metadata === undefined)).toBe(true)
    expect(expectFactsResolve(result)).toBe(4)
    expectSentenceText(result)
  })

  it('counts a paragraph that differs from the corpus version and does not trust facts on changed sentences', async () => {
    const corpus = write(
      'drifted_corpus.json',
      JSON.stringify({
        'Castor Point Light': ['The Castor Point Light is a lighthouse on the northern edge of Orrin Bay.', 'It was first lit in 1872.', 'Its keeper from 1890 to 1921 was Mabel Voss.'],
      }),
    )
    const result = await importHotpotQA({ questionsFile: fixture('hotpot-mini.json'), corpusFile: corpus })
    expect(byId(result).get('Castor Point Light')!.metadata).toEqual({ conflictingVersions: 2 })
    const comparison = result.questions[1]!
    expect(comparison.supportingFacts).toEqual([{ title: 'Pell Quay', sentence: 1 }])
    expect(comparison.metadata!.unresolvedSupportingFacts).toEqual([
      { title: 'Castor Point Light', sentence: 1 },
      { title: 'Castor Point Light', sentence: 7 },
    ])
    expect(result.questions[0]!.supportingFacts).toContainEqual({ title: 'Castor Point Light', sentence: 2 }) // unchanged sentence
  })

  it('accepts a corpus of {title, text} records and takes the sentence split from the contexts', async () => {
    const corpus = write('records_corpus.jsonl', '{"title": "Tarrow", "text": "Tarrow is a fishing village on the west coast of Orrin Bay. Its harbour was dredged in 1958."}\n')
    const result = await importHotpotQA({ questionsFile: fixture('hotpot-mini.json'), corpusFile: corpus })
    const tarrow = byId(result).get('Tarrow')!
    expect(tarrow.source).toEqual({ path: 'records_corpus.jsonl', record: 0 })
    expect(tarrow.sentences).toEqual(['Tarrow is a fishing village on the west coast of Orrin Bay.', 'Its harbour was dredged in 1958.'])
  })

  it('names the record and field of a malformed question', async () => {
    const records = JSON.stringify([
      { _id: 'a', question: 'q?', answer: 'x', supporting_facts: [], context: [] },
      { _id: 'b', question: 'q?', supporting_facts: [], context: [] },
    ])
    await failure(importHotpotQA({ questionsFile: write('no_answer.json', records) }), 'json', /^no_answer\.json, record 1: missing field "answer"$/)
    await failure(
      importHotpotQA({ questionsFile: write('bad_fact.json', JSON.stringify([{ _id: 'a', question: 'q', answer: 'x', supporting_facts: [['T', 'zero']], context: [] }])) }),
      'json',
      /bad_fact\.json, record 0: supporting_facts\[0\] must be \[title, sentence index\], found \["T","zero"\]/,
    )
    await failure(
      importHotpotQA({ questionsFile: write('bad_context.json', JSON.stringify([{ _id: 'a', question: 'q', answer: 'x', supporting_facts: [], context: [['T', 'not a list']] }])) }),
      'json',
      /bad_context\.json, record 0, context\[0\]: expected \[title, \[sentences\]\]/,
    )
    await failure(
      importHotpotQA({ questionsFile: write('twice.json', JSON.stringify([{ _id: 'a', question: 'q', answer: 'x', supporting_facts: [], context: [] }, { _id: 'a', question: 'q', answer: 'x', supporting_facts: [], context: [] }])) }),
      'json',
      /twice\.json, record 1: question id "a" is already used at twice\.json, record 0/,
    )
    await failure(importHotpotQA({ questionsFile: write('cut.json', '[{"_id": "a", "question": ') }), 'json', /cut\.json: malformed JSON at line 1, column 27/)
    await failure(
      importHotpotQA({ questionsFile: fixture('hotpot-mini.json'), corpusFile: write('bad_corpus.json', JSON.stringify({ Tarrow: 3 })) }),
      'json',
      /bad_corpus\.json, entry "Tarrow": expected a list of sentences \(strings\), found number/,
    )
  })
})

describe('2WikiMultiHopQA', () => {
  it('reads the HotpotQA layout (list or columnar) with evidences and answer aliases', async () => {
    const result = await import2WikiMultiHopQA({ questionsFile: fixture('twowiki-mini.json') })
    expect(result.documents.map((doc) => doc.externalId)).toEqual(['Tarrow Boatworks', 'Ida Kerr', 'Pell Ropewalk'])
    const [compositional, comparison] = result.questions
    expect(compositional).toMatchObject({
      externalId: 'w-compositional-1',
      answers: ['Aldous Kerr', 'A. Kerr'],
      type: 'compositional',
      supportingFacts: [
        { title: 'Tarrow Boatworks', sentence: 0 },
        { title: 'Ida Kerr', sentence: 1 },
      ],
      supportingDocs: ['Tarrow Boatworks', 'Ida Kerr'],
    })
    expect(compositional!.metadata!.evidences).toEqual([
      ['Tarrow Boatworks', 'founded by', 'Ida Kerr'],
      ['Ida Kerr', 'father', 'Aldous Kerr'],
    ])
    expect(compositional!.metadata!.benchmark).toBe('2wikimultihopqa')
    expect(comparison!.supportingFacts).toEqual([
      { title: 'Tarrow Boatworks', sentence: 0 },
      { title: 'Pell Ropewalk', sentence: 0 },
    ])
    expect(expectFactsResolve(result)).toBe(4)
  })
})

describe('MuSiQue', () => {
  it('deduplicates paragraphs by title and text, numbering other texts under the same title', async () => {
    const result = await importMuSiQue({ questionsFile: fixture('musique-mini.jsonl') })
    expect(result.documents.map((doc) => [doc.externalId, doc.title])).toEqual([
      ['Mabel Voss', 'Mabel Voss'],
      ['Tarrow', 'Tarrow'],
      ['Pell Quay', 'Pell Quay'],
      ['Tarrow (2)', 'Tarrow'],
      ['Tarrow Boatworks', 'Tarrow Boatworks'],
    ])
    expect(result.documents.every((doc) => doc.sentences === undefined)).toBe(true)
    expect(byId(result).get('Tarrow (2)')).toEqual({
      externalId: 'Tarrow (2)',
      title: 'Tarrow',
      text: 'Tarrow has one shipyard, Tarrow Boatworks.',
      source: { path: 'musique-mini.jsonl', record: 1 },
    })
  })

  it('takes gold documents from is_supporting, with no sentence-level facts', async () => {
    const { questions } = await importMuSiQue({ questionsFile: fixture('musique-mini.jsonl') })
    expect(questions[0]).toMatchObject({
      externalId: '2hop__101_202',
      answers: ['1958', 'in 1958'],
      type: '2hop',
      supportingFacts: [],
      supportingDocs: ['Mabel Voss', 'Tarrow'],
      metadata: { benchmark: 'musique', answerable: true },
    })
    expect(questions[0]!.metadata!.decomposition).toHaveLength(2)
    expect(questions[1]).toMatchObject({ type: '3hop1', supportingDocs: ['Tarrow (2)', 'Tarrow', 'Tarrow Boatworks'] })
  })

  it('reports a malformed line or paragraph by line number', async () => {
    const good = '{"id": "2hop__1_2", "question": "q", "answer": "a", "paragraphs": []}'
    await failure(importMuSiQue({ questionsFile: write('bad_line.jsonl', `${good}\n{"id": "x", "question": \n`) }), 'json', /bad_line\.jsonl: malformed JSON at line 2, column 25/)
    await failure(
      importMuSiQue({ questionsFile: write('no_text.jsonl', `${good}\n\n{"id": "y", "question": "q", "answer": "a", "paragraphs": [{"title": "T", "is_supporting": true}]}\n`) }),
      'json',
      /no_text\.jsonl, line 3, paragraphs\[0\]: missing field "paragraph_text"/,
    )
    await failure(importMuSiQue({ questionsFile: write('no_paragraphs.jsonl', '{"id": "z", "question": "q", "answer": "a"}') }), 'json', /line 1: missing field "paragraphs"/)
  })
})

describe('FlashRAG', () => {
  it('splits the title line off contents and reads the QA file without gold evidence', async () => {
    const result = await importFlashRAG({ corpusFile: fixture('flashrag-corpus.jsonl'), questionsFile: fixture('flashrag-qa.jsonl') })
    expect(result.documents.map((doc) => [doc.externalId, doc.title])).toEqual([
      ['0', 'Castor Point Light'],
      ['1', 'Pell Quay'],
      ['2', 'Tarrow'],
    ])
    expect(result.documents[1]).toEqual({
      externalId: '1',
      title: 'Pell Quay',
      text: 'Pell Quay Pell Quay is the oldest landing stage in Orrin Bay.',
      source: { path: 'flashrag-corpus.jsonl', record: 1, offset: result.documents[1]!.source.offset },
    })
    expect(result.questions[1]).toEqual({
      externalId: 'test_1',
      question: 'what is the oldest landing stage in orrin bay',
      answers: ['Pell Quay', 'the Pell Quay'],
      supportingFacts: [],
      supportingDocs: [],
      metadata: { benchmark: 'flashrag' },
    })
  })

  it('splits contents with or without quotes and without a title line', () => {
    expect(splitContents('"A "quoted" title"\nBody.')).toEqual({ title: 'A "quoted" title', text: 'Body.' })
    expect(splitContents('Plain\nBody.')).toEqual({ title: 'Plain', text: 'Body.' })
    expect(splitContents('No title line.')).toEqual({ title: '', text: 'No title line.' })
  })

  it('names the line and field of a malformed passage or question', async () => {
    await failure(importFlashRAG({ corpusFile: write('c.jsonl', '{"id": "0", "contents": "T\\nx"}\n{"id": "1", "body": "x"}\n') }), 'json', /c\.jsonl, line 2: missing field "contents"/)
    await failure(importFlashRAG({ questionsFile: write('q.jsonl', '{"id": "a", "question": "q", "golden_answers": []}') }), 'json', /q\.jsonl, line 1: field "golden_answers" has no non-empty answer/)
    await failure(importFlashRAG({ corpusFile: write('d.jsonl', '{"id": "0", "contents": "T\\nx"}\n{"id": 0, "contents": "U\\ny"}\n') }), 'json', /d\.jsonl, line 2: passage id "0" is already used at d\.jsonl, line 1/)
  })
})

describe('detection and dispatch', () => {
  it('recognises each benchmark from its records', async () => {
    expect(await detectBenchmark({ questionsFile: fixture('hotpot-mini.json') })).toBe('hotpotqa')
    expect(await detectBenchmark({ questionsFile: fixture('twowiki-mini.json') })).toBe('2wikimultihopqa')
    expect(await detectBenchmark({ questionsFile: fixture('musique-mini.jsonl') })).toBe('musique')
    expect(await detectBenchmark({ questionsFile: fixture('flashrag-qa.jsonl') })).toBe('flashrag')
    expect(await detectBenchmark({ corpusFile: fixture('flashrag-corpus.jsonl') })).toBe('flashrag')
    expect(await detectBenchmark({ questionsFile: write('other.jsonl', '{"prompt": "hi"}') })).toBeNull()
    expect(await detectBenchmark({})).toBeNull()
  })

  it('dispatches by kind and requires a questions file where the benchmark needs one', async () => {
    expect(BENCHMARK_KINDS).toEqual(['hotpotqa', '2wikimultihopqa', 'musique', 'flashrag'])
    const result = await importBenchmark('musique', { questionsFile: fixture('musique-mini.jsonl') })
    expect(result.questions).toHaveLength(2)
    await expect(importBenchmark('hotpotqa', { corpusFile: fixture('hotpot-mini-corpus.json') })).rejects.toThrow(/needs a questions file/)
  })

  it('applies the size limit to benchmark files', async () => {
    await failure(importHotpotQA({ questionsFile: fixture('hotpot-mini.json') }, { maxFileBytes: 100 }), 'too-large', /hotpot-mini\.json: .* is over the 100 B limit/)
  })
})

const HOTPOT = sharedPath('data/hotpotqa-train100')
if (!existsSync(HOTPOT)) console.log(`[corpus-importers] skipping real HotpotQA checks: ${HOTPOT} is absent`)
describe.skipIf(!existsSync(HOTPOT))('real data: HotpotQA train100 (HippoRAG release)', () => {
  const questionsFile = join(HOTPOT, 'hotpotqa_train.json')
  const corpusFile = join(HOTPOT, 'hotpotqa_train_corpus.json')

  it('imports 100 questions whose 229 supporting facts all resolve, over 994 corpus titles', async () => {
    expect(await detectBenchmark({ questionsFile, corpusFile })).toBe('hotpotqa')
    const started = performance.now()
    const result = await importHotpotQA({ questionsFile, corpusFile })
    console.log(`[corpus-importers] HotpotQA train100 with corpus imported in ${(performance.now() - started).toFixed(0)} ms`)
    expect(result.questions).toHaveLength(100)
    expect(result.documents).toHaveLength(994)
    expect(result.documents.every((doc) => doc.source.path === 'hotpotqa_train_corpus.json' && doc.metadata === undefined)).toBe(true)
    expect(result.questions.every((question) => question.metadata!.unresolvedSupportingFacts === undefined)).toBe(true)
    expect(expectFactsResolve(result)).toBe(229)
    expect(result.questions.filter((question) => question.type === 'bridge')).toHaveLength(78)
    expectSentenceText(result)
  })

  it('finds the same 994 documents from the question contexts alone', async () => {
    const result = await importHotpotQA({ questionsFile })
    expect(result.documents).toHaveLength(994)
    expect(expectFactsResolve(result)).toBe(229)
  })
})

const NQ = sharedPath('data/nq17-wiki1000')
if (!existsSync(NQ)) console.log(`[corpus-importers] skipping real FlashRAG checks: ${NQ} is absent`)
describe.skipIf(!existsSync(NQ))('real data: FlashRAG NQ sample', () => {
  it('imports 1000 titled passages and 17 questions', async () => {
    const files = { corpusFile: join(NQ, 'wiki_dpr_sample_1000.jsonl'), questionsFile: join(NQ, 'nq_test.jsonl') }
    expect(await detectBenchmark(files)).toBe('flashrag')
    const result = await importBenchmark('flashrag', files)
    expect(result.documents).toHaveLength(1000)
    expect(result.questions).toHaveLength(17)
    expect(result.documents.every((doc) => doc.title !== '' && !doc.title.startsWith('"') && doc.text.length > 0)).toBe(true)
    expect(result.documents[0]!.title).toBe('Evan Morris')
    expect(result.questions.every((question) => question.answers.length > 0)).toBe(true)
  })
})
