import { describe, expect, it } from 'vitest'
import { answerInversions } from '../../renderer/src/stores/answer-caveat'

const em = { name: 'answer.em.official', level: 'answer' as const, direction: 'higher' as const }
const spF1 = { name: 'sp.f1', level: 'sentence' as const, direction: 'higher' as const }
const turns = { name: 'turns', level: 'episode' as const, direction: 'lower' as const }

describe("the lexical answerer's caveat", () => {
  it("names the pair the stand-in's EM ranks opposite to SP F1 (the issue's head 17.4 % vs greedy 30.4 % with higher SP F1)", () => {
    const head = { label: '#12 head', lexical: true, metrics: { 'answer.em.official': 4 / 23, 'sp.f1': 0.52 } }
    const greedy = { label: '#10 greedy', lexical: true, metrics: { 'answer.em.official': 7 / 23, 'sp.f1': 0.44 } }
    const oracle = { label: '#11 oracle', lexical: true, metrics: { 'answer.em.official': 9 / 23, 'sp.f1': 0.9 } }
    const inv = answerInversions([greedy, head, oracle], [em, spF1, turns], spF1)
    expect(inv).toHaveLength(1)
    expect(inv[0]).toEqual({ answerMetric: 'answer.em.official', evidenceMetric: 'sp.f1', better: { label: '#12 head', answer: 4 / 23, evidence: 0.52 }, worse: { label: '#10 greedy', answer: 7 / 23, evidence: 0.44 } })
  })
  it('says nothing where the rankings agree, for rows a model answered, or without an evidence metric to judge by', () => {
    const a = { label: 'a', lexical: true, metrics: { 'answer.em.official': 0.2, 'sp.f1': 0.5 } }
    const b = { label: 'b', lexical: true, metrics: { 'answer.em.official': 0.3, 'sp.f1': 0.6 } }
    expect(answerInversions([a, b], [em], spF1)).toEqual([])
    const swapped = { ...b, metrics: { 'answer.em.official': 0.1, 'sp.f1': 0.6 } }
    expect(answerInversions([a, swapped], [em], spF1)).toHaveLength(1)
    expect(answerInversions([a, { ...swapped, lexical: false }], [em], spF1)).toEqual([])
    expect(answerInversions([a, swapped], [em], null)).toEqual([])
    expect(answerInversions([a, swapped], [em], { ...em })).toEqual([])
    // Ties on either metric are no inversion.
    expect(answerInversions([a, { ...swapped, metrics: { 'answer.em.official': 0.2, 'sp.f1': 0.6 } }], [em], spF1)).toEqual([])
  })
})
