/** Harness-1 working-memory parts in isolation: curated set, compression, MinHash, graph, budget, rendering, parsing. */
import { describe, expect, it } from 'vitest'
import { seededRandom } from '../../main/eval'
import {
  budgetMarker,
  budgetWarning,
  buildEvidenceGraph,
  CL100K_COUNTER,
  compressSentences,
  CuratedSet,
  estimateJaccard,
  IMPORTANCE_TAGS,
  jaccard,
  MinHasher,
  parseDocId,
  parseToolCallText,
  renderWorkingMemory,
  shingles,
  STATEFUL_DEFAULTS,
  toolSchemas,
  truncateToTokens,
  validateToolCall,
  type RenderView,
  type TokenCounter,
} from '../../main/harness/stateful'
import type { StoredChunk } from '../../main/harness/stateful/outer-tier'

describe('curated set', () => {
  it('caps the set and evicts the lowest-tagged (oldest among equals) only for an outranking tag', () => {
    const set = new CuratedSet(3, true)
    expect(set.add(1, 'fair', 1, 'policy').kind).toBe('added')
    expect(set.add(2, 'low', 1, 'policy').kind).toBe('added')
    expect(set.add(3, 'high', 1, 'policy').kind).toBe('added')
    const refused = set.add(4, 'low', 2, 'policy')
    expect(refused).toMatchObject({ kind: 'full', lowest: { chunkId: 2, tag: 'low' } })
    expect(set.ids()).toEqual([1, 2, 3])
    const evicted = set.add(4, 'fair', 2, 'policy')
    expect(evicted).toMatchObject({ kind: 'evicted', evicted: { chunkId: 2, tag: 'low' } })
    expect(set.ids()).toEqual([1, 3, 4])
    // Lowest is now fair (chunk 1 is older than chunk 4): fair does not outrank fair.
    expect(set.add(5, 'fair', 3, 'policy')).toMatchObject({ kind: 'full', lowest: { chunkId: 1 } })
    expect(set.add(5, 'very_high', 3, 'policy')).toMatchObject({ kind: 'evicted', evicted: { chunkId: 1 } })
    expect(set.ids()).toEqual([3, 4, 5])
    expect(set.size).toBe(3)
  })

  it('re-tags an existing document instead of adding it twice, and groups by tag', () => {
    const set = new CuratedSet(30, true)
    set.add(7, 'low', 1, 'auto-seed')
    expect(set.add(7, 'low', 2, 'policy').kind).toBe('unchanged')
    expect(set.add(7, 'very_high', 2, 'policy')).toMatchObject({ kind: 'retagged', from: 'low', to: 'very_high' })
    set.add(8, 'fair', 2, 'policy')
    const byTag = set.byTag()
    expect(byTag.very_high.map((e) => e.chunkId)).toEqual([7])
    expect(byTag.fair.map((e) => e.chunkId)).toEqual([8])
    expect(byTag.low).toEqual([])
  })

  it('without tags a full set always refuses', () => {
    const set = new CuratedSet(2, false)
    set.add(1, 'low', 1, 'policy')
    set.add(2, 'low', 1, 'policy')
    expect(set.add(3, 'very_high', 2, 'policy')).toMatchObject({ kind: 'full' })
    expect(set.list().every((e) => e.tag === null)).toBe(true)
    expect(set.byTag().untagged).toHaveLength(2)
  })

  it('removal frees a slot', () => {
    const set = new CuratedSet(1, true)
    set.add(1, 'high', 1, 'policy')
    expect(set.remove(1)).toBe(true)
    expect(set.remove(1)).toBe(false)
    expect(set.add(2, 'low', 2, 'policy').kind).toBe('added')
  })
})

