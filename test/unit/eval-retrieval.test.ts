import { describe, expect, it } from 'vitest'
import { containsNormalisedAnswer, documentRecalls, fBeta, harness1Recalls, recallAtK, setPrecision, setRecall } from '../../main/eval'

describe('paragraph recall and precision', () => {
  it('treats both sides as sets', () => {
    expect(setRecall(['d1', 'd2', 'd2', 'd5'], ['d1', 'd3'])).toBe(0.5)
    expect(setPrecision(['d1', 'd2', 'd2', 'd5'], ['d1', 'd3'])).toBeCloseTo(1 / 3, 12)
    expect(setRecall(['d1', 'd3'], ['d3', 'd1', 'd1'])).toBe(1)
  })

  it('is null when the denominator is empty', () => {
    expect(setRecall(['d1'], [])).toBeNull()
    expect(setPrecision([], ['d1'])).toBeNull()
    expect(setRecall([], ['d1'])).toBe(0)
  })

  it('computes recall@k over the head of a ranked list', () => {
    const ranked = ['d5', 'd1', 'd1', 'd3']
    const gold = ['d1', 'd3']
    expect(recallAtK(ranked, gold, 0)).toBe(0)
    expect(recallAtK(ranked, gold, 1)).toBe(0)
    expect(recallAtK(ranked, gold, 2)).toBe(0.5)
    expect(recallAtK(ranked, gold, 3)).toBe(0.5)
    expect(recallAtK(ranked, gold, 4)).toBe(1)
    expect(recallAtK(ranked, gold, 100)).toBe(1)
    expect(() => recallAtK(ranked, gold, 1.5)).toThrow(RangeError)
    expect(() => recallAtK(ranked, gold, -1)).toThrow(RangeError)
  })
})

describe('F-beta', () => {
  it('matches hand values', () => {
    // (1 + 4)·0.5·1 / (4·0.5 + 1) = 2.5 / 3
    expect(fBeta(0.5, 1)).toBeCloseTo(0.8333333333, 9)
    expect(fBeta(0.5, 1, 2)).toBeCloseTo(2.5 / 3, 12)
    expect(fBeta(0.5, 1, 1)).toBeCloseTo(2 / 3, 12)
    // beta 0.5: 1.25·0.5 / (0.25·0.5 + 1) = 0.625 / 1.125
    expect(fBeta(0.5, 1, 0.5)).toBeCloseTo(0.625 / 1.125, 12)
    expect(fBeta(1, 1)).toBe(1)
    expect(fBeta(0, 0)).toBe(0)
    expect(() => fBeta(1, 1, 0)).toThrow(RangeError)
  })
})

describe('answer-bearing predicate', () => {
  it('matches a normalised answer on token boundaries', () => {
    expect(containsNormalisedAnswer('They visited the Eiffel Tower.', ['Eiffel Tower'])).toBe(true)
    expect(containsNormalisedAnswer('Built in 1889, it...', ['Paris', '1889'])).toBe(true)
    expect(containsNormalisedAnswer('This is not it', ['no'])).toBe(false)
    expect(containsNormalisedAnswer('Eiffeltowers everywhere', ['Eiffel Tower'])).toBe(false)
  })

  it('never counts yes/no/noanswer or empty answers', () => {
    expect(containsNormalisedAnswer('Yes, both are American.', ['yes'])).toBe(false)
    expect(containsNormalisedAnswer('no no no', ['No'])).toBe(false)
    expect(containsNormalisedAnswer('the', ['the'])).toBe(false)
  })
})

