import { goldEvidence } from '../../main/corpus/gold'
/** The Harness-1 reward: every term against hand-computed values, overrides, fallbacks, and gold at both levels. */
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { questionsOf } from '../../main/corpus/catalogue'
import { workspaceMigrations } from '../../main/db/migrations'
import { openDatabase, type OpenedDatabase } from '../../main/db/open'
import type { WorkspaceDatabase } from '../../main/db/schema'
import { documentRecalls, type Harness1Recalls } from '../../main/eval'
import type { EnvQuestion } from '../../main/harness/types'
import { defaultIngestOptions, runIngest } from '../../main/ingest/run'
import {
  episodeRecalls,
  HARNESS1_TERMS,
  harness1Reward,
  PUBLISHED_HARNESS1_WEIGHTS,
  resolveHarness1Weights,
  scoreHarness1Episode,
  turnRamp,
} from '../../main/rl/rewards'
import { tempDir } from '../helpers/services'

const recalls = (over: Partial<Harness1Recalls>): Harness1Recalls => ({
  curatedRecall: 0.5,
  trajectoryRecall: 1,
  answerRecall: 0.5,
  trajectoryAnswerRecall: 1,
  curatedPrecision: 0.25,
  curatedFBeta: (5 * 0.25 * 0.5) / (4 * 0.25 + 0.5),
  beta: 2,
  goldCount: 2,
  answerBearingCount: 2,
  ...over,
})

describe('Harness-1 reward terms', () => {
  it('matches a hand-computed episode term by term', () => {
    const r = harness1Reward({ recalls: recalls({}), curatedCount: 4, turns: 10, toolsUsed: ['fan_out_search', 'curate', 'verify', 'end_search', 'curate'], formatErrors: 0 })
    // Fβ(P=0.25, R=0.5, β=2) = 5·0.125 / 1.5 = 0.41667; U = 3; turn ramp (10−8)/(16−8) = 0.25.
    expect(r.distinctTools).toBe(3)
    const v = Object.fromEntries(HARNESS1_TERMS.map((t) => [t, r.terms[t].value]))
    expect(v.curatedFBeta).toBeCloseTo(0.7 * 0.416667, 5)
    expect(v.trajectoryRecall).toBeCloseTo(0.3, 10)
    expect(v.answerFound).toBe(1)
    expect(v.answerRecall).toBeCloseTo(0.4, 10)
    expect(v.trajectoryAnswerRecall).toBeCloseTo(0.4, 10)
    expect(v.answerGap).toBeCloseTo(-0.35 * 0.5, 10)
    expect(v.turnPenalty).toBeCloseTo(-0.1 * 0.25, 10)
    expect(v.toolDiversity).toBeCloseTo(0.25 * 0.5, 10)
    expect(v.toolShortfall).toBeCloseTo(-0.08 * 3, 10)
    expect(r.total).toBeCloseTo(0.291667 + 0.3 + 1 + 0.4 + 0.4 - 0.175 - 0.025 + 0.125 - 0.24, 5)
    expect(r.override).toBeNull()
    expect(r.floored).toBe(false)
    expect(r.fallbacks).toEqual([])
    expect(r.weights).toEqual(PUBLISHED_HARNESS1_WEIGHTS)
  })

  it('floors the formula at 0.001', () => {
    const r = harness1Reward({
      recalls: recalls({ curatedRecall: 0, trajectoryRecall: 0, answerRecall: 0, trajectoryAnswerRecall: 0, curatedPrecision: 0, curatedFBeta: 0 }),
      curatedCount: 3,
      turns: 2,
      toolsUsed: ['end_search'],
      formatErrors: 0,
    })
    expect(r.formula).toBeCloseTo(-0.48, 10)
    expect(r.total).toBe(0.001)
    expect(r.floored).toBe(true)
  })

  it('replaces the formula with -0.5 on a format error and -0.2 when nothing is curated', () => {
    const good = { recalls: recalls({}), curatedCount: 4, turns: 5, toolsUsed: ['search_corpus'], formatErrors: 0 }
    expect(harness1Reward({ ...good, formatErrors: 1 })).toMatchObject({ total: -0.5, override: 'format-error' })
    expect(harness1Reward({ ...good, formatErrors: 2, curatedCount: 0 })).toMatchObject({ total: -0.5, override: 'format-error' })
    const empty = harness1Reward({ ...good, curatedCount: 0 })
    expect(empty).toMatchObject({ total: -0.2, override: 'empty-curated' })
    expect(harness1Reward({ ...good, formatErrors: 1 }, resolveHarness1Weights({ formatErrorsAllowed: 1 })).override).toBeNull()
    // Terms are still reported for the charts.
    expect(empty.terms.trajectoryRecall.value).toBeCloseTo(0.3, 10)
  })

  it('ramps the turn penalty linearly between the start and end turns', () => {
    expect([0, 8, 10, 12, 16, 40].map((t) => turnRamp(t, 8, 16))).toEqual([0, 0, 0.25, 0.5, 1, 1])
    expect(turnRamp(5, 4, 4)).toBe(1)
    expect(turnRamp(4, 4, 4)).toBe(0)
  })

  it('falls back explicitly when recalls are null', () => {
    const noAnswerBearing = harness1Reward({
      recalls: recalls({ answerRecall: null, trajectoryAnswerRecall: null, answerBearingCount: 0 }),
      curatedCount: 2,
      turns: 3,
      toolsUsed: [],
      formatErrors: 0,
    })
    expect(noAnswerBearing.fallbacks).toEqual(['no-answer-bearing-gold'])
    expect(noAnswerBearing.used).toMatchObject({ answerRecall: 0.5, trajectoryAnswerRecall: 1 })
    expect(noAnswerBearing.terms.answerFound.raw).toBe(1)
    const noGold = harness1Reward({
      recalls: recalls({ curatedRecall: null, trajectoryRecall: null, answerRecall: null, trajectoryAnswerRecall: null, curatedFBeta: null, goldCount: 0, answerBearingCount: 0 }),
      curatedCount: 2,
      turns: 3,
      toolsUsed: ['a', 'b', 'c', 'd', 'e', 'f', 'g'],
      formatErrors: 0,
    })
    expect(noGold.fallbacks).toEqual(['no-gold'])
    expect(noGold.used).toEqual({ curatedFBeta: 0, trajectoryRecall: 0, answerRecall: 0, trajectoryAnswerRecall: 0 })
    expect(noGold.total).toBeCloseTo(0.25, 10)
  })

  it('takes edited weights, each changing only its own term', () => {
    const input = { recalls: recalls({}), curatedCount: 4, turns: 12, toolsUsed: ['a', 'b', 'c'], formatErrors: 0 }
    const base = harness1Reward(input)
    const edited = harness1Reward(input, resolveHarness1Weights({ diversity: 0.5, turnPenaltyMax: 0.15 }))
    for (const t of HARNESS1_TERMS) {
      if (t === 'toolDiversity') expect(edited.terms[t].value).toBeCloseTo(0.5 * 0.5, 10)
      else if (t === 'turnPenalty') expect(edited.terms[t].value).toBeCloseTo(-0.15 * 0.5, 10)
      else expect(edited.terms[t]).toEqual(base.terms[t])
    }
    expect(() => resolveHarness1Weights({ beta: 0 })).toThrow(/beta/)
    expect(() => resolveHarness1Weights({ wdiv: 1 } as never)).toThrow(/wdiv/)
  })

  it('agrees with main/eval recalls built from ids', () => {
    const r = documentRecalls({
      curated: ['a', 'x', 'y', 'z'],
      seen: ['b'],
      gold: [
        { id: 'a', text: 'The answer is Lyon.' },
        { id: 'b', text: 'Lyon is a city.' },
      ],
      answers: ['Lyon'],
    })
    const out = harness1Reward({ recalls: r, curatedCount: 4, turns: 10, toolsUsed: ['fan_out_search', 'curate', 'verify'], formatErrors: 0 })
    expect(out.total).toBeCloseTo(0.291667 + 0.3 + 1 + 0.4 + 0.4 - 0.175 - 0.025 + 0.125 - 0.24, 5)
  })
})