describe('sentence compression', () => {
  const sentences = [
    'Alpha City is a town in the north.',
    'The weather is mild.',
    'Its mayor founded the Alpha Rowing Club in 1901.',
    'Tourists visit the harbour.',
    'The club was founded by the mayor with the rowing federation.',
    'Bread is baked daily.',
    'The founded club rowing mayor appears again here.',
  ]

  it('keeps the 4 most query-relevant sentences in their original order', () => {
    const c = compressSentences(sentences, 'who founded the rowing club', 4)
    expect(c.kept).toHaveLength(4)
    expect([...c.kept].sort((a, b) => a - b)).toEqual(c.kept)
    expect(c.kept).toEqual(expect.arrayContaining([2, 4, 6]))
    const positions = c.kept.map((i) => c.text.indexOf(sentences[i]!))
    expect(positions.every((p) => p >= 0)).toBe(true)
    expect([...positions].sort((a, b) => a - b)).toEqual(positions)
    expect(c.text).toContain('…')
  })

  it('keeps short passages whole and breaks ties towards earlier sentences', () => {
    expect(compressSentences(sentences.slice(0, 3), 'anything', 4).kept).toEqual([0, 1, 2])
    expect(compressSentences(sentences, 'zebra', 4).kept).toEqual([0, 1, 2, 3])
  })
})

describe('MinHash near-duplicates', () => {
  const base = Array.from({ length: 120 }, (_, i) => `w${i}`)
  const variant = (changed: number) => base.map((w, i) => (i % Math.floor(120 / changed) === 0 && i / Math.floor(120 / changed) < changed ? `x${i}` : w)).join(' ')
  const hasher = new MinHasher({ permutations: 256, shingle: 3, seed: 42 })

  it('estimates Jaccard close to the exact value', () => {
    for (const changed of [0, 1, 2, 4, 8, 16]) {
      const a = base.join(' ')
      const b = variant(changed)
      const exact = jaccard(shingles(a, 3), shingles(b, 3))
      const est = estimateJaccard(hasher.signature(a)!, hasher.signature(b)!)
      expect(Math.abs(est - exact)).toBeLessThan(0.08)
    }
  })

  it('separates pairs above and below 0.85', () => {
    const a = base.join(' ')
    const pairs = [1, 2, 3, 6, 8, 12].map((changed) => {
      const b = variant(changed)
      return { exact: jaccard(shingles(a, 3), shingles(b, 3)), est: estimateJaccard(hasher.signature(a)!, hasher.signature(b)!) }
    })
    const above = pairs.filter((p) => p.exact >= 0.92)
    const below = pairs.filter((p) => p.exact <= 0.78)
    expect(above.length).toBeGreaterThan(0)
    expect(below.length).toBeGreaterThan(0)
    for (const p of above) expect(p.est).toBeGreaterThanOrEqual(0.85)
    for (const p of below) expect(p.est).toBeLessThan(0.85)
  })

  it('is deterministic for a seed and differs across seeds; empty text has no signature', () => {
    const t = base.join(' ')
    expect([...new MinHasher({ permutations: 64, shingle: 3, seed: 7 }).signature(t)!]).toEqual([...new MinHasher({ permutations: 64, shingle: 3, seed: 7 }).signature(t)!])
    expect([...new MinHasher({ permutations: 64, shingle: 3, seed: 7 }).signature(t)!]).not.toEqual([...new MinHasher({ permutations: 64, shingle: 3, seed: 8 }).signature(t)!])
    expect(hasher.signature('  ... ')).toBeNull()
    expect(shingles('one two', 3)).toEqual(new Set(['one two']))
  })
})

