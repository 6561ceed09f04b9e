import { join } from 'node:path'
import type BetterSqlite3 from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { workspaceMigrations } from '../../main/db/migrations'
import { openDatabase, type OpenedDatabase } from '../../main/db/open'
import type { WorkspaceDatabase } from '../../main/db/schema'
import {
  createHashedEmbedder,
  createRetriever,
  embedMissingChunks,
  HIGHLIGHT_CLOSE,
  HIGHLIGHT_OPEN,
  RetrievalError,
  storeChunkVectors,
  type Retriever,
} from '../../main/retrieval'
import { tempDir } from '../helpers/services'

/** Writes a document in the ingest pipeline's shape: chunks of sentences, sentences, and FTS rows keyed by chunk id. */
function insertDocument(raw: BetterSqlite3.Database, title: string, chunks: string[][], overlap = 0): { documentId: number; chunkIds: number[] } {
  const fileId = (raw.prepare("select id from source_files where path = 'fixture'").pluck().get() as number | undefined) ??
    Number(raw.prepare("insert into source_files (path, format, size_bytes, sha256, status, ingested_at) values ('fixture', 'json', 0, '', 'ok', '')").run().lastInsertRowid)
  // Chunks may overlap by `overlap` sentences: the document holds each sentence once.
  const sentences: string[] = []
  const chunkSentenceRanges: [number, number][] = []
  for (const [i, chunk] of chunks.entries()) {
    const start = i === 0 ? 0 : sentences.length - overlap
    sentences.push(...(i === 0 ? chunk : chunk.slice(overlap)))
    chunkSentenceRanges.push([start, start + chunk.length - 1])
  }
  const spans: [number, number][] = []
  let pos = 0
  for (const s of sentences) {
    spans.push([pos, pos + s.length])
    pos += s.length + 1
  }
  const text = sentences.join(' ')
  const documentId = Number(
    raw.prepare('insert into documents (file_id, external_id, title, text, token_count) values (?, ?, ?, ?, ?)').run(fileId, title, title, text, text.split(' ').length).lastInsertRowid,
  )
  const chunkIds: number[] = []
  for (const [ord, [first, last]] of chunkSentenceRanges.entries()) {
    const start = spans[first]![0]
    const end = spans[last]![1]
    const chunkText = text.slice(start, end)
    const chunkId = Number(
      raw
        .prepare('insert into chunks (document_id, ord, text, start_char, end_char, token_count, first_sentence, last_sentence) values (?, ?, ?, ?, ?, ?, ?, ?)')
        .run(documentId, ord, chunkText, start, end, chunkText.split(' ').length, first, last).lastInsertRowid,
    )
    raw.prepare('insert into chunks_fts (rowid, title, text) values (?, ?, ?)').run(chunkId, title, chunkText)
    chunkIds.push(chunkId)
    for (let s = first; s <= last; s++) {
      raw
        .prepare('insert or ignore into sentences (document_id, chunk_id, ord, text, start_char, end_char) values (?, ?, ?, ?, ?, ?)')
        .run(documentId, chunkId, s, sentences[s], spans[s]![0], spans[s]![1])
    }
  }
  return { documentId, chunkIds }
}

const CORPUS: [string, string[]][] = [
  ['Eiffel Tower', ['The Eiffel Tower is a wrought-iron lattice tower on the Champ de Mars in Paris.', 'It is named after the engineer Gustave Eiffel, whose company designed and built the tower.']],
  ['Tower of London', ['The Tower of London is a historic castle on the north bank of the River Thames.', 'It was founded towards the end of 1066.']],
  ['Radio masts', ['A radio mast is a tall tower.', 'Tower tower tower: masts and towers carry antennas for broadcasting.']],
  ['Gustave Eiffel', ['Gustave Eiffel was a French civil engineer.', 'He is known for the Eiffel Tower and the internal structure of the Statue of Liberty.']],
  ['Zürich', ['Zürich is the largest city in Switzerland.', 'It lies at the north-western tip of Lake Zürich.']],
  ['Tokyo Tower', ['東京タワー は 東京 の 電波塔 です。', 'Tokyo Tower is a communications and observation tower in Minato, Tokyo.']],
  ['Photosynthesis', ['Photosynthesis converts light energy into chemical energy in plants.', 'Chlorophyll absorbs mostly blue and red light.']],
  ['Paris', ['Paris is the capital and most populous city of France.', 'The city hosts many museums, including the Louvre.']],
  ['Near-earth object', ['A near-earth object is an asteroid or comet whose orbit brings it close to Earth.', 'NOT every object NEAR Earth is dangerous; AND OR operators are words here.']],
  ['Café culture', ['A café is an establishment that serves coffee.', 'Cafe culture in Vienna dates to the 17th century.']],
]

