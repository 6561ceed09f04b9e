import { join } from 'node:path'
import type BetterSqlite3 from 'better-sqlite3'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { workspaceMigrations } from '../../main/db/migrations'
import { openDatabase, type OpenedDatabase } from '../../main/db/open'
import type { WorkspaceDatabase } from '../../main/db/schema'
import {
  computeEntityLinks,
  denseCosineJoin,
  denseRows,
  normaliseName,
  sparseCosineJoin,
  TopKTable,
  TRIGRAM_METHOD,
  trigramTfidf,
  trigrams,
  type EmbedFn,
  type SparseRows,
} from '../../main/graph/links'
import { GraphError } from '../../main/graph/store'
import { tempDir } from '../helpers/services'

/** Deterministic pseudo-random numbers for synthetic data. */
function seeded(seed: number): () => number {
  let s = seed >>> 0
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0
    return s / 4294967296
  }
}

/** Person-like names with variants (initials, dropped first names, accents, typos) so many pairs pass 0.8. */
function syntheticNames(n: number, seed = 7): string[] {
  const rand = seeded(seed)
  const syllables = ['an', 'ber', 'cor', 'del', 'ed', 'fin', 'gar', 'hol', 'is', 'jun', 'kel', 'lor', 'mar', 'nor', 'os', 'per', 'quin', 'ros', 'sten', 'tur', 'ul', 'vos', 'wen', 'yar', 'zé']
  const word = (): string => {
    let w = ''
    for (let i = 0, k = 2 + Math.floor(rand() * 2); i < k; i++) w += syllables[Math.floor(rand() * syllables.length)]
    return w[0]!.toUpperCase() + w.slice(1)
  }
  const out: string[] = []
  while (out.length < n) {
    const base = `${word()} ${word()}`
    out.push(base)
    const r = rand()
    if (r < 0.3 && out.length < n) out.push(`${base[0]}. ${base.split(' ')[1]}`)
    else if (r < 0.5 && out.length < n) out.push(`${base} ${word()}`)
    else if (r < 0.6 && out.length < n) out.push(base.replace(/e/, 'é'))
    else if (r < 0.7 && out.length < n) out.push(`${base}s`)
  }
  return out
}

/** Reference answer: every pair scored, each row's top k by (score desc, column asc). */
function bruteForceSparse(v: SparseRows, threshold: number, k: number): { col: number; score: number }[][] {
  const dense: Map<number, number>[] = []
  for (let r = 0; r < v.rows; r++) {
    const m = new Map<number, number>()
    for (let j = v.offsets[r]!; j < v.offsets[r + 1]!; j++) m.set(v.features[j]!, v.weights[j]!)
    dense.push(m)
  }
  return dense.map((a, x) => {
    const hits: { col: number; score: number }[] = []
    dense.forEach((b, y) => {
      if (x === y) return
      let dot = 0
      for (const [f, w] of a) dot += w * (b.get(f) ?? 0)
      if (Math.min(1, dot) >= threshold) hits.push({ col: y, score: Math.min(1, dot) })
    })
    return hits.sort((p, q) => q.score - p.score || p.col - q.col).slice(0, k)
  })
}

const rowsOf = (table: TopKTable): { col: number; score: number }[][] => Array.from({ length: table.rows }, (_, r) => table.entries(r))