describe('Harness-1 recalls', () => {
  const gold = [
    { id: 'g1', text: 'Paris is the capital of France.' },
    { id: 'g2', text: 'The Seine flows through the city.' },
    { id: 'g3', text: 'France is in Europe.' },
  ]

  it('computes the document-level family by hand', () => {
    // Answer-bearing gold: g1 only. Curated {g2, x1}; seen adds g1, x2.
    const r = documentRecalls({ curated: ['g2', 'x1', 'x1'], seen: ['g1', 'x2', 'g2'], gold, answers: ['Paris'] })
    expect(r.goldCount).toBe(3)
    expect(r.answerBearingCount).toBe(1)
    expect(r.curatedRecall).toBeCloseTo(1 / 3, 12)
    expect(r.trajectoryRecall).toBeCloseTo(2 / 3, 12)
    expect(r.answerRecall).toBe(0)
    expect(r.trajectoryAnswerRecall).toBe(1)
    expect(r.curatedPrecision).toBe(0.5)
    // 5·0.5·(1/3) / (4·0.5 + 1/3) = (5/6) / (7/3) = 5/14
    expect(r.curatedFBeta).toBeCloseTo(5 / 14, 12)
    expect(r.beta).toBe(2)
  })

  it('gives F-beta 0.8333 for precision 0.5 and recall 1', () => {
    const r = documentRecalls({ curated: ['g1', 'x1'], seen: [], gold: [gold[0]!], answers: ['Paris'] })
    expect(r.curatedPrecision).toBe(0.5)
    expect(r.curatedRecall).toBe(1)
    expect(r.curatedFBeta).toBeCloseTo(0.8333333333, 9)
    expect(r.trajectoryRecall).toBe(1)
    expect(documentRecalls({ curated: ['g1', 'x1'], seen: [], gold: [gold[0]!], answers: [], beta: 1 }).curatedFBeta).toBeCloseTo(2 / 3, 12)
  })

  it('counts curated documents as seen and handles empty sides', () => {
    const nothing = documentRecalls({ curated: [], seen: ['g3'], gold, answers: ['Paris'] })
    expect(nothing).toMatchObject({ curatedRecall: 0, curatedPrecision: null, curatedFBeta: 0, answerRecall: 0, trajectoryAnswerRecall: 0 })
    expect(nothing.trajectoryRecall).toBeCloseTo(1 / 3, 12)
    const noGold = documentRecalls({ curated: ['g1'], seen: [], gold: [], answers: ['Paris'] })
    expect(noGold).toMatchObject({ curatedRecall: null, trajectoryRecall: null, answerRecall: null, trajectoryAnswerRecall: null, curatedPrecision: 0, curatedFBeta: null })
    // A comparison question (answer "yes") has no answer-bearing document: answer recalls are undefined.
    const yes = documentRecalls({ curated: ['g1'], seen: [], gold, answers: ['yes'] })
    expect(yes).toMatchObject({ answerBearingCount: 0, answerRecall: null, trajectoryAnswerRecall: null })
  })

  it('takes an injected answer-bearing predicate', () => {
    const r = documentRecalls({ curated: ['g2'], seen: [], gold, answers: ['Paris'], isAnswerBearing: (text) => text.includes('France') })
    // Answer-bearing: g1 and g3; curated g2 covers neither.
    expect(r.answerBearingCount).toBe(2)
    expect(r.answerRecall).toBe(0)
  })

  it('works at fact level: facts covered / facts', () => {
    const docs = [
      { id: 'd1', text: 'The Eiffel Tower is in Paris. It is tall.' },
      { id: 'd2', text: 'Gustave Eiffel built it; the Eiffel Tower was built in 1889.' },
      { id: 'd3', text: 'Unrelated.' },
    ]
    const facts = ['Eiffel Tower is in Paris', 'Eiffel Tower was built in 1889', 'It is 330 metres tall']
    const r = harness1Recalls({
      curated: [docs[0]!, docs[2]!],
      seen: [docs[1]!],
      gold: facts,
      answers: ['1889'],
      covers: (doc, fact) => ` ${normalise(doc.text)} `.includes(` ${normalise(fact)} `),
      goldText: (fact) => fact,
    })
    expect(r.curatedRecall).toBeCloseTo(1 / 3, 12)
    expect(r.trajectoryRecall).toBeCloseTo(2 / 3, 12)
    expect(r.answerBearingCount).toBe(1)
    expect(r.answerRecall).toBe(0)
    expect(r.trajectoryAnswerRecall).toBe(1)
    expect(r.curatedPrecision).toBe(0.5)
  })
})

const normalise = (s: string): string => s.toLowerCase().replace(/[^\p{L}\p{N} ]/gu, '').replace(/\s+/g, ' ').trim()
