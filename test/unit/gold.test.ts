import { goldEvidence } from '../../main/corpus/gold'
/**
 * Gold resolved once, by document id (main/corpus/gold.ts), and shared by scoring, the Harness-1 reward
 * and the oracle: the resolution rules on a hand-built catalogue, then a MuSiQue-format set whose
 * titles repeat with different texts (one supporting, one not), imported through the real importer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { goldDocumentUnits, goldFactUnits, resolveGold, resolveGoldIn, type GoldCatalogue, type GoldDocumentRow } from '../../main/corpus/gold'
import { EvidenceResolver } from '../../main/experiments/metrics/evidence'
import type { StoredQuestion } from '../../main/experiments/questions'
import { scoreEpisode } from '../../main/experiments/metrics/score'
import type { EnvQuestion, EpisodeOutcome } from '../../main/harness/types'
import { episodeRecalls, scoreHarness1Episode } from '../../main/rl/rewards'
import { openMuSiQueWorkspace, type MuSiQueWorkspace } from '../helpers/musique-workspace'

/** A catalogue from a list of documents: [id, externalId, title, sentence count]; sentence ids are id * 100 + ord. */
function catalogue(docs: [number, string, string, number][]): GoldCatalogue {
  const row = ([id, , title]: [number, string, string, number]): GoldDocumentRow => ({ id, title })
  return {
    documentsByExternalId: (name) => docs.filter((d) => d[1] === name).map(row),
    documentsByTitle: (title) => docs.filter((d) => d[2] === title).map(row),
    sentenceAt: (documentId, ord) => {
      const d = docs.find((x) => x[0] === documentId)
      return d && ord >= 0 && ord < d[3] ? documentId * 100 + ord : null
    },
  }
}

describe('gold resolution rules', () => {
  const c = catalogue([
    [1, 'Kelby', 'Kelby', 2],
    [2, 'Kelby (2)', 'Kelby', 3],
    [3, 'Ansel Marrow', 'Ansel Marrow', 2],
    [4, 'doc-4', 'Farra', 2],
    [5, 'doc-5', 'Farra', 2],
    [6, 'doc-6', 'Westmark Sound', 1],
    [7, 'shared-id', 'Corran', 1],
    [8, 'shared-id', 'Corran Ensemble', 1],
  ])

  it('reads a name as an external id first, then as an unambiguous title, and reports the rest', () => {
    const g = resolveGoldIn(c, { supportingDocs: ['Kelby (2)', 'Kelby', 'Westmark Sound', 'Farra', 'shared-id', 'Nowhere', 'Kelby (2)'], supportingFacts: [] })
    // "Kelby" is the first text's external id (not an ambiguous title); "Westmark Sound" is a unique title.
    expect(g.documentIds).toEqual([2, 1, 6])
    expect(g.documents.map((d) => d.documentId)).toEqual([2, 1, 6, null, null, null])
    expect(g.missing).toEqual([
      'gold document "Farra" is ambiguous: 2 documents have this title and none has it as external id',
      'gold document "shared-id" is ambiguous: 2 documents have this external id',
      'gold document "Nowhere" is not in the corpus',
    ])
    // Every unresolved name is a gold unit that nothing covers.
    expect(goldDocumentUnits(g).map((u) => u.documentId)).toEqual([2, 1, 6, null, null, null])
  })

  it('resolves facts by title, preferring the document the question names when a title repeats', () => {
    const g = resolveGoldIn(c, {
      supportingDocs: ['Kelby (2)', 'Ansel Marrow'],
      supportingFacts: [
        { title: 'Kelby', sentence: 2 },
        { title: 'Ansel Marrow', sentence: 0 },
        { title: 'Ansel Marrow', sentence: 0 },
        { title: 'Ansel Marrow', sentence: 9 },
        { title: 'Farra', sentence: 0 },
        { title: 'Nowhere', sentence: 0 },
      ],
    })
    expect(g.sentenceIds).toEqual([202, 300])
    expect(g.facts).toEqual([
      { title: 'Kelby', sentence: 2, documentId: 2, sentenceId: 202 },
      { title: 'Ansel Marrow', sentence: 0, documentId: 3, sentenceId: 300 },
      { title: 'Ansel Marrow', sentence: 9, documentId: 3, sentenceId: null },
      { title: 'Farra', sentence: 0, documentId: null, sentenceId: null },
      { title: 'Nowhere', sentence: 0, documentId: null, sentenceId: null },
    ])
    expect(g.missing).toEqual([
      'gold sentence 9 of "Ansel Marrow" is not in the corpus',
      'gold sentence 0 of "Farra": ambiguous: 2 documents have this title',
      'gold sentence 0 of "Nowhere": no document has this title',
    ])
    expect(goldFactUnits(g)).toHaveLength(5)
    // Without a named document, a repeated title falls back to the document whose external id it is.
    expect(resolveGoldIn(c, { supportingDocs: [], supportingFacts: [{ title: 'Kelby', sentence: 1 }] }).sentenceIds).toEqual([101])
  })

  it('takes the gold documents from the facts when the question names none', () => {
    const g = resolveGoldIn(c, {
      supportingDocs: [],
      supportingFacts: [
        { title: 'Ansel Marrow', sentence: 1 },
        { title: 'Westmark Sound', sentence: 0 },
        { title: 'Ansel Marrow', sentence: 0 },
        { title: 'Nowhere', sentence: 3 },
      ],
    })
    expect(g.documentIds).toEqual([3, 6])
    expect(g.documents).toEqual([
      { name: 'Ansel Marrow', documentId: 3, title: 'Ansel Marrow' },
      { name: 'Westmark Sound', documentId: 6, title: 'Westmark Sound' },
      { name: 'Nowhere', documentId: null, title: null },
    ])
  })
})

