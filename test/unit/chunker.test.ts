import { describe, expect, it } from 'vitest'
import { planChunks, type TokenisedSentence } from '../../main/corpus/chunker'
import { countTokens } from '../../main/corpus/tokens'

const sentences = (tokens: number[]): TokenisedSentence[] => {
  let pos = 0
  return tokens.map((t) => {
    const s = { start: pos, end: pos + t, tokens: t }
    pos += t + 1
    return s
  })
}

describe('chunk planning', () => {
  it('packs whole sentences up to the size and overlaps by the tail that fits', () => {
    const plan = planChunks(sentences([40, 40, 40, 40, 40]), { chunkTokens: 100, overlapTokens: 40 })
    expect(plan.map((c) => [c.firstSentence, c.lastSentence, c.tokenCount])).toEqual([
      [0, 1, 80],
      [1, 2, 80],
      [2, 3, 80],
      [3, 4, 80],
    ])
  })

  it('gives an over-long sentence a chunk of its own and always advances', () => {
    const plan = planChunks(sentences([10, 500, 10]), { chunkTokens: 100, overlapTokens: 600 })
    expect(plan.map((c) => [c.firstSentence, c.lastSentence])).toEqual([
      [0, 0],
      [1, 1],
      [2, 2],
    ])
  })

  it('makes one chunk for a short document and none for an empty one', () => {
    expect(planChunks(sentences([5, 5]), { chunkTokens: 1200, overlapTokens: 100 })).toHaveLength(1)
    expect(planChunks([], { chunkTokens: 1200, overlapTokens: 100 })).toEqual([])
  })

  it('never exceeds the size except for single over-long sentences, and covers every sentence', () => {
    const toks = Array.from({ length: 200 }, (_, i) => ((i * 37) % 90) + 5)
    const plan = planChunks(sentences(toks), { chunkTokens: 300, overlapTokens: 50 })
    const covered = new Set<number>()
    for (const c of plan) {
      if (c.firstSentence !== c.lastSentence) expect(c.tokenCount).toBeLessThanOrEqual(300)
      for (let i = c.firstSentence; i <= c.lastSentence; i++) covered.add(i)
    }
    expect(covered.size).toBe(200)
  })
})

describe('token counting', () => {
  it('counts cl100k tokens', () => {
    expect(countTokens('')).toBe(0)
    expect(countTokens('hello world')).toBe(2)
  })
})