describe('retrieval over a workspace database', () => {
  const tmp = tempDir('harness-lab-retrieval-')
  let opened: OpenedDatabase<WorkspaceDatabase>
  let raw: BetterSqlite3.Database
  let retriever: Retriever
  const docs = new Map<string, { documentId: number; chunkIds: number[] }>()
  const embedder = createHashedEmbedder(512)

  beforeAll(async () => {
    opened = await openDatabase<WorkspaceDatabase>(join(tmp.dir, 'workspace.db'), workspaceMigrations)
    raw = opened.raw
    raw.transaction(() => {
      for (const [title, sentences] of CORPUS) docs.set(title, insertDocument(raw, title, [sentences]))
      // A long document in three overlapping chunks, for exclusion, readers and documentIds.
      const parts = Array.from({ length: 7 }, (_, i) => `Iron bridge section ${i} spans the river with a lattice of iron girders.`)
      docs.set('Iron bridges', insertDocument(raw, 'Iron bridges', [parts.slice(0, 3), parts.slice(2, 5), parts.slice(4, 7)], 1))
    })()
    retriever = createRetriever(raw, { embedder })
  })
  afterAll(async () => {
    await opened.close()
    tmp.cleanup()
  })

  const id = (title: string) => docs.get(title)!.documentId
  const titles = (hits: { title: string }[]) => hits.map((h) => h.title)
  /** Every snippet, markers and ellipses removed, is text of the hit's own chunk (not of another match). */
  const expectSnippetsFromOwnChunk = (hits: { chunkId: number; snippet: string }[]) => {
    expect(hits.length).toBeGreaterThan(0)
    for (const h of hits) {
      const plain = h.snippet.replaceAll(HIGHLIGHT_OPEN, '').replaceAll(HIGHLIGHT_CLOSE, '')
      for (const piece of plain.split('…').filter(Boolean)) expect(retriever.readChunk(h.chunkId).text).toContain(piece)
    }
  }

  describe('bm25', () => {
    it('ranks the exact title above chunks that repeat one of its words', async () => {
      const { hits, fusedFrom, matchExpression } = await retriever.search('Eiffel Tower', 5, 'bm25')
      expect(fusedFrom).toEqual(['bm25'])
      expect(matchExpression).toBe('"eiffel" OR "tower"')
      expect(hits[0]!.title).toBe('Eiffel Tower')
      expect(titles(hits).indexOf('Radio masts')).toBeGreaterThan(titles(hits).indexOf('Gustave Eiffel'))
      expect(hits.map((h) => h.rank)).toEqual(hits.map((_, i) => i + 1))
      for (let i = 1; i < hits.length; i++) expect(hits[i]!.score).toBeLessThanOrEqual(hits[i - 1]!.score)
      expect(hits[0]!.bm25).toBe(hits[0]!.score)
      expect(hits[0]!.score).toBeGreaterThan(0)
      expectSnippetsFromOwnChunk(hits)
    })

    it('answers natural questions with OR semantics and stemming', async () => {
      const { hits } = await retriever.search('Which engineer designed the lattice towers in Paris?', 3, 'bm25')
      expect(hits[0]!.title).toBe('Eiffel Tower')
      expect((await retriever.search('photosynthetic plant converting lights', 1, 'bm25')).hits[0]!.title).toBe('Photosynthesis')
    })

    it('returns snippets of the chunk text with the documented highlight markers', async () => {
      const [hit] = (await retriever.search('chlorophyll', 1, 'bm25')).hits
      expect(hit!.snippet).toContain(`${HIGHLIGHT_OPEN}Chlorophyll${HIGHLIGHT_CLOSE}`)
      const custom = createRetriever(raw, { highlight: { open: '[[', close: ']]' }, snippetTokens: 6 })
      const [short] = custom.searchBm25('Louvre', 1).hits
      expect(short!.snippet).toMatch(/\[\[Louvre\]\]/)
      expect(short!.snippet.split(' ').length).toBeLessThanOrEqual(7)
    })

    it('ranks the same without snippets, each hit then carrying its opening words unmarked', async () => {
      const query = 'Which engineer designed the lattice towers in Paris?'
      const full = (await retriever.search(query, 5, 'bm25')).hits
      const bare = (await retriever.search(query, 5, 'bm25', { snippets: false })).hits
      expect(bare.map((h) => [h.chunkId, h.score, h.rank])).toEqual(full.map((h) => [h.chunkId, h.score, h.rank]))
      expect(full.some((h) => h.snippet.includes(HIGHLIGHT_OPEN))).toBe(true)
      for (const h of bare) {
        expect(h.snippet).not.toContain(HIGHLIGHT_OPEN)
        expect(retriever.readChunk(h.chunkId).text.startsWith(h.snippet.replace(/…$/, ''))).toBe(true)
      }
    })

    it('survives hostile queries and treats operator words as text', async () => {
      const queries = ['"unbalanced', '(paris', 'paris AND tower OR NOT NEAR(x y)', 'tow*', 'title:eiffel', '-paris', '^paris', '{title}: x', 'NEAR/3', "o'brien"]
      for (const q of queries) await expect(retriever.search(q, 5, 'bm25')).resolves.toBeDefined()
      expect((await retriever.search('title:Louvre', 1, 'bm25')).hits[0]!.title).toBe('Paris')
      expect((await retriever.search('near earth', 1, 'bm25')).hits[0]!.title).toBe('Near-earth object')
    })

    it('matches unicode terms and folds diacritics', async () => {
      expect((await retriever.search('zurich', 1, 'bm25')).hits[0]!.title).toBe('Zürich')
      expect((await retriever.search('Zürich lake', 1, 'bm25')).hits[0]!.title).toBe('Zürich')
      expect((await retriever.search('東京タワー', 1, 'bm25')).hits[0]!.title).toBe('Tokyo Tower')
      expect(titles((await retriever.search('cafe', 5, 'bm25')).hits)).toEqual(['Café culture'])
    })

    it('returns nothing, without error, for empty and punctuation-only queries', async () => {
      for (const q of ['', '   ', '?!', '"" () * : -', 'AND OR']) {
        const result = await retriever.search(q, 5, 'bm25')
        expect(result.hits).toEqual([])
        expect(result.matchExpression).toBeNull()
      }
      expect((await retriever.search('xylophone', 5, 'bm25')).hits).toEqual([])
    })

    it('validates k', async () => {
      expect((await retriever.search('tower', 0, 'bm25')).hits).toEqual([])
      await expect(retriever.search('tower', -1, 'bm25')).rejects.toMatchObject({ code: 'bad-argument' })
      await expect(retriever.search('tower', 1.5, 'bm25')).rejects.toThrow(RetrievalError)
      await expect(retriever.search('tower', 3, 'fuzzy' as never)).rejects.toThrow(/Unknown search mode/)
    })

    it('excludes seen chunks and still fills k', async () => {
      // Five chunks mention a tower: two pages of two, then the last one.
      const first = retriever.searchBm25('tower', 2).hits.map((h) => h.chunkId)
      expect(first).toHaveLength(2)
      for (const exclude of [new Set(first), first]) {
        const next = retriever.searchBm25('tower', 2, { excludeChunkIds: exclude }).hits.map((h) => h.chunkId)
        expect(next).toHaveLength(2)
        expect(next.filter((c) => first.includes(c))).toEqual([])
      }
      const all = retriever.searchBm25('tower', 100).hits.map((h) => h.chunkId)
      expect(retriever.searchBm25('tower', 100, { excludeChunkIds: all.slice(0, -1) }).hits.map((h) => h.chunkId)).toEqual(all.slice(-1))
    })

    it('restricts to documentIds', async () => {
      const { hits } = await retriever.search('iron', 10, 'bm25', { documentIds: [id('Iron bridges')] })
      expect(hits.map((h) => h.chunkId).sort()).toEqual([...docs.get('Iron bridges')!.chunkIds].sort())
      expect(new Set(hits.map((h) => h.ord))).toEqual(new Set([0, 1, 2]))
    })
  })

  describe('dense and hybrid', () => {
    it('explains when there are no vectors or no embedder', async () => {
      await expect(retriever.search('tower', 3, 'dense')).rejects.toMatchObject({ code: 'no-vectors', message: expect.stringMatching(/no chunk vectors for model/) })
      await expect(createRetriever(raw).search('tower', 3, 'dense')).rejects.toMatchObject({ code: 'no-embedder' })
      const hybrid = await retriever.search('Eiffel Tower', 3, 'hybrid')
      expect(hybrid.mode).toBe('hybrid')
      expect(hybrid.fusedFrom).toEqual(['bm25'])
      expect(hybrid.fallback).toMatch(/fell back to bm25/)
      expect(hybrid.hits.map((h) => h.chunkId)).toEqual(retriever.searchBm25('Eiffel Tower', 3).hits.map((h) => h.chunkId))
      expect((await createRetriever(raw).search('tower', 3, 'hybrid')).fallback).toMatch(/no embedding model/)
    })

    it('embeds missing chunks, then ranks by cosine', async () => {
      const progress: number[] = []
      const total = raw.prepare('select count(*) from chunks').pluck().get() as number
      expect(await embedMissingChunks(raw, embedder, { batchSize: 4, onProgress: (done) => progress.push(done) })).toBe(total)
      expect(progress.at(-1)).toBe(total)
      expect(await embedMissingChunks(raw, embedder)).toBe(0)
      expect(retriever.vectorCount()).toBe(total)

      const { hits, fusedFrom } = await retriever.search('photosynthesis chlorophyll light plants', 3, 'dense')
      expect(fusedFrom).toEqual(['dense'])
      expect(hits[0]!.title).toBe('Photosynthesis')
      expect(hits[0]!.dense).toBe(hits[0]!.score)
      for (const h of hits) expect(Math.abs(h.score)).toBeLessThanOrEqual(1 + 1e-6)
      for (let i = 1; i < hits.length; i++) expect(hits[i]!.score).toBeLessThanOrEqual(hits[i - 1]!.score)
      expect(hits[0]!.snippet).toContain(`${HIGHLIGHT_OPEN}Chlorophyll${HIGHLIGHT_CLOSE}`)
      expectSnippetsFromOwnChunk(hits)
      expectSnippetsFromOwnChunk((await retriever.search('iron tower river', 6, 'hybrid')).hits)
    })

    it('gives dense-only hits a plain opening snippet', async () => {
      // Restricted to a document without the query's words, dense still ranks it but FTS has no snippet.
      const [hit] = (await retriever.search('Louvre museums', 1, 'dense', { documentIds: [id('Eiffel Tower')] })).hits
      expect(hit!.title).toBe('Eiffel Tower')
      expect(hit!.snippet).not.toContain(HIGHLIGHT_OPEN)
      expect(hit!.snippet).toMatch(/^The Eiffel Tower is a wrought-iron lattice tower .*…$/)
      const [paris] = (await retriever.search('Louvre museums', 1, 'dense', { documentIds: [id('Paris')] })).hits
      expect(paris!.snippet).toContain(`${HIGHLIGHT_OPEN}Louvre${HIGHLIGHT_CLOSE}`)
    })

    it('excludes seen chunks in dense and hybrid modes and still fills k', async () => {
      for (const mode of ['dense', 'hybrid'] as const) {
        const first = (await retriever.search('iron lattice tower', 4, mode)).hits.map((h) => h.chunkId)
        expect(first).toHaveLength(4)
        const next = (await retriever.search('iron lattice tower', 4, mode, { excludeChunkIds: new Set(first) })).hits.map((h) => h.chunkId)
        expect(next).toHaveLength(4)
        expect(next.filter((c) => first.includes(c))).toEqual([])
      }
    })

    it('fuses bm25 and dense ranks with reciprocal rank fusion', async () => {
      const rrfK = 10
      const r = createRetriever(raw, { embedder, rrfK, candidateFactor: 3 })
      const result = await r.search('Gustave Eiffel engineer Statue of Liberty', 4, 'hybrid')
      expect(result.fusedFrom).toEqual(['bm25', 'dense'])
      expect(result.fallback).toBeUndefined()
      expect(result.hits[0]!.title).toBe('Gustave Eiffel')
      for (const h of result.hits) {
        const expected = (h.bm25Rank ? 1 / (rrfK + h.bm25Rank) : 0) + (h.denseRank ? 1 / (rrfK + h.denseRank) : 0)
        expect(h.rrf).toBeCloseTo(expected, 12)
        expect(h.score).toBe(h.rrf)
        expect(h.bm25 === undefined).toBe(h.bm25Rank === undefined)
        expect(h.dense === undefined).toBe(h.denseRank === undefined)
      }
      // Ranks refer to the candidate lists: check them against the single-mode searches.
      const bm25 = r.searchBm25('Gustave Eiffel engineer Statue of Liberty', 12).hits.map((h) => h.chunkId)
      const dense = (await r.search('Gustave Eiffel engineer Statue of Liberty', 12, 'dense')).hits.map((h) => h.chunkId)
      for (const h of result.hits) {
        if (h.bm25Rank) expect(bm25[h.bm25Rank - 1]).toBe(h.chunkId)
        if (h.denseRank) expect(dense[h.denseRank - 1]).toBe(h.chunkId)
      }
    })

    it('notices new vectors and deletions through its cache', async () => {
      const added = insertDocument(raw, 'Mont Blanc', [['Mont Blanc is the highest mountain in the Alps.']])
      await embedMissingChunks(raw, embedder)
      expect((await retriever.search('highest mountain alps', 1, 'dense')).hits[0]!.chunkId).toBe(added.chunkIds[0])
      raw.prepare('delete from chunks_fts where rowid = ?').run(added.chunkIds[0])
      raw.prepare('delete from documents where id = ?').run(added.documentId)
      expect(raw.prepare('select count(*) from chunk_vectors where chunk_id = ?').pluck().get(added.chunkIds[0])).toBe(0)
      expect((await retriever.search('highest mountain alps', 1, 'dense')).hits[0]!.chunkId).not.toBe(added.chunkIds[0])
    })

    it('keeps vectors per model and rejects malformed rows', async () => {
      const other = createHashedEmbedder(64, 'other-model')
      await expect(createRetriever(raw, { embedder: other }).search('tower', 1, 'dense')).rejects.toThrow(/vectors exist for: hashed-bow-512/)
      expect(() => raw.prepare("insert into chunk_vectors (chunk_id, model, dim, vector) values (?, 'm', 3, x'00')").run(docs.get('Paris')!.chunkIds[0])).toThrow(/CHECK/)
      expect(() => storeChunkVectors(raw, 'm', [{ chunkId: 1, vector: new Float32Array(0) }])).toThrow(/Empty vector/)
    })

    it('rejects a query embedding of the wrong dimension', async () => {
      const wrong = { model: embedder.model, embed: async (t: string[]) => t.map(() => new Float32Array(8)) }
      await expect(createRetriever(raw, { embedder: wrong }).search('tower', 1, 'dense')).rejects.toThrow(/8 dimensions.*512/)
      const failing = { model: embedder.model, embed: async () => Promise.reject(new Error('model crashed')) }
      await expect(createRetriever(raw, { embedder: failing }).search('tower', 1, 'hybrid')).rejects.toMatchObject({ code: 'embed-failed' })
    })
  })

  describe('grep', () => {
    it('reports chunk, line, offsets and context of each match', () => {
      const { hits, truncated, timedOut } = retriever.grep('Gustave\\s+\\w+', { maxResults: 10, timeBudgetMs: 1000, contextChars: 10 })
      expect(truncated).toBe(false)
      expect(timedOut).toBe(false)
      expect(hits.map((h) => h.title)).toEqual(['Eiffel Tower', 'Gustave Eiffel'])
      const hit = hits[0]!
      const chunk = retriever.readChunk(hit.chunkId)
      expect(chunk.text.slice(hit.offset, hit.offset + hit.match.length)).toBe('Gustave Eiffel')
      expect(retriever.readDocument(hit.documentId).text.slice(hit.documentOffset, hit.documentOffset + hit.match.length)).toBe('Gustave Eiffel')
      expect(hit.line).toBe(1)
      expect(hit.context).toBe('… engineer Gustave Eiffel, whose co…')
    })

    it('honours flags, documentIds and exclusions, and skips empty matches', () => {
      expect(retriever.grep('gustave', { maxResults: 10, timeBudgetMs: 1000 }).hits).toEqual([])
      expect(retriever.grep('gustave', { flags: 'i', maxResults: 10, timeBudgetMs: 1000 }).hits).toHaveLength(2)
      expect(retriever.grep('Eiffel', { maxResults: 10, timeBudgetMs: 1000, documentIds: [id('Gustave Eiffel')] }).hits.every((h) => h.documentId === id('Gustave Eiffel'))).toBe(true)
      expect(retriever.grep('Eiffel', { maxResults: 10, timeBudgetMs: 1000, excludeChunkIds: docs.get('Eiffel Tower')!.chunkIds }).hits.some((h) => h.title === 'Eiffel Tower')).toBe(false)
      const zero = retriever.grep('y*', { maxResults: 50, timeBudgetMs: 1000 })
      expect(zero.hits.length).toBeGreaterThan(0)
      expect(zero.hits.every((h) => h.match.length > 0)).toBe(true)
    })

    it('counts lines inside multi-line chunks', () => {
      const doc = insertDocument(raw, 'Poem', [['first line\nsecond line\nthird rhyme']])
      const [hit] = retriever.grep('rhyme', { maxResults: 5, timeBudgetMs: 1000, documentIds: [doc.documentId] }).hits
      expect(hit!.line).toBe(3)
      expect(hit!.context).toBe('third rhyme')
    })

    it('stops at the result cap and says whether more existed', () => {
      const capped = retriever.grep('iron', { flags: 'i', maxResults: 3, timeBudgetMs: 1000 })
      expect(capped.hits).toHaveLength(3)
      expect(capped.truncated).toBe(true)
      const total = retriever.grep('iron', { flags: 'i', maxResults: 1000, timeBudgetMs: 1000 }).hits.length
      const exact = retriever.grep('iron', { flags: 'i', maxResults: total, timeBudgetMs: 1000 })
      expect(exact.hits).toHaveLength(total)
      expect(exact.truncated).toBe(false)
    })

    it('stops when the time budget is spent', () => {
      raw.transaction(() => {
        for (let i = 0; i < 3000; i++) insertDocument(raw, `Filler ${i}`, [[`Filler paragraph number ${i} about nothing in particular.`]])
      })()
      const chunks = raw.prepare('select count(*) from chunks').pluck().get() as number
      const result = retriever.grep('(a|b|c|d|e)+z', { maxResults: 10, timeBudgetMs: 0.01 })
      expect(result.timedOut).toBe(true)
      expect(result.scannedChunks).toBeLessThan(chunks)
      const full = retriever.grep('Filler paragraph number 2999 ', { maxResults: 10, timeBudgetMs: 10_000 })
      expect(full.timedOut).toBe(false)
      expect(full.scannedChunks).toBe(chunks)
      expect(full.hits).toHaveLength(1)
    })

    it('stops on its work budget at the same chunk every time, whatever the clock says', () => {
      const all = retriever.grep('zzz-no-such-text', { maxResults: 10, timeBudgetMs: 60_000 })
      expect(all.scanBudgetSpent).toBe(false)
      const budget = Math.floor(all.scannedChars / 3)
      const runs = [0, 1, 2].map(() => retriever.grep('filler', { flags: 'i', maxResults: 10_000, maxScanChars: budget, timeBudgetMs: 60_000 }))
      for (const r of runs) {
        expect(r.scanBudgetSpent).toBe(true)
        expect(r.timedOut).toBe(false)
        // It stops at the first chunk that starts past the budget: at least `budget` read, less than all.
        expect(r.scannedChars).toBeGreaterThanOrEqual(budget)
        expect(r.scannedChunks).toBeLessThan(all.scannedChunks)
      }
      expect(runs[1]).toEqual(runs[0])
      expect(runs[2]).toEqual(runs[0])
      expect(() => retriever.grep('a', { maxResults: 5, timeBudgetMs: 100, maxScanChars: 0 })).toThrow(/maxScanChars/)
    })

    it('rejects invalid patterns, flags and limits clearly', () => {
      expect(() => retriever.grep('(unclosed', { maxResults: 5, timeBudgetMs: 100 })).toThrow(/Invalid regular expression/)
      expect(() => retriever.grep('[z-a]', { maxResults: 5, timeBudgetMs: 100 })).toThrow(expect.objectContaining({ code: 'invalid-regex' }))
      expect(() => retriever.grep('a', { flags: 'x', maxResults: 5, timeBudgetMs: 100 })).toThrow(/Unsupported regex flag "x"/)
      expect(() => retriever.grep('', { maxResults: 5, timeBudgetMs: 100 })).toThrow(/Empty grep pattern/)
      expect(() => retriever.grep('a', { maxResults: 0, timeBudgetMs: 100 })).toThrow(/maxResults/)
      expect(() => retriever.grep('a', { maxResults: 5, timeBudgetMs: 0 })).toThrow(/timeBudgetMs/)
    })
  })

  describe('readers', () => {
    it('reads a whole document with its chunk spans', () => {
      const doc = retriever.readDocument(id('Iron bridges'))
      expect(doc.title).toBe('Iron bridges')
      expect(doc.chunks.map((c) => c.ord)).toEqual([0, 1, 2])
      expect(doc.chunks.map((c) => c.chunkId)).toEqual(docs.get('Iron bridges')!.chunkIds)
      for (const c of doc.chunks) expect(doc.text.slice(c.startChar, c.endChar)).toBe(retriever.readChunk(c.chunkId).text)
    })

    it('reads a chunk with its sentences, shared ones marked as owned elsewhere', () => {
      const [, second] = docs.get('Iron bridges')!.chunkIds
      const chunk = retriever.readChunk(second!)
      expect(chunk.title).toBe('Iron bridges')
      expect(chunk.documentId).toBe(id('Iron bridges'))
      expect(chunk.sentences.map((s) => s.ord)).toEqual([2, 3, 4])
      expect(chunk.sentences.map((s) => s.owned)).toEqual([false, true, true])
      expect(chunk.sentences[0]!.text).toBe('Iron bridge section 2 spans the river with a lattice of iron girders.')
      expect(chunk.text).toBe(chunk.sentences.map((s) => s.text).join(' '))
    })

    it('fails clearly on unknown ids', () => {
      expect(() => retriever.readDocument(999_999)).toThrow(/No document with id 999999/)
      expect(() => retriever.readChunk(999_999)).toThrow(expect.objectContaining({ code: 'not-found' }))
    })
  })
})
