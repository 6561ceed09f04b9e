import { describe, expect, it } from 'vitest'
import { buildMatchQuery, MAX_QUERY_TERMS } from '../../main/retrieval'

describe('buildMatchQuery', () => {
  it('quotes each content term and OR-combines them, dropping stopwords and duplicates', () => {
    expect(buildMatchQuery('Who designed the Eiffel Tower? The eiffel tower!')).toEqual({
      expression: '"designed" OR "eiffel" OR "tower"',
      terms: ['designed', 'eiffel', 'tower'],
    })
  })

  it('never lets FTS5 syntax through', () => {
    const nasty = [
      '"unbalanced quote',
      '(paris OR london',
      'paris AND tower OR NOT NEAR(a b, 3)',
      'tow* ^start',
      'title:eiffel text : tower',
      '-paris +london',
      '{title text}: x',
      "o'brien's \"quoted\" phrase",
    ]
    for (const q of nasty) {
      const { expression, terms } = buildMatchQuery(q)
      for (const t of terms) expect(t).toMatch(/^[\p{L}\p{N}\p{M}]+$/u)
      expect(expression).not.toBeNull()
      // Every operator character is inside a quoted term or gone: strip the quoted terms and only " OR " glue remains.
      expect(expression!.replace(/"[^"]*"/g, '').replace(/ OR /g, '')).toBe('')
    }
    expect(buildMatchQuery('paris AND tower OR NOT NEAR').terms).toEqual(['paris', 'tower'])
  })

  it('keeps unicode letters and marks', () => {
    expect(buildMatchQuery('Zürich café 東京タワー naïve').terms).toEqual(['zürich', 'café', '東京タワー', 'naïve'])
  })

  it('returns no expression for empty or punctuation-only queries', () => {
    for (const q of ['', '   ', '?!...', '"" () * : -', 'AND OR NOT']) expect(buildMatchQuery(q)).toEqual({ expression: null, terms: [] })
  })

  it('keeps stopwords when nothing else is left, and on request', () => {
    expect(buildMatchQuery('The Who').terms).toEqual(['the', 'who'])
    expect(buildMatchQuery('the tower', { dropStopwords: false }).terms).toEqual(['the', 'tower'])
  })

  it('caps the number of terms', () => {
    const long = Array.from({ length: 100 }, (_, i) => `term${i}`).join(' ')
    expect(buildMatchQuery(long).terms).toHaveLength(MAX_QUERY_TERMS)
    expect(buildMatchQuery(long, { maxTerms: 3 }).terms).toEqual(['term0', 'term1', 'term2'])
  })
})
