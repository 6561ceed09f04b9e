import { beforeAll, describe, expect, it } from 'vitest'
import type { OpenedDatabase } from '../../main/db/open'
import { EvidenceResolver } from '../../main/experiments/metrics/evidence'
import { loadQuestions } from '../../main/experiments/questions'
import { scoreEpisode } from '../../main/experiments/metrics/score'
import { RunStore } from '../../main/experiments/runs/store'
import { evaluationConfig } from '../helpers/episodes'
import { useDemoWorkspace } from '../helpers/corpus'

describe('episode scoring and storage', () => {
  const demo = useDemoWorkspace(5, 0.3)
  let db: OpenedDatabase<unknown>
  beforeAll(() => {
    db = demo.workspace.db
  })

  const goldSentenceIds = (q: ReturnType<typeof loadQuestions>[number]): number[] =>
    q.supportingFacts.map(
      (f) => db.raw.prepare('select s.id from sentences s join documents d on d.id = s.document_id where d.title = ? and s.ord = ?').pluck().get(f.title, f.sentence) as number,
    )

  it('gives full marks to the gold evidence and the gold answer, in both normalisation variants', () => {
    const [q] = loadQuestions(db.raw, { questionSetId: 1, limit: 1 })
    const ids = goldSentenceIds(q!)
    const m = scoreEpisode(q!, { evidence: { sentenceIds: ids }, seen: { sentenceIds: ids }, turns: 3, formatErrors: 0, endReason: 'answer', toolsUsed: [] }, q!.answers[0]!, new EvidenceResolver(db.raw))
    expect(m).toMatchObject({ 'answer.em.official': 1, 'answer.f1.official': 1, 'answer.em.graphr1': 1, 'sp.recall': 1, 'sp.precision': 1, 'paragraph.recall': 1, turns: 3 })
  })

  it('scores half the evidence and a wrong answer as such', () => {
    const [q] = loadQuestions(db.raw, { questionSetId: 1, limit: 1 })
    const ids = goldSentenceIds(q!)
    const m = scoreEpisode(q!, { evidence: { sentenceIds: ids.slice(0, 1) }, seen: { sentenceIds: ids }, turns: 2, formatErrors: 1, endReason: 'answer', toolsUsed: [] }, 'certainly not this', new EvidenceResolver(db.raw))
    expect(m['answer.em.official']).toBe(0)
    expect(m['sp.recall']).toBe(0.5)
    expect(m['paragraph.trajectoryRecall']).toBe(1)
    expect(m.formatErrors).toBe(1)
  })

  it('scores the gold that the policy\'s own queries found, only where the outcome names queried sentences', () => {
    const [q] = loadQuestions(db.raw, { questionSetId: 1, limit: 1 })
    const ids = goldSentenceIds(q!)
    expect(ids.length).toBeGreaterThanOrEqual(2)
    const evidence = new EvidenceResolver(db.raw)
    const base = { evidence: { sentenceIds: ids }, seen: { sentenceIds: ids }, turns: 3, formatErrors: 0, endReason: 'answer', toolsUsed: [] }
    const otherDocumentSentence = db.raw.prepare('select id from sentences where document_id not in (select document_id from sentences where id in (select value from json_each(?))) limit 1').pluck().get(JSON.stringify(ids)) as number
    const found = scoreEpisode(q!, { ...base, queried: { sentenceIds: [ids[0]!, otherDocumentSentence] } }, '', evidence)
    expect(found['sp.queryRecall']).toBeCloseTo(1 / ids.length, 12)
    const goldDocuments = q!.gold!.documentIds
    const foundDocuments = new Set(db.raw.prepare('select document_id from sentences where id = ?').pluck().all(ids[0]!) as number[])
    expect(found['paragraph.queryRecall']).toBeCloseTo(goldDocuments.filter((d) => foundDocuments.has(d)).length / goldDocuments.length, 12)
    const none = scoreEpisode(q!, { ...base, queried: { sentenceIds: [] } }, '', evidence)
    expect(none).toMatchObject({ 'sp.queryRecall': 0, 'paragraph.queryRecall': 0 })
    const menu = scoreEpisode(q!, base, '', evidence)
    expect(menu).not.toHaveProperty('sp.queryRecall')
    expect(menu).not.toHaveProperty('paragraph.queryRecall')
  })

  it('loads every question with its gold resolved by id, and scores ad-hoc copies identically', () => {
    const questions = loadQuestions(db.raw, { questionSetId: 1, limit: 1000 })
    expect(questions.length).toBeGreaterThan(10)
    const evidence = new EvidenceResolver(db.raw)
    for (const q of questions) {
      expect(q.gold!.missing).toEqual([])
      expect(q.gold!.sentenceIds).toEqual(goldSentenceIds(q))
      expect(q.gold!.documentIds).toHaveLength(q.supportingDocs.length)
      const { gold: _gold, ...adHoc } = q
      const ids = goldSentenceIds(q).slice(0, 1)
      const outcome = { evidence: { sentenceIds: ids }, seen: { sentenceIds: ids }, turns: 1, formatErrors: 0, endReason: 'answer', toolsUsed: [] }
      expect(scoreEpisode(adHoc, outcome, '', evidence)).toEqual(scoreEpisode(q, outcome, '', evidence))
    }
  })

  it('stores episodes whole and reads their metrics back', () => {
    const store = new RunStore(db.raw)
    const runId = store.createRun({ kind: 'eval', name: 't', config: evaluationConfig('graph-menu'), seed: 1, appVersion: 'test', corpusSignature: 'sig', jobId: null })
    const [q] = loadQuestions(db.raw, { questionSetId: 1, limit: 1 })
    store.saveEpisode(runId, q!.rowId, {
      environment: 'graph-menu', question: q!, seed: 9, answer: 'x', ms: 1, resetMs: 0, initialSnapshot: null,
      outcome: { evidence: { sentenceIds: [] }, seen: { sentenceIds: [] }, turns: 1, formatErrors: 0, endReason: 'answer', toolsUsed: [] },
      metrics: { 'sp.recall': 0 },
      steps: [{ t: 0, observationText: 'obs', actions: { kind: 'menu', items: [] }, previews: {}, action: { kind: 'menu', id: 'A' }, decision: {}, info: { valid: true, summary: 's', ms: 0 }, snapshot: { k: 1 }, ms: 0 }],
    })
    expect(store.metricsOf(runId)).toEqual([{ questionId: `${q!.rowId}:9`, metrics: { 'sp.recall': 0 } }])
    expect(store.doneQuestions(runId)).toEqual(new Set([`${q!.rowId}:9`]))
  })
})
