/**
 * One answer per generated question, evidence worth finding: a small corpus written here where two
 * articles name the same person right after the same words with different dates, so a question that
 * reaches the second hop through those words has two answers. The generator must not emit it; the
 * check finds each way a question can point at more than one thing; questions read back from their
 * text; the evidence test refuses reference, list and markup lines, end matter and list pages; and a
 * stored set keeps its candidates and drops by reason.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { corpusRepositories } from '../../main/corpus/repository'
import { workspaceMigrations } from '../../main/db/migrations'
import { openDatabase, type OpenedDatabase } from '../../main/db/open'
import { defaultIngestOptions, runIngest } from '../../main/ingest/run'
import { generateCandidates, generateQuestionSet, questionSetDetail, type QuestionUsage } from '../../main/questions'
import { checkBridge } from '../../main/questions/generate/bridge-check'
import { parseBridge, renderBridge, type BridgeReading } from '../../main/questions/generate/bridge-reading'
import { CorpusView } from '../../main/questions/generate/corpus-view'
import { documentFlaws, sentenceFlaw } from '../../main/questions/generate/evidence'
import { quiet } from '../helpers/corpus'
import { tempDir } from '../helpers/services'

const CORPUS: Record<string, string> = {
  'alpha-festival.md': '# Alpha Festival\n\nThe Alpha Festival is an annual music festival in the valley town of Brenton.\nThe festival was founded by Maria Keller after a long campaign for a summer stage.\nIt draws several thousand visitors every August.\n',
  // The same person right after the same words, with different dates: "the article that names her right after those words" is two articles.
  'orchard-survey.md': '# Orchard Survey\n\nThe Orchard Survey is a study of the fruit trees of the Brenton valley.\nThe survey was commissioned by Maria Keller on 12 March 1931 and took four years.\nIts maps are kept in the town library.\n',
  'river-survey.md': '# River Survey\n\nThe River Survey is a record of the water levels of the river Ambel.\nThe survey was commissioned by Maria Keller on 4 June 1944 and covered the whole valley.\nIts tables are still used by engineers.\n',
  // Two people right after "was founded by": that cue points at no one thing.
  'beta-fair.md': '# Beta Fair\n\nThe Beta Fair was founded by Anna Lind in the old market hall.\nIts winter market was founded by Tomas Berger in the same hall.\n',
}

const noUsage = { usedBy: () => [] } as unknown as QuestionUsage
let tmp: ReturnType<typeof tempDir>
let db: OpenedDatabase<unknown>
let view: CorpusView

beforeAll(async () => {
  tmp = tempDir('harness-lab-qunique-')
  const dir = join(tmp.dir, 'corpus')
  mkdirSync(dir)
  for (const [name, text] of Object.entries(CORPUS)) writeFileSync(join(dir, name), text)
  db = await openDatabase(join(tmp.dir, 'workspace.db'), workspaceMigrations)
  await runIngest(db.raw, { kind: 'folder', path: dir }, defaultIngestOptions(), quiet)
  view = new CorpusView(corpusRepositories(db.raw).questionGeneration)
}, 600_000)

afterAll(async () => {
  await db.close()
  tmp.cleanup()
})

const after = (words: string) => ({ side: 'after' as const, words: words.split(' ') })
const reading = (title: string, secondCue: string, answerCue: BridgeReading['answerCue'] = null): BridgeReading => ({
  title,
  bridgeWord: 'person',
  bridgeCue: after(title === 'Alpha Festival' ? 'was founded by' : 'was commissioned by'),
  second: { kind: 'names', cue: after(secondCue) },
  answerWord: 'date',
  answerCue,
})

describe('one answer per bridge question', () => {
  it('never emits the question whose second hop two articles fit with different answers; what it emits checks out', () => {
    let bridges = 0
    for (const seed of [1, 2, 3, 4, 5, 6]) {
      const { questions } = generateCandidates(db.raw, { seed, kinds: ['bridge'], maxPerKind: 100 })
      for (const q of questions) {
        bridges++
        // From "Alpha Festival" the only way on is "the article that names her right after 'was commissioned by'": two articles, two dates.
        expect(q.gold[0]!.title, q.question).not.toBe('Alpha Festival')
        expect(q.question).not.toContain('Another article mentions the same')
        const r = parseBridge(q.question)
        expect(r, q.question).not.toBeNull()
        const verdict = checkBridge(view, r!, q.answers[0]!)
        expect(verdict, q.question).toMatchObject({ ok: true })
        expect(verdict.ok && verdict.sentenceIds).toContain(q.gold[1]!.sentenceId)
      }
    }
    // The corpus still makes questions: from one survey, the other is the one other sentence naming her so.
    expect(bridges).toBeGreaterThan(0)
  })

  it('says why a question points at more than one thing', () => {
    expect(checkBridge(view, reading('Alpha Festival', 'was commissioned by'), '12 March 1931')).toMatchObject({ ok: false, reason: 'second-hop-not-unique' })
    // From one survey the other is the only other sentence; its one full date is the answer, once "four years" is told apart by its words.
    expect(checkBridge(view, reading('Orchard Survey', 'was commissioned by'), '4 June 1944')).toMatchObject({ ok: true })
    expect(checkBridge(view, reading('River Survey', 'was commissioned by'), '12 March 1931')).toMatchObject({ ok: false, reason: 'answer-not-unique' })
    expect(checkBridge(view, reading('River Survey', 'was commissioned by', { side: 'before', words: ['and', 'took', 'four'] }), '12 March 1931')).toMatchObject({ ok: true })
    // Two people right after the same words in the first document.
    const beta: BridgeReading = { ...reading('Alpha Festival', 'was commissioned by'), title: 'Beta Fair' }
    expect(checkBridge(view, beta, '12 March 1931')).toMatchObject({ ok: false, reason: 'bridge-not-unique' })
    // A gold the words do not lead to is no question.
    expect(checkBridge(view, reading('Orchard Survey', 'was commissioned by'), '12 March 1931')).toMatchObject({ ok: false, reason: 'gold-not-reached' })
  })

  it('reads a question back from its text, both second-hop forms, with and without an answer cue', () => {
    const forms: BridgeReading[] = [
      reading('Orchard Survey', 'was commissioned by'),
      reading('River Survey', 'was commissioned by', { side: 'before', words: ['and', 'took', 'four'] }),
      { title: 'Ingmar Bergman', bridgeWord: 'organisation', bridgeCue: after('later renamed'), second: { kind: 'article-on' }, answerWord: 'date', answerCue: after('a college in') },
    ]
    for (const r of forms) expect(parseBridge(renderBridge(r))).toEqual(r)
    expect(renderBridge(forms[2]!)).toBe('"Ingmar Bergman" mentions an organisation right after the words "later renamed". What date does the article on that organisation give right after the words "a college in"?')
    expect(parseBridge('"Othello" mentions a person right after the words "a tragedy by". Another article mentions the same person: what date does it give?')).toBeNull()
  })

  it('stores candidates, kept and every drop by reason with the set', async () => {
    const result = await generateQuestionSet(db.raw, { name: 'unique', seed: 1, kinds: ['bridge', 'comparison'], maxPerKind: 100, answerNotInQuestion: true })
    const report = questionSetDetail(db.raw, noUsage, result.setId).generation!
    expect(report).toMatchObject({ kind: 'generation', seed: 1, kept: result.kept, candidates: result.candidates })
    for (const kind of ['bridge', 'comparison']) {
      const dropped = Object.values(report.dropped).reduce((n, by) => n + (by[kind] ?? 0), 0)
      expect(report.kept[kind]! + dropped, kind).toBe(report.candidates[kind])
    }
    expect(questionSetDetail(db.raw, noUsage, result.setId).report).toBeNull()
  })
})

describe('evidence worth finding', () => {
  it('refuses reference, citation, list, table, markup and heading lines, and fragments', () => {
    for (const line of [
      '[19] "Julia Hoyt, Film and Stage Beauty, Dead" Chicago Tribune (November 1, 1955): pt. 3, p. 10.',
      'Retrieved November 24, 2016.',
      'Iowa City: University of Iowa Press, pp. 304-305.',
      '[44]',
      '22 MAY 1946: McGill University, Doctor of Laws (LLD)[166]',
      '1537 – Asunción, Paraguay is founded.',
      '1969 – Neil Armstrong walks on the Moon.\n1970 – A second line of the same list.',
      'Rank\tTeam\tPoints',
      'This is the Gambia River in Senegal\'s Niokolo-Koba National Park.]] of Baja California Desert',
      'Category:1897 births Category:1955 deaths',
      'External links',
      'Independence Day (Brunei, Cameroon, Haiti, Sudan)',
      'In February 2015, the firm introduced a',
      'of fall 2017, the school has 15 full-time faculty members.',
    ]) {
      expect(sentenceFlaw(line), line).not.toBeNull()
    }
    for (const line of ['Ada Lovelace was born in London in 1815.', '[13] They had two children who died in infancy, and divorced in 1924.', 'iPhone net sales were relatively flat during 2024 compared to 2023.']) {
      expect(sentenceFlaw(line), line).toBeNull()
    }
  })

  it('reads end matter and list pages from the document', () => {
    const article = ['Ada Lovelace was an English mathematician.', 'Early life', 'She was born in London in 1815.', 'References', 'Smith wrote a careful biography of her in 1999.']
    expect(documentFlaws(article)).toEqual([null, 'heading', null, 'heading', 'end-matter'])
    // A calendar page: its few prose lines are a list page's lines too.
    const calendar = ['Events', '1537 – Asunción is founded.', '1695 – The bombardment of Brussels ends.', '1914 – The canal opens.', 'Births', '1769 – Napoleon, French emperor', 'The day is the 227th day of the year.']
    expect(documentFlaws(calendar).at(-1)).toBe('list-page')
  })
})
