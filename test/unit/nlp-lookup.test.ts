import { describe, expect, it } from 'vitest'
import { extractEntities, isDemonym, isLookupTarget, lookupRejection, VALUE_TYPES, type EntityType } from '../../main/graph/nlp'

const target = (surface: string, type: EntityType = 'NAME'): boolean => isLookupTarget({ surface, type })

describe('isLookupTarget (README, "Corpus, index and graph")', () => {
  it('rejects every value type and NORP, whatever the surface', () => {
    for (const type of [...VALUE_TYPES, 'NORP'] as EntityType[]) expect(target('Something Plausible', type)).toBe(false)
    expect(lookupRejection({ surface: '1911', type: 'DATE' })).toBe('type DATE')
  })

  it('accepts ordinary names', () => {
    expect(target('Ada Lovelace', 'PERSON')).toBe(true)
    expect(target('University of Edinburgh', 'ORG')).toBe(true)
    expect(target('Acme Holdings Inc.', 'ORG')).toBe(true)
    expect(target('U.S.', 'GPE')).toBe(true)
    expect(target("Thirty Years' War", 'EVENT')).toBe(true)
    expect(target('3M', 'ORG')).toBe(true)
    expect(target('May', 'PERSON')).toBe(true)
  })

  it('rejects malformed surfaces', () => {
    expect(lookupRejection({ surface: 'A', type: 'NAME' })).toBe('single character')
    expect(lookupRejection({ surface: '--', type: 'NAME' })).toBe('no letters')
    expect(lookupRejection({ surface: '2024', type: 'NAME' })).toBe('no letters')
    expect(lookupRejection({ surface: 'The', type: 'NAME' })).toBe('stopword')
    expect(lookupRejection({ surface: 'Dr.', type: 'PERSON' })).toBe('stopword')
    expect(lookupRejection({ surface: 'Acme (UK', type: 'ORG' })).toBe('unbalanced brackets or quotes')
    expect(lookupRejection({ surface: 'Paris,', type: 'GPE' })).toBe('stray punctuation')
    expect(lookupRejection({ surface: 'One Two Three Four Five Six Seven Eight Nine', type: 'NAME' })).toBe('too long')
    expect(lookupRejection({ surface: 'Monday', type: 'NAME' })).toBe('calendar word')
    expect(lookupRejection({ surface: 'Ada', type: 'PERSON', canonical: '' })).toBe('empty canonical form')
    expect(target('Acme (UK)', 'ORG')).toBe(true)
  })

  it('rejects nationality, ethnic, religious and political group words however they were typed', () => {
    for (const s of ['American', 'French', 'Nigerian', 'Nigerians', 'Sri Lankan', 'English-American', 'Kurdish', 'Protestant', 'Democrats', 'Frenchmen']) {
      expect(isDemonym(s)).toBe(true)
      expect(target(s, 'NAME')).toBe(false)
      expect(target(s, 'GPE')).toBe(false)
    }
    for (const s of ['France', 'Nigeria', 'Paris', 'liberal']) expect(isDemonym(s)).toBe(false)
    expect(isDemonym('Liberal')).toBe(true)
  })

  it('keeps filtered mentions in the extracted sentence (the filter only decides menu eligibility)', () => {
    const ms = extractEntities('The French physicist Marie Curie was born in 1867 in Warsaw.')
    expect(ms.map((m) => [m.surface, isLookupTarget(m)])).toEqual([
      ['French', false],
      ['Marie Curie', true],
      ['1867', false],
      ['Warsaw', true],
    ])
  })
})
