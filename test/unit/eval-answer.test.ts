import { describe, expect, it } from 'vitest'
import { answerTokens, exactMatch, normaliseAnswer, scoreAnswer, tokenOverlap } from '../../main/eval'

describe('answer normalisation (SQuAD/HotpotQA rule)', () => {
  it('lower-cases, drops punctuation and articles, collapses whitespace', () => {
    // The hyphen is deleted, not replaced by a space, so "Eiffel-Tower" becomes one token.
    expect(normaliseAnswer('The  Eiffel-Tower!')).toBe('eiffeltower')
    expect(normaliseAnswer('  An apple, a day; THE end. ')).toBe('apple day end')
    expect(normaliseAnswer('Theatre and another')).toBe('theatre and another')
    expect(normaliseAnswer('No-Answer')).toBe('noanswer')
    expect(answerTokens('The  Eiffel Tower!')).toEqual(['eiffel', 'tower'])
    expect(answerTokens('the')).toEqual([])
  })

  it('follows Python semantics on non-ASCII text', () => {
    expect(normaliseAnswer('Café MÜLLER')).toBe('café müller')
    // "é" is a word character for Python's \b, so the trailing "a" of "théa" is not an article.
    expect(normaliseAnswer('Théa a Ángel')).toBe('théa ángel')
    // Only ASCII punctuation is removed; the typographic apostrophe stays.
    expect(normaliseAnswer('São Paulo’s')).toBe('são paulo’s')
    // No-break and em spaces are whitespace to str.split().
    expect(normaliseAnswer('new\u00a0york\u2003city')).toBe('new york city')
    expect(normaliseAnswer('ΟΔΟΣ')).toBe('οδος')
  })
})

describe('exact match', () => {
  it('compares normalised strings and takes the max over gold answers', () => {
    expect(exactMatch('The Eiffel Tower!', 'eiffel tower')).toBe(1)
    expect(exactMatch('The  Eiffel-Tower!', 'eiffel tower')).toBe(0)
    expect(exactMatch('Obama', ['Barack Obama', 'obama.'])).toBe(1)
    expect(exactMatch('', 'Paris')).toBe(0)
    expect(exactMatch('Zürich', 'Zurich')).toBe(0)
  })

  it('refuses an empty gold list', () => {
    expect(() => exactMatch('x', [])).toThrow(RangeError)
    expect(() => scoreAnswer('x', [], 'official')).toThrow(RangeError)
  })
})

describe('token F1', () => {
  it('scores yes/no/noanswer by the official rule', () => {
    expect(scoreAnswer('yes', 'no', 'official')).toEqual({ em: 0, f1: 0, precision: 0, recall: 0, variant: 'official' })
    expect(scoreAnswer('Yes.', 'yes', 'official')).toEqual({ em: 1, f1: 1, precision: 1, recall: 1, variant: 'official' })
    expect(scoreAnswer('no-answer', 'noanswer', 'official')).toMatchObject({ em: 1, f1: 1 })
    // Gold "yes" and a prediction that merely contains it: zero under the official rule.
    expect(scoreAnswer('yes it is', 'yes', 'official')).toMatchObject({ em: 0, f1: 0 })
    expect(scoreAnswer('noanswer', 'no answer', 'official')).toMatchObject({ em: 0, f1: 0 })
    // "no answer" is two tokens, not the closed answer "noanswer": ordinary overlap, P = 1/2, R = 1.
    expect(scoreAnswer('no answer', 'answer', 'official').f1).toBeCloseTo(2 / 3, 12)
  })

  it('graphr1 differs from official exactly on yes/no/noanswer mismatches', () => {
    // P = 1/3, R = 1 -> F1 = 0.5
    expect(scoreAnswer('yes it is', 'yes', 'graphr1')).toMatchObject({ em: 0, precision: 1 / 3, recall: 1, f1: 0.5, variant: 'graphr1' })
    // P = 1, R = 1/2 -> F1 = 2/3
    expect(scoreAnswer('no', 'no way', 'graphr1').f1).toBeCloseTo(2 / 3, 12)
    expect(scoreAnswer('no', 'no way', 'official').f1).toBe(0)
    expect(scoreAnswer('noanswer', 'noanswer here', 'graphr1').f1).toBeCloseTo(2 / 3, 12)
    // yes vs no has no shared token, so both give 0; identical answers give 1 under both.
    expect(scoreAnswer('yes', 'no', 'graphr1').f1).toBe(0)
    expect(scoreAnswer('no', 'No!', 'graphr1')).toMatchObject({ em: 1, f1: 1 })
    const ordinary: Array<[string, string]> = [
      ['barack obama', 'Barack Hussein Obama'],
      ['the cat sat', 'a cat'],
      ['', 'x'],
    ]
    for (const [p, g] of ordinary) expect(scoreAnswer(p, g, 'graphr1')).toEqual({ ...scoreAnswer(p, g, 'official'), variant: 'graphr1' })
  })

  it('counts repeated tokens with multiplicity', () => {
    // "cat cat cat" vs "cat sat": overlap min(3,1) = 1, P = 1/3, R = 1/2, F1 = 0.4
    const r = tokenOverlap('the the cat cat cat', 'cat sat', 'official')
    expect(r.precision).toBeCloseTo(1 / 3, 12)
    expect(r.recall).toBeCloseTo(1 / 2, 12)
    expect(r.f1).toBeCloseTo(0.4, 12)
    // "new york new york" vs "new york": overlap 2, P = 1/2, R = 1, F1 = 2/3
    expect(tokenOverlap('New York, New York', 'new york', 'official').f1).toBeCloseTo(2 / 3, 12)
  })

  it('takes the best gold answer and reports its precision and recall', () => {
    // vs "obama": P 1/2, R 1, F1 2/3; vs "barack hussein obama": P 1, R 2/3, F1 0.8
    const r = scoreAnswer('Barack Obama', ['Obama', 'Barack Hussein Obama'], 'official')
    expect(r.em).toBe(0)
    expect(r.f1).toBeCloseTo(0.8, 12)
    expect(r.precision).toBe(1)
    expect(r.recall).toBeCloseTo(2 / 3, 12)
  })

  it('gives 0 to an empty prediction, and to two empty sides (as the official script does)', () => {
    expect(scoreAnswer('', 'Paris', 'official')).toMatchObject({ em: 0, f1: 0 })
    expect(scoreAnswer('...', 'Paris', 'graphr1')).toMatchObject({ em: 0, f1: 0 })
    // Both normalise to "": an exact match, but no shared token for F1.
    expect(scoreAnswer('A', 'the', 'official')).toMatchObject({ em: 1, f1: 0 })
  })

  it('handles unicode tokens', () => {
    expect(scoreAnswer('Café Müller', 'café müller', 'official')).toMatchObject({ em: 1, f1: 1 })
    // [são, paulo’s] vs [são, paulo]: overlap 1, P = R = 1/2, F1 = 0.5
    expect(scoreAnswer('São Paulo’s', 'São Paulo', 'official').f1).toBeCloseTo(0.5, 12)
    expect(scoreAnswer('東京', '東京', 'official').em).toBe(1)
  })
})