describe('paragraph-level gold with repeated titles (MuSiQue format)', () => {
  let w: MuSiQueWorkspace
  let evidence: EvidenceResolver
  const byExternal = (externalId: string): StoredQuestion => w.questions.find((q) => q.supportingDocs.includes(externalId))!
  const sentences = (ids: number[]): EpisodeOutcome => ({ evidence: { sentenceIds: ids }, seen: { sentenceIds: ids }, turns: 2, formatErrors: 0, endReason: 'answer', toolsUsed: [] })
  const chunks = (curated: number[], seen: number[] = curated): EpisodeOutcome => ({ evidence: { chunkIds: curated }, seen: { chunkIds: seen }, turns: 7, formatErrors: 0, endReason: 'answer', toolsUsed: ['fan_out_search', 'curate'] })
  const adHoc = ({ gold: _gold, rowId: _rowId, ...q }: StoredQuestion): EnvQuestion => q

  beforeAll(async () => {
    w = await openMuSiQueWorkspace()
    evidence = new EvidenceResolver(w.db.raw)
  })
  afterAll(() => w.close())

  it('imports repeated titles as separate documents and resolves every question to the supporting ones', () => {
    expect(w.questions).toHaveLength(5)
    const titled = w.db.raw.prepare('select external_id from documents where title = ? order by id').pluck()
    for (const title of ['Kelby', 'Farra', 'Greywell Press', 'Hugo Vance', 'Saint Irien']) expect(titled.all(title)).toEqual([title, `${title} (2)`])
    for (const q of w.questions) {
      expect(q.gold, q.question).toBeDefined()
      expect(q.gold!.missing).toEqual([])
      expect(q.gold!.sentenceIds).toEqual([])
      expect(q.gold!.documentIds).toEqual(q.supportingDocs.map(w.documentId))
      // The same resolver on the fly gives the same gold.
      expect(resolveGold(w.db.raw, q)).toEqual(q.gold)
    }
    expect(byExternal('Kelby (2)').gold!.documents[1]).toEqual({ name: 'Kelby (2)', documentId: w.documentId('Kelby (2)'), title: 'Kelby' })
  })

  it('counts a committed paragraph by its document, never by a title it shares with the gold', () => {
    // Supporting "Kelby (2)" (the town), non-supporting "Kelby" (the surname): titles alike, documents not.
    const q1 = byExternal('Kelby (2)')
    const marrow = w.sentenceIds('Ansel Marrow')[0]!
    const town = w.sentenceIds('Kelby (2)')[0]!
    const surname = w.sentenceIds('Kelby')[0]!
    expect(scoreEpisode(q1, sentences([marrow, surname]), '', evidence)['paragraph.recall']).toBe(0.5)
    expect(scoreEpisode(q1, sentences([marrow, town]), '', evidence)['paragraph.recall']).toBe(1)
    expect(scoreEpisode(q1, sentences([surname]), '', evidence)['paragraph.recall']).toBe(0)
    expect(scoreEpisode(q1, sentences([town]), '', evidence)['paragraph.recall']).toBe(0.5)

    // Supporting "Farra" (the island, the first text), non-supporting "Farra (2)" (the card game).
    const q2 = byExternal('Farra')
    const painter = w.sentenceIds('Mira Solen')[0]!
    expect(scoreEpisode(q2, sentences([painter, w.sentenceIds('Farra (2)')[0]!]), '', evidence)['paragraph.recall']).toBe(0.5)
    expect(scoreEpisode(q2, sentences([painter, w.sentenceIds('Farra')[1]!]), '', evidence)['paragraph.recall']).toBe(1)
    // Precision follows the same documents: the card game is a false positive.
    const both = scoreEpisode(q2, sentences([painter, w.sentenceIds('Farra')[0]!, w.sentenceIds('Farra (2)')[0]!]), '', evidence)
    expect(both['paragraph.recall']).toBe(1)
    expect(both['harness1.curatedFBeta']).toBeCloseTo((5 * (2 / 3) * 1) / (4 * (2 / 3) + 1), 10)
    // Paragraph-level gold has no sentence-level metrics.
    expect(both['sp.recall']).toBeUndefined()
  })

  it('gives the Harness-1 reward the same recalls as scoreEpisode on the same evidence, with or without preloaded gold', () => {
    const names = ['Kelby', 'Kelby (2)', 'Ansel Marrow', 'Farra', 'Farra (2)', 'Mira Solen', 'Greywell Press', 'Greywell Press (2)', 'Edda Lorne', 'Hugo Vance', 'Hugo Vance (2)', 'Lise Arden', 'Corran Ensemble', 'Saint Irien', 'Saint Irien (2)', 'Aldo Fenn', 'Mount Cael']
    const ids = names.map(w.chunkId)
    const sets: [number[], number[]][] = [
      [[], []],
      [ids.slice(0, 2), ids.slice(0, 6)],
      [ids.slice(1, 3), ids],
      [ids.filter((_, i) => i % 2 === 0), ids.filter((_, i) => i % 3 === 0)],
      [ids.filter((_, i) => i % 2 === 1), ids],
      [ids, ids],
    ]
    let compared = 0
    for (const q of w.questions) {
      for (const [curated, seen] of sets) {
        const m = scoreEpisode(q, chunks(curated, seen), '', evidence)
        const r = episodeRecalls(goldEvidence(w.db.raw), q, curated, seen).recalls
        expect(r.curatedRecall).toBe(m['paragraph.recall'])
        expect(r.trajectoryRecall).toBe(m['paragraph.trajectoryRecall'])
        expect(r.answerRecall).toBe(m['harness1.answerRecall'])
        expect(r.trajectoryAnswerRecall).toBe(m['harness1.trajectoryAnswerRecall'])
        expect(r.curatedFBeta).toBe(m['harness1.curatedFBeta'])
        expect(scoreHarness1Episode(goldEvidence(w.db.raw), q, chunks(curated, seen), ['fan_out_search', 'curate']).curatedRecall).toBe(m['paragraph.recall'])
        // An ad-hoc copy (no gold loaded) is resolved on the fly, with the same result.
        expect(scoreEpisode(adHoc(q), chunks(curated, seen), '', evidence)).toEqual(m)
        expect(episodeRecalls(goldEvidence(w.db.raw), adHoc(q), curated, seen).recalls).toEqual(r)
        compared++
      }
    }
    expect(compared).toBe(30)
    // The same-title distractor earns nothing at document level, the supporting paragraph everything it should.
    const q1 = byExternal('Kelby (2)')
    expect(episodeRecalls(goldEvidence(w.db.raw), q1, [w.chunkId('Kelby')], []).recalls).toMatchObject({ curatedRecall: 0, curatedPrecision: 0 })
    expect(episodeRecalls(goldEvidence(w.db.raw), q1, [w.chunkId('Kelby (2)'), w.chunkId('Ansel Marrow')], []).recalls).toMatchObject({ curatedRecall: 1, curatedPrecision: 1, answerRecall: 1 })
  })

  it('counts unresolved gold as never covered, and says what it was', () => {
    const q = { ...adHoc(byExternal('Kelby (2)')), supportingDocs: ['Ansel Marrow', 'Kelby (7)'] }
    const m = scoreEpisode(q, chunks([w.chunkId('Ansel Marrow'), w.chunkId('Kelby (2)')]), '', evidence)
    expect(m['paragraph.recall']).toBe(0.5)
    const r = episodeRecalls(goldEvidence(w.db.raw), q, [w.chunkId('Ansel Marrow')], [])
    expect(r.recalls).toMatchObject({ curatedRecall: 0.5, goldCount: 2 })
    expect(r.notes).toEqual(['gold document "Kelby (7)" is not in the corpus'])
    // Fact level on paragraph-level gold falls back to document level, and says so.
    expect(episodeRecalls(goldEvidence(w.db.raw), q, [w.chunkId('Ansel Marrow')], [], { level: 'fact' }).notes).toEqual([
      'gold document "Kelby (7)" is not in the corpus',
      'fact level requested but the question has no supporting facts: measured at document level',
    ])
  })
})
