import { describe, expect, it } from 'vitest'
import { boundedBlocks, EntityExtractor, extractEntitiesBatch, MAX_BLOCK_CHARS, sentencesOfBlocks, splitSentences, type Mention } from '../../main/graph/nlp'
import { blocks } from '../../main/graph/nlp/sentences'
import { breakLongRuns, MAX_WINK_RUN, runWink, winkLexiconState } from '../../main/graph/nlp/wink'

const pairs = (ms: Mention[]): string[] => ms.map((m) => `${m.surface}/${m.type}`)
const tokens = (text: string): string[] => runWink(text).tokens.map((t) => t.text)

describe('wink lexicon isolation', () => {
  // wink's tokenizer consults its lexicon, which grows with every word it reads: "God's," taught it the
  // word "God's", after which "God's presence" stopped splitting into "God" + "'s" in every later text.
  const probe = "The blessing of God's presence was felt by Ada Lovelace in the U.S.-based archive."
  const primers = ["The psalm ends with the word God's, as the scribes wrote it.", '(U.S.-based) archives, e.g. Smithsonian-run ones, kept it.']

  it("tokenizes a text the same whatever was read before it", () => {
    const fresh = tokens(probe)
    expect(fresh).toEqual(expect.arrayContaining(['God', "'s"]))
    for (const primer of primers) tokens(primer)
    expect(tokens(probe)).toEqual(fresh)
  })

  it('gives a document the same sentences and mentions whatever was read before it', () => {
    // Words no other test here reads: the first analysis must see the shipped lexicon.
    const text = "The kingdom of Okonkwo's Messiah reached Jerusalem. She read Adebayo's diary in Lagos."
    const analyse = (t: string) => {
      const spans = splitSentences(t)
      return { spans, mentions: extractEntitiesBatch(spans.map((s) => s.text)).map(pairs) }
    }
    const first = analyse(text)
    expect(first.mentions.flat()).toEqual(expect.arrayContaining(['Messiah/NAME', 'Jerusalem/GPE', 'Lagos/GPE']))
    // Once read, "Okonkwo's," and "Adebayo's," made wink keep "Okonkwo's Messiah" and "Adebayo's" whole.
    analyse("They quoted Okonkwo's, then Adebayo's, and left.")
    expect(analyse(text)).toEqual(first)
  })

  it('leaves the lexicon hash as shipped after every pass', () => {
    const before = winkLexiconState()
    runWink('Zyxquorp Blenthwaite met Qarvonel at Frumbleton-on-Sea in 1843, God\u2019s own year.')
    const after = winkLexiconState()
    expect(after.hashed).toBe(before.hashed)
    expect(after.listed).toBeGreaterThan(before.listed) // the words were read (and listed), then forgotten
    expect(after.shipped).toBe(before.shipped)
  })
})

describe('NLP in bounded pieces', () => {
  it('types a bare surname from a full name in an earlier batch of the same document', () => {
    const extractor = new EntityExtractor()
    extractor.add(['Amara Okafor joined International Business Machines (IBM) in 1962.'])
    extractor.add(["Okafor's research was praised.", 'Later, IBM opened a lab in Lagos.'])
    expect(extractor.size).toBe(3)
    const [first, second, third] = extractor.finish()
    expect(pairs(first!)).toEqual(['Amara Okafor/PERSON', 'International Business Machines/ORG', 'IBM/ORG', '1962/DATE'])
    expect(pairs(second!)).toEqual(['Okafor/PERSON'])
    expect(pairs(third!)).toContain('Lagos/GPE')
  })

  it('cuts an overlong block at a sentence boundary, and never lets a block exceed the limit', () => {
    const sentence = 'The keeper of the Castor Point light wrote the weather down each night in his log book. '
    const text = sentence.repeat(Math.ceil((MAX_BLOCK_CHARS * 2.5) / sentence.length)).trim()
    expect(blocks(text)).toHaveLength(1)
    const bounded = boundedBlocks(text)
    expect(bounded.length).toBe(3)
    for (const [start, end] of bounded) {
      expect(end - start).toBeLessThanOrEqual(MAX_BLOCK_CHARS)
      expect(text.slice(start, end)).toMatch(/^The keeper/) // every cut falls between two sentences
    }
    expect(bounded[0]![0]).toBe(0)
    expect(bounded[bounded.length - 1]![1]).toBe(text.length)
    const spans = splitSentences(text)
    expect(spans.every((s) => s.text === sentence.trim())).toBe(true)
  })

  it('cuts a text without any boundary at the limit, never inside a surrogate pair', () => {
    const text = '\u{1F30A}'.repeat(MAX_BLOCK_CHARS) // one "word" of 2 x MAX_BLOCK_CHARS code units
    const bounded = boundedBlocks(text)
    expect(bounded.length).toBe(2)
    for (const [start, end] of bounded) {
      expect(end - start).toBeLessThanOrEqual(MAX_BLOCK_CHARS)
      expect(start % 2).toBe(0)
    }
  })

  it('reads a long run without spaces (base64, minified code) as several tokens, offsets unchanged', () => {
    const run = 'QUJDRA=='.repeat(2_500) // 20,000 characters without a space
    const text = `Key: ${run} end.`
    const broken = breakLongRuns(text)
    expect(broken.length).toBe(text.length)
    expect(broken.startsWith('Key: QUJD')).toBe(true)
    expect(breakLongRuns('Ada Lovelace wrote notes.')).toBe('Ada Lovelace wrote notes.')
    expect(breakLongRuns(`${'\u{1F30A}'.repeat(800)}`)).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/u)
    const started = performance.now()
    const pass = runWink(text)
    expect(Math.max(...pass.tokens.map((t) => t.end - t.start))).toBeLessThanOrEqual(MAX_WINK_RUN)
    const long = 'x'.repeat(400_000)
    expect(splitSentences(long).map((s) => s.end - s.start).reduce((a, b) => a + b, 0)).toBeGreaterThan(399_000)
    expect(performance.now() - started).toBeLessThan(20_000) // quadratic in a token's length before: minutes
  })

  it('splits a text run by run into exactly the sentences of one split', () => {
    const paragraphs = Array.from({ length: 60 }, (_, i) => `Paragraph ${i} starts here. Dr. Ada Lovelace met Mr. Babbage in London in ${1800 + i}. It rained.`)
    const text = paragraphs.join('\n\n')
    const all = boundedBlocks(text)
    const pieces: typeof all[] = []
    for (let i = 0; i < all.length; i += 7) pieces.push(all.slice(i, i + 7))
    expect(pieces.flatMap((run) => sentencesOfBlocks(text, run))).toEqual(splitSentences(text))
  })
})
