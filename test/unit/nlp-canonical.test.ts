import { describe, expect, it } from 'vitest'
import { buildAliasMap, canonicalise, extractEntitiesBatch, resolveAlias, type EntityType, type Mention } from '../../main/graph/nlp'

const mention = (surface: string, type: EntityType): Mention => ({ surface, start: 0, end: surface.length, type, canonical: canonicalise(surface, type) })

describe('canonicalise', () => {
  it('folds case, diacritics, punctuation and whitespace', () => {
    expect(canonicalise('  Café   Müller ', 'ORG')).toBe('cafe muller')
    expect(canonicalise('Tromsø', 'GPE')).toBe('tromso')
    expect(canonicalise('U.S.', 'GPE')).toBe('us')
    expect(canonicalise("Samuel O'Neill", 'PERSON')).toBe('samuel oneill')
    expect(canonicalise('Jean-Paul Sartre', 'PERSON')).toBe('jean paul sartre')
  })

  it('drops honorifics from people, possessives and leading articles', () => {
    expect(canonicalise("Dr. Ada Lovelace's", 'PERSON')).toBe('ada lovelace')
    expect(canonicalise('Prof. Sir Isaac Newton', 'PERSON')).toBe('isaac newton')
    expect(canonicalise('Mrs Eleanor Whitcombe', 'PERSON')).toBe('eleanor whitcombe')
    expect(canonicalise("the Smiths'", 'PERSON')).toBe('smiths')
    expect(canonicalise('The Beatles', 'ORG')).toBe('beatles')
    expect(canonicalise('the 1990s', 'DATE')).toBe('1990s')
  })

  it('keeps titles that are part of an organisation name and drops corporate suffixes', () => {
    expect(canonicalise('General Electric', 'ORG')).toBe('general electric')
    expect(canonicalise('Acme Holdings Inc.', 'ORG')).toBe('acme holdings')
    expect(canonicalise('Keller & Sons', 'ORG')).toBe(canonicalise('Keller and Sons', 'ORG'))
    expect(canonicalise('St. Petersburg', 'GPE')).toBe('st petersburg')
  })

  it('normalises value surfaces', () => {
    expect(canonicalise('1,280 metres', 'QUANTITY')).toBe('1280 metres')
    expect(canonicalise('$ 4.2 million', 'MONEY')).toBe('$4.2 million')
    expect(canonicalise('9.5 %', 'PERCENT')).toBe('9.5%')
  })
})

describe('buildAliasMap', () => {
  it('maps a surname-only mention to the unique full name of the document', () => {
    const ms = [mention('Ada Lovelace', 'PERSON'), mention('London', 'GPE'), mention("Lovelace's", 'PERSON'), mention('Lovelace', 'NAME')]
    const aliases = buildAliasMap(ms)
    expect(resolveAlias(aliases, 'lovelace')).toBe('ada lovelace')
    expect(resolveAlias(aliases, 'london')).toBe('london')
    expect(resolveAlias(aliases, 'not seen')).toBe('not seen')
  })

  it('leaves an ambiguous surname alone', () => {
    const aliases = buildAliasMap([mention('Marie Curie', 'PERSON'), mention('Pierre Curie', 'PERSON'), mention('Curie', 'PERSON')])
    expect(resolveAlias(aliases, 'curie')).toBe('curie')
  })

  it('does not merge a place into a person with the same last word', () => {
    const aliases = buildAliasMap([mention('George Washington', 'PERSON'), mention('Washington', 'GPE')])
    expect(resolveAlias(aliases, 'washington')).toBe('washington')
  })

  it('maps acronyms to their expansion when both occur, in either order', () => {
    const aliases = buildAliasMap([
      mention('IBM', 'ORG'),
      mention('International Business Machines', 'ORG'),
      mention('London School of Economics', 'ORG'),
      mention('LSE', 'ORG'),
      mention('U.S.', 'GPE'),
      mention('United States', 'GPE'),
      mention('NASA', 'ORG'),
    ])
    expect(resolveAlias(aliases, 'ibm')).toBe('international business machines')
    expect(resolveAlias(aliases, 'lse')).toBe('london school of economics')
    expect(resolveAlias(aliases, 'us')).toBe('united states')
    expect(resolveAlias(aliases, 'nasa')).toBe('nasa')
  })

  it('works on extractor output end to end', () => {
    const doc = ['Prof. Amara Okafor joined International Business Machines (IBM) in 1962.', "Okafor's work at IBM was praised by Dr. Okafor's students."]
    const ms = extractEntitiesBatch(doc).flat()
    const aliases = buildAliasMap(ms)
    const resolved = new Set(ms.filter((m) => m.type === 'PERSON' || m.type === 'ORG').map((m) => resolveAlias(aliases, m.canonical)))
    expect([...resolved].sort()).toEqual(['amara okafor', 'international business machines'])
  })
})
