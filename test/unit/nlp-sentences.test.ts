import { describe, expect, it } from 'vitest'
import { splitSentences } from '../../main/graph/nlp'

const texts = (t: string): string[] => splitSentences(t).map((s) => s.text)

describe('splitSentences', () => {
  it('returns spans whose offsets slice the original text', () => {
    const text = '  Dr. Ada Lovelace wrote notes.\n\nThey were published in 1843.  '
    const spans = splitSentences(text)
    expect(spans.map((s) => s.text)).toEqual(['Dr. Ada Lovelace wrote notes.', 'They were published in 1843.'])
    for (const s of spans) expect(text.slice(s.start, s.end)).toBe(s.text)
  })

  it('keeps abbreviations, initials and decimals inside sentences', () => {
    expect(texts('Dr. Smith met Mr. Jones at 5 p.m. on Jan. 5. They talked.')).toEqual([
      'Dr. Smith met Mr. Jones at 5 p.m. on Jan. 5.',
      'They talked.',
    ])
    expect(texts('The U.S. Army won. Notes, e.g. on the engine, were printed. It grew 3.5% to $1.99 each.')).toEqual([
      'The U.S. Army won.',
      'Notes, e.g. on the engine, were printed.',
      'It grew 3.5% to $1.99 each.',
    ])
    expect(texts('He lives in St. Louis and works for Acme Corp. in Ohio. Prof. J. R. R. Tolkien wrote it.')).toEqual([
      'He lives in St. Louis and works for Acme Corp. in Ohio.',
      'Prof. J. R. R. Tolkien wrote it.',
    ])
    expect(texts('See Fig. 3 for details. The town had 12,345 people (est. 2010). He earned a Ph.D. from MIT.')).toEqual([
      'See Fig. 3 for details.',
      'The town had 12,345 people (est. 2010).',
      'He earned a Ph.D. from MIT.',
    ])
  })

  it('ends a sentence after a company abbreviation when a new sentence starts', () => {
    expect(texts('He paid $4.2 million to Acme Inc. The firm grew.')).toEqual(['He paid $4.2 million to Acme Inc.', 'The firm grew.'])
  })

  it('keeps a quoted question with its speech tag and closes quotes inside the sentence', () => {
    expect(texts('"Is it true?" she asked. "Yes." He left.')).toEqual(['"Is it true?" she asked.', '"Yes."', 'He left.'])
    expect(texts('“Really?” he asked. She said, "It is over." Then she left.')).toEqual([
      '“Really?” he asked.',
      'She said, "It is over."',
      'Then she left.',
    ])
  })

  it('treats blank lines, headings, list items and short title lines as boundaries', () => {
    const text = '# History of IBM\n\nIBM was founded in 1911\nTitle Without Period\nBody text.\n- first item\n- second item\n1. Numbered point.\n2. Another point.'
    expect(texts(text)).toEqual([
      'History of IBM',
      'IBM was founded in 1911',
      'Title Without Period',
      'Body text.',
      'first item',
      'second item',
      'Numbered point.',
      'Another point.',
    ])
  })

  it('joins a hard-wrapped line with its continuation', () => {
    const text = 'This paragraph is hard wrapped at seventy characters, as plain text often is, so\nthe sentence continues on the next line. Mr. Smith agreed.'
    expect(texts(text)).toEqual([
      'This paragraph is hard wrapped at seventy characters, as plain text often is, so\nthe sentence continues on the next line.',
      'Mr. Smith agreed.',
    ])
  })

  it('handles CRLF, missing final punctuation and empty input', () => {
    expect(texts('Line one\r\nLine two is here.\r\n\r\nNext paragraph')).toEqual(['Line one', 'Line two is here.', 'Next paragraph'])
    expect(splitSentences('')).toEqual([])
    expect(splitSentences('  \n\n \t ')).toEqual([])
  })
})