describe('entity neighbour links: joins', () => {
  it('trigrams pad words, fold case and accents and drop punctuation', () => {
    expect(trigrams('Zé-Ann')).toEqual([' ze', 'ze ', 'e a', ' an', 'ann', 'nn '])
    expect(trigrams('...')).toEqual([])
  })

  it('keeps each row best k, best first, ties by lower column', () => {
    const t = new TopKTable(2, 3)
    for (const [col, score] of [[5, 0.9], [3, 0.95], [9, 0.9], [1, 0.85], [2, 0.9]] as const) t.offer(0, col, score)
    expect(t.entries(0)).toEqual([{ col: 3, score: 0.95 }, { col: 2, score: 0.9 }, { col: 5, score: 0.9 }])
    expect(t.entries(1)).toEqual([])
  })

  it('prefix-filtered trigram join equals scoring every pair, while scoring far fewer', () => {
    const names = syntheticNames(1000)
    const v = trigramTfidf(names)
    for (const threshold of [0.8, 0.6]) {
      const { table, scored } = sparseCosineJoin(v, { threshold, topK: 5 })
      const got = rowsOf(table)
      const want = bruteForceSparse(v, threshold, 5)
      expect(got.map((r) => r.map((e) => e.col))).toEqual(want.map((r) => r.map((e) => e.col)))
      got.forEach((r, i) => r.forEach((e, j) => expect(e.score).toBeCloseTo(want[i]![j]!.score, 9)))
      expect(scored).toBeLessThan((names.length * (names.length - 1)) / 2 / 10)
    }
    expect(rowsOf(sparseCosineJoin(v, { threshold: 0.8, topK: 5 }).table).filter((r) => r.length > 0).length).toBeGreaterThan(300)
  })

  it('dense joins: exact finds every pair, LSH finds nearly all close pairs with exact scores', () => {
    const rand = seeded(3)
    const gauss = (): number => Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand())
    const dim = 64
    const vectors: Float32Array[] = []
    // Clusters of near-duplicates around random centres.
    for (let c = 0; c < 300; c++) {
      const centre = Float32Array.from({ length: dim }, gauss)
      for (let m = 0; m < 4; m++) vectors.push(Float32Array.from(centre, (x) => x + 0.3 * gauss()))
    }
    vectors.push(new Float32Array(dim), new Float32Array(dim)) // zero vectors never link
    const rows = denseRows(vectors)
    const exact = denseCosineJoin(rows, { threshold: 0.8, topK: 5, strategy: 'exact' })
    const lsh = denseCosineJoin(rows, { threshold: 0.8, topK: 5, strategy: 'lsh' })
    expect(exact.strategy).toBe('exact')
    expect(lsh.strategy).toBe('lsh')
    expect(lsh.scored).toBeLessThan(exact.scored / 20)
    const exactPairs = rowsOf(exact.table).flatMap((r, i) => r.map((e) => `${i}-${e.col}`))
    const lshPairs = new Set(rowsOf(lsh.table).flatMap((r, i) => r.map((e) => `${i}-${e.col}`)))
    expect(exactPairs.length).toBeGreaterThan(1000)
    const recall = exactPairs.filter((p) => lshPairs.has(p)).length / exactPairs.length
    expect(recall).toBeGreaterThan(0.95)
    expect(rowsOf(exact.table).slice(-2)).toEqual([[], []])
    for (const r of rowsOf(lsh.table)) for (const e of r) expect(e.score).toBeGreaterThanOrEqual(0.8)
    // Same seed, same links.
    expect(rowsOf(denseCosineJoin(rows, { threshold: 0.8, topK: 5, strategy: 'lsh' }).table)).toEqual(rowsOf(lsh.table))
  })
})