describe('evidence graph', () => {
  const chunk = (id: number, entities: [number, string][]): StoredChunk => ({
    chunkId: id,
    documentId: id,
    title: `T${id}`,
    ord: 0,
    documentChunkIds: [id],
    text: '',
    sentences: [],
    entities: entities.map(([eid, name]) => ({ id: eid, name, type: 'PERSON' })),
  })
  const chunks = [
    chunk(1, [[1, 'X'], [2, 'Y']]),
    chunk(2, [[1, 'X'], [2, 'Y'], [4, 'W']]),
    chunk(3, [[1, 'X'], [3, 'Z']]),
  ]

  it('counts bridges (2+ documents) and single-document entities', () => {
    const g = buildEvidenceGraph(chunks, new Set(), 8)
    expect(g.bridges.map((b) => [b.entity, b.docIds])).toEqual([
      ['X', ['D1', 'D2', 'D3']],
      ['Y', ['D1', 'D2']],
    ])
    expect(g).toMatchObject({ bridgeCount: 2, singleDocEntities: 2, documents: 3 })
  })

  it('shows only the top bridges but still counts all of them', () => {
    const g = buildEvidenceGraph(chunks, new Set([1]), 1)
    expect(g.bridges).toHaveLength(1)
    expect(g.bridges[0]).toMatchObject({ entity: 'X', curatedDocs: 1 })
    expect(g.bridgeCount).toBe(2)
  })
})

describe('budget markers', () => {
  it('warns at 60, 75 and 90 percent', () => {
    expect(budgetWarning(599, 1000)).toBeNull()
    expect(budgetWarning(600, 1000)?.level).toBe(60)
    expect(budgetWarning(749, 1000)?.level).toBe(60)
    expect(budgetWarning(750, 1000)?.level).toBe(75)
    expect(budgetWarning(899, 1000)?.level).toBe(75)
    expect(budgetWarning(900, 1000)?.level).toBe(90)
    expect(budgetWarning(1000, 1000)?.level).toBe(90)
    expect(budgetMarker(120, 1000)).toBe('[Context: 120/1000]')
    expect(budgetMarker(800, 1000)).toMatch(/^\[Context: 800\/1000\]\nWarning: context over 75% full/)
  })

  it('truncates to a token limit', () => {
    const text = 'lorem ipsum dolor sit amet '.repeat(100)
    for (const limit of [0, 1, 7, 50, 499]) expect(CL100K_COUNTER.count(truncateToTokens(text, limit, CL100K_COUNTER))).toBeLessThanOrEqual(limit)
    expect(truncateToTokens('short', 10, CL100K_COUNTER)).toBe('short')
  })
})

