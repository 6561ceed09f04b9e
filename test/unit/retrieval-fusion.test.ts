import { describe, expect, it } from 'vitest'
import { reciprocalRankFusion } from '../../main/retrieval'
import { TopK } from '../../main/retrieval/top-k'

describe('reciprocalRankFusion', () => {
  it('sums 1 / (k + rank) over the lists that hold an id', () => {
    const fused = reciprocalRankFusion([[1, 2, 3], [3, 1, 4]], 60)
    expect(fused.map((f) => f.id)).toEqual([1, 3, 2, 4])
    const byId = new Map(fused.map((f) => [f.id, f]))
    expect(byId.get(1)!.score).toBeCloseTo(1 / 61 + 1 / 62, 12)
    expect(byId.get(3)!.score).toBeCloseTo(1 / 63 + 1 / 61, 12)
    expect(byId.get(2)!.score).toBeCloseTo(1 / 62, 12)
    expect(byId.get(4)!.score).toBeCloseTo(1 / 63, 12)
    expect(byId.get(1)!.ranks).toEqual([1, 2])
    expect(byId.get(4)!.ranks).toEqual([undefined, 3])
  })

  it('uses the configured k, which changes the order', () => {
    // id 5 is first in one list only; id 6 is third in both. Small k favours the single top rank.
    const lists = [[5, 7, 6], [8, 9, 6]]
    expect(reciprocalRankFusion(lists, 0)[0]!.id).toBe(5)
    expect(reciprocalRankFusion(lists, 1000)[0]!.id).toBe(6)
    expect(reciprocalRankFusion(lists, 0).find((f) => f.id === 6)!.score).toBeCloseTo(2 / 3, 12)
  })

  it('breaks ties by best rank, then id, and ignores repeats within a list', () => {
    expect(reciprocalRankFusion([[2], [1]]).map((f) => f.id)).toEqual([1, 2])
    const [only] = reciprocalRankFusion([[4, 4, 4]])
    expect(only!.score).toBeCloseTo(1 / 61, 12)
    expect(reciprocalRankFusion([[], []])).toEqual([])
  })

  it('rejects a negative k', () => {
    expect(() => reciprocalRankFusion([[1]], -1)).toThrow(RangeError)
  })
})

describe('TopK', () => {
  it('agrees with a full sort', () => {
    let seed = 7
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31)
    const items = Array.from({ length: 500 }, (_, id) => ({ id, score: Math.round(random() * 50) / 50 }))
    const top = new TopK(17)
    for (const { id, score } of items) top.push(id, score)
    const expected = [...items].sort((a, b) => b.score - a.score || a.id - b.id).slice(0, 17)
    expect(top.sorted()).toEqual(expected)
    expect(new TopK(0).sorted()).toEqual([])
  })
})