describe('Harness-1 gold on a demo-world corpus', () => {
  const tmp = tempDir('harness1-reward-')
  let db: OpenedDatabase<WorkspaceDatabase>
  let q: EnvQuestion
  const chunkOf = (title: string) => db.raw.prepare('select c.id from chunks c join documents d on d.id = c.document_id where d.title = ? order by c.ord limit 1').pluck().get(title) as number

  beforeAll(async () => {
    db = await openDatabase(join(tmp.dir, 'w.db'), workspaceMigrations)
    await runIngest(db.raw, { kind: 'demo', seed: 1, size: 1 }, defaultIngestOptions(), { progress: () => undefined, throwIfCancelled: () => undefined })
    const row = questionsOf(db.raw, 1, 0, 1000).questions.find((x) => x.question.includes('Putrera Puvard worked'))!
    q = { id: String(row.id), question: row.question, answers: row.answers, supportingFacts: row.supportingFacts, supportingDocs: row.supportingDocs }
  })

  afterAll(async () => {
    await db.close()
    tmp.cleanup()
  })

  it('measures document and fact level recall from chunk ids', () => {
    const gold = q.supportingDocs.map(chunkOf)
    const other = chunkOf('Gindia')
    const doc = episodeRecalls(goldEvidence(db.raw), q, [gold[0]!, other], [gold[1]!], { level: 'document' })
    expect(doc.level).toBe('document')
    expect(doc.recalls).toMatchObject({ curatedRecall: 0.5, trajectoryRecall: 1, curatedPrecision: 0.5, goldCount: 2 })
    const fact = episodeRecalls(goldEvidence(db.raw), q, [gold[0]!], [], { level: 'fact' })
    expect(fact.level).toBe('fact')
    expect(fact.recalls).toMatchObject({ curatedRecall: 0.5, goldCount: q.supportingFacts.length })
    // The answer ("Toulis Meley") is in the university's article: answer recall follows that document.
    const answer = episodeRecalls(goldEvidence(db.raw), q, [gold[1]!], [], { level: 'document' })
    expect(answer.recalls.answerRecall).toBe(1)
    expect(episodeRecalls(goldEvidence(db.raw), { ...q, supportingFacts: [] }, [gold[0]!], [], { level: 'fact' })).toMatchObject({ level: 'document', notes: [expect.stringContaining('no supporting facts')] })
    expect(episodeRecalls(goldEvidence(db.raw), { ...q, supportingDocs: ['No Such Title'] }, [gold[0]!], [], {}).notes).toEqual(['gold document "No Such Title" is not in the corpus'])
  })

  it('scores an episode outcome end to end', () => {
    const gold = q.supportingDocs.map(chunkOf)
    const s = scoreHarness1Episode(goldEvidence(db.raw), q, { evidence: { chunkIds: gold }, seen: { chunkIds: gold }, turns: 7, formatErrors: 0, endReason: 'answer', toolsUsed: [] }, [
      'fan_out_search', 'curate', 'verify', 'review_docs', 'grep_corpus', 'read_document', 'end_search',
    ])
    expect(s.curatedRecall).toBe(1)
    // Perfect recall and precision, all six tools, no turn penalty: 0.7 + 0.3 + 1 + 0.8 + 0.4 + 0.25.
    expect(s.total).toBeCloseTo(3.45, 10)
  })
})