describe('rendering within the token limit', () => {
  const words = 'alpha beta gamma delta river city founded university émigré 東京 1984 Zürich author prize — “quoted” (x) tower'.split(' ')
  const whitespace: TokenCounter = { name: 'whitespace', count: (t) => (t.trim() === '' ? 0 : t.trim().split(/\s+/).length) }

  function randomView(rand: () => number): RenderView {
    const int = (n: number) => Math.floor(rand() * n)
    const text = (n: number) => Array.from({ length: n }, () => words[int(words.length)]!).join(' ')
    const id = () => `D${1 + int(5000)}`
    const tagged = rand() < 0.7
    return {
      question: `${text(3 + int(30))}?`,
      turn: int(20),
      maxTurns: 20,
      tools: ['fan_out_search', 'curate', 'end_search'],
      lastResult:
        rand() < 0.8
          ? {
              tool: 'review_docs',
              ok: true,
              text: text(int(40)),
              items: [],
              details: Array.from({ length: int(4) }, () => ({ id: id(), title: text(2), text: text(int(400)) })),
            }
          : null,
      curated: Array.from({ length: int(31) }, (_, i) => ({
        id: id(),
        chunkId: i,
        title: text(1 + int(4)),
        tag: tagged ? IMPORTANCE_TAGS[int(4)]! : null,
        via: 'policy' as const,
        turn: int(10),
        summary: text(int(80)),
      })),
      curatedCap: 30,
      tagged,
      pool: Array.from({ length: int(60) }, (_, i) => ({
        id: id(),
        chunkId: i,
        documentId: i,
        title: text(1 + int(4)),
        summary: text(int(150)),
        query: text(3),
        tool: 'search_corpus' as const,
        turn: int(10),
        rank: i + 1,
      })),
      graph:
        rand() < 0.7
          ? {
              bridges: Array.from({ length: int(9) }, () => ({ entity: text(2), type: 'PERSON', docIds: [id(), id()], curatedDocs: int(2) })),
              bridgeCount: int(40),
              singleDocEntities: int(100),
              documents: int(60),
            }
          : null,
      verifications:
        rand() < 0.7
          ? Array.from({ length: int(6) }, () => ({
              turn: int(10),
              claim: text(int(50)),
              docIds: [id()],
              verdict: 'partial' as const,
              score: rand(),
              checker: 'lexical',
              lexical: true,
              evidence: [],
            }))
          : null,
      history: Array.from({ length: int(12) }, () => ({
        turn: int(10),
        tool: 'fan_out_search' as const,
        queries: [text(3), text(4)],
        mode: 'bm25',
        results: int(40),
        new: int(20),
        duplicates: int(3),
        newIds: [id()],
        curated: int(3),
      })),
      markers: rand() < 0.8,
    }
  }

  it('never exceeds the limit, over random states and limits (property test)', () => {
    const rand = seededRandom(20240601)
    const levels = new Set<number>()
    for (let i = 0; i < 150; i++) {
      const view = randomView(rand)
      const limit = 1 + Math.floor(rand() * (rand() < 0.3 ? 60 : 3000))
      for (const counter of [CL100K_COUNTER, whitespace]) {
        const r = renderWorkingMemory(view, limit, counter, { poolShown: 20, historyTurns: 5 })
        expect(r.tokens).toBeLessThanOrEqual(limit)
        expect(counter.count(r.text)).toBe(r.tokens)
        levels.add(r.level)
      }
    }
    // The random states exercise the full rendering, the degradation steps and the final truncation.
    expect(levels.has(0)).toBe(true)
    expect([...levels].some((l) => l > 0 && l < 8)).toBe(true)
    expect(levels.has(8)).toBe(true)
  })

  it('degrades in order: shorter pool before shorter summaries before state only', () => {
    const rand = seededRandom(7)
    const view = { ...randomView(rand), markers: true }
    const full = renderWorkingMemory(view, 1_000_000, CL100K_COUNTER, { poolShown: 20, historyTurns: 5 })
    expect(full.level).toBe(0)
    let lastLevel = 0
    for (let limit = full.tokens - 1; limit > 20; limit = Math.floor(limit * 0.8)) {
      const r = renderWorkingMemory(view, limit, CL100K_COUNTER, { poolShown: 20, historyTurns: 5 })
      expect(r.level).toBeGreaterThanOrEqual(lastLevel)
      // (Token counts are not monotone in the limit: the marker's warning text grows as the limit shrinks.)
      expect(r.tokens).toBeLessThanOrEqual(limit)
      if (r.levelName === 'question and state only') expect(r.text).toContain(view.question)
      lastLevel = r.level
    }
  })
})