describe('entity neighbour links over a workspace database', () => {
  const tmp = tempDir('harness-lab-links-')
  let opened: OpenedDatabase<WorkspaceDatabase>
  let raw: BetterSqlite3.Database
  const id: Record<string, number> = {}
  let lookupEntities = 0

  const ENTITIES: [string, string, 0 | 1][] = [
    ['Gustave Eiffel', 'PERSON', 1],
    ['Gustave Eiffell', 'PERSON', 1],
    // One entity per canonical name: the ORG spells it with a hyphen (its canonical differs, its trigrams do not).
    ['Gustave-Eiffel', 'ORG', 1],
    ['Gustav Eiffel', 'PERSON', 1],
    ['Gustave Eifel', 'PERSON', 1],
    ['Gustave A. Eiffel', 'PERSON', 1],
    ['Gustave Eiffel Jr', 'PERSON', 1],
    ['Gustave Eiffel Sr', 'PERSON', 1],
    ['Paris', 'GPE', 1],
    ['Paris Hilton', 'PERSON', 0],
    ['1887', 'DATE', 0],
    ['1888', 'DATE', 0],
    ['Statue of Liberty', 'FAC', 1],
  ]
  const links = (): { source: number; target: number; score: number; method: string }[] =>
    raw.prepare('select source_id as source, target_id as target, score, method from entity_links order by source_id, score desc, target_id').all() as never

  beforeAll(async () => {
    opened = await openDatabase<WorkspaceDatabase>(join(tmp.dir, 'workspace.db'), workspaceMigrations)
    raw = opened.raw
    // Background names give trigram IDF realistic weights (in a tiny collection every shared trigram looks common).
    const background: [string, string, 0 | 1][] = [...new Set(syntheticNames(400, 11))].map((n) => [n, 'PERSON', 1])
    for (const [name, type, ok] of [...ENTITIES, ...background]) {
      id[`${name}/${type}`] = Number(raw.prepare('insert or ignore into entities (canonical, type, name, lookup_ok) values (?, ?, ?, ?)').run(name.toLowerCase(), type, name, ok).lastInsertRowid)
    }
    lookupEntities = raw.prepare('select count(*) from entities where lookup_ok = 1').pluck().get() as number
  })
  beforeEach(() => {
    raw.prepare("insert or replace into entity_links values (?, ?, 0.99, 'stale')").run(id['Paris/GPE'], id['Statue of Liberty/FAC'])
  })
  afterAll(async () => {
    await opened.close()
    tmp.cleanup()
  })

  it('replaces all links with each LOOKUP entity top 5 at cosine >= 0.80 by name trigrams', async () => {
    const result = await computeEntityLinks(raw)
    expect(result).toMatchObject({ method: TRIGRAM_METHOD, entities: lookupEntities, join: 'prefix-filter' })
    const rows = links()
    expect(rows.length).toBe(result.links)
    expect(rows.every((l) => l.method === 'name-trigram-tfidf' && l.score >= 0.8 && l.score <= 1)).toBe(true)
    expect(rows.some((l) => l.method === 'stale')).toBe(false)
    const nonLookup = new Set([id['Paris Hilton/PERSON'], id['1887/DATE'], id['1888/DATE']])
    expect(rows.some((l) => nonLookup.has(l.source) || nonLookup.has(l.target))).toBe(false)
    expect(rows.some((l) => l.source === l.target)).toBe(false)
    // Eight Eiffel variants, six of them within 0.80 of "Gustave Eiffel": the top 5 are kept,
    // the same name written with a hyphen (an ORG) first.
    const eiffel = rows.filter((l) => l.source === id['Gustave Eiffel/PERSON'])
    expect(eiffel.length).toBe(5)
    expect(eiffel.map((l) => l.target)).not.toContain(id['Gustav Eiffel/PERSON'])
    expect(eiffel[0]).toMatchObject({ target: id['Gustave-Eiffel/ORG'] })
    expect(eiffel[0]!.score).toBeCloseTo(1, 6)
    for (let i = 1; i < eiffel.length; i++) expect(eiffel[i]!.score).toBeLessThanOrEqual(eiffel[i - 1]!.score)
    const counts = new Map<number, number>()
    for (const l of rows) counts.set(l.source, (counts.get(l.source) ?? 0) + 1)
    expect(Math.max(...counts.values())).toBeLessThanOrEqual(5)
    expect(rows.some((l) => l.source === id['Paris/GPE'])).toBe(false)
  })

  it('honours threshold and top k options', async () => {
    const strict = await computeEntityLinks(raw, { threshold: 0.99 })
    // At 0.99 only names that normalise alike remain ("Gustave Eiffel" and "Gustave-Eiffel", accent variants).
    const nameOf = new Map(Object.entries(id).map(([key, value]) => [value, key.split('/')[0]!]))
    expect(strict.links).toBe(links().length)
    expect(links().map((l) => l.target)).toContain(id['Gustave-Eiffel/ORG'])
    expect(links().every((l) => l.score >= 0.99 && normaliseName(nameOf.get(l.source)!) === normaliseName(nameOf.get(l.target)!))).toBe(true)
    await computeEntityLinks(raw, { topK: 1 })
    const rows = links()
    expect(new Set(rows.map((l) => l.source)).size).toBe(rows.length)
    await expect(computeEntityLinks(raw, { threshold: 0 })).rejects.toThrow(GraphError)
    await expect(computeEntityLinks(raw, { topK: 0 })).rejects.toThrow(GraphError)
  })

  it('uses an injected embedder on entity names and records the model in the method', async () => {
    const seen: string[][] = []
    // Toy embedder on three axes: Eiffel names near one (spread by length), Paris and the Statue on another, the rest on the third.
    const embed: EmbedFn = async (texts) => {
      seen.push(texts)
      return texts.map((t) => (t.includes('Eif') ? Float32Array.of(1, 0.05 * t.length, 0) : /Paris|Statue/.test(t) ? Float32Array.of(0, 1, 0) : Float32Array.of(0, 0, 1)))
    }
    const result = await computeEntityLinks(raw, { embed, model: 'toy', batchSize: 100 })
    expect(result).toMatchObject({ method: 'name-embedding:toy', entities: lookupEntities, join: 'exact' })
    expect(seen.map((b) => b.length)).toEqual([100, 100, 100, 100, lookupEntities - 400])
    expect(seen.flat()).not.toContain('1887')
    const rows = links()
    expect(rows.every((l) => l.method === 'name-embedding:toy')).toBe(true)
    // Paris and the Statue share an axis (cosine 1); Eiffel names never link to them.
    expect(rows.filter((l) => l.source === id['Paris/GPE']).map((l) => l.target)).toEqual([id['Statue of Liberty/FAC']])
    const badEmbed: EmbedFn = async (texts) => texts.slice(1).map(() => Float32Array.of(1))
    const before = links()
    await expect(computeEntityLinks(raw, { embed: badEmbed })).rejects.toThrow(/returned \d+ vectors for \d+ names/)
    const ragged: EmbedFn = async (texts) => texts.map((_, i) => new Float32Array(i === 1 ? 3 : 2).fill(1))
    await expect(computeEntityLinks(raw, { embed: ragged })).rejects.toThrow(GraphError)
    // A failed run leaves the previous links alone.
    expect(links()).toEqual(before)
  })
})