describe('tool calls', () => {
  it('parses bare JSON, fences, <tool_call> tags, prose and string arguments', () => {
    const want = { kind: 'tool', name: 'search_corpus', arguments: { query: 'x' } }
    expect(parseToolCallText('{"name":"search_corpus","arguments":{"query":"x"}}')).toEqual(want)
    expect(parseToolCallText('Thinking...\n```json\n{"name": "search_corpus", "arguments": {"query": "x"}}\n```')).toEqual(want)
    expect(parseToolCallText('<tool_call>{"name":"search_corpus","arguments":{"query":"x"}}</tool_call>')).toEqual(want)
    expect(parseToolCallText('I will search: {"name":"search_corpus","arguments":{"query":"x"}} now')).toEqual(want)
    expect(parseToolCallText('{"name":"search_corpus","arguments":"{\\"query\\":\\"x\\"}"}')).toEqual(want)
  })

  it('names what is wrong with malformed text', () => {
    expect(parseToolCallText('')).toMatchObject({ formatError: expect.stringContaining('Empty') })
    expect(parseToolCallText('no call here')).toMatchObject({ formatError: expect.stringContaining('No JSON') })
    expect(parseToolCallText('{"name": "search_corpus", "arguments": {"query": }')).toMatchObject({ formatError: expect.stringContaining('Invalid JSON') })
    expect(parseToolCallText('{"arguments": {}}')).toMatchObject({ formatError: expect.stringContaining('"name"') })
    expect(parseToolCallText('[1, 2]')).toMatchObject({ formatError: expect.any(String) })
  })

  it('validates arguments against the schemas', () => {
    const cfg = STATEFUL_DEFAULTS
    expect(validateToolCall('fan_out_search', { queries: ['a', 'b', 'c', 'd', 'e', 'f'] }, cfg)).toMatchObject({ ok: false, error: expect.stringContaining('at most 5') })
    expect(validateToolCall('fan_out_search', { queries: [] }, cfg).ok).toBe(false)
    expect(validateToolCall('search_corpus', {}, cfg)).toMatchObject({ ok: false, error: expect.stringContaining('query') })
    expect(validateToolCall('search_corpus', { query: 'x', extra: 1 }, cfg).ok).toBe(false)
    expect(validateToolCall('curate', {}, cfg)).toMatchObject({ ok: false, error: expect.stringContaining('add_ids') })
    expect(validateToolCall('curate', { add_ids: ['D1'], importance: 'urgent' }, cfg).ok).toBe(false)
    expect(validateToolCall('review_docs', { doc_ids: ['D1', 'D2', 'D3', 'D4', 'D5', 'D6'] }, cfg).ok).toBe(false)
    expect(validateToolCall('read_document', { doc_id: 'chunk twelve' }, cfg).ok).toBe(false)
    expect(validateToolCall('read_document', { doc_id: 12 }, cfg)).toEqual({ ok: true, call: { name: 'read_document', arguments: { doc_id: 'D12' } } })
    expect(validateToolCall('launch_rocket', {}, cfg)).toMatchObject({ ok: false, error: expect.stringContaining('Unknown tool') })
    expect(validateToolCall('verify', { doc_ids: ['D1'], claim: 'x' }, { ...cfg, verification: false })).toMatchObject({ ok: false, error: expect.stringContaining('switched off') })
    expect(validateToolCall('end_search', 'done', cfg).ok).toBe(false)
    expect(parseDocId('d12')).toBe(12)
    expect(parseDocId(' D7 ')).toBe(7)
    expect(parseDocId('D0')).toBeNull()
  })

  it('exposes JSON Schemas that follow the switches', () => {
    const all = toolSchemas(STATEFUL_DEFAULTS)
    expect(all.map((t) => t.name)).toEqual(['fan_out_search', 'search_corpus', 'grep_corpus', 'read_document', 'review_docs', 'curate', 'verify', 'end_search'])
    const fanOut = all.find((t) => t.name === 'fan_out_search')!.parameters as { properties: { queries: { maxItems: number } }; required: string[] }
    expect(fanOut.properties.queries.maxItems).toBe(5)
    expect(fanOut.required).toEqual(['queries'])
    const curate = all.find((t) => t.name === 'curate')!.parameters as { properties: Record<string, { enum?: string[] }> }
    expect(curate.properties.importance!.enum).toEqual(['very_high', 'high', 'fair', 'low'])
    const off = toolSchemas({ ...STATEFUL_DEFAULTS, verification: false, reviewDocs: false, importanceTags: false })
    expect(off.map((t) => t.name)).not.toContain('verify')
    expect(off.map((t) => t.name)).not.toContain('review_docs')
    expect((off.find((t) => t.name === 'curate')!.parameters as { properties: object }).properties).not.toHaveProperty('importance')
  })
})
