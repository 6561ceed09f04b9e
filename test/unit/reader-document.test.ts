/**
 * The document reader over a real workspace (the demo world ingested in-process): documents.read
 * returns the document with the character spans of the sentence and chunk asked for, so the page can
 * highlight exactly them; documents.locate finds the documents of sentence and chunk ids.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { defaultIngestOptions, runIngest } from '../../main/ingest/run'
import { quiet } from '../helpers/corpus'
import { startBackend, type TestBackend } from '../helpers/services'

describe('document reader', () => {
  let backend: TestBackend
  let workspaceId: string

  beforeAll(async () => {
    backend = await startBackend()
    workspaceId = (await backend.call('workspace.create', { name: 'reader' })).id
    const { raw } = await backend.services.workspaces.handle(workspaceId)
    await runIngest(raw, { kind: 'demo', seed: 4, size: 0.5 }, defaultIngestOptions(), quiet)
  }, 600_000)
  afterAll(() => backend?.close())

  /** A document with at least two chunks' worth of sentences, found through search as a user would. */
  const someHit = async () => (await backend.call('corpus.search', { workspaceId, query: 'the', k: 20 })).hits[0]!

  it('returns the whole document with the highlighted sentence and chunk as spans of its text', async () => {
    const hit = await someHit()
    const chunk = await backend.call('corpus.chunk', { workspaceId, chunkId: hit.chunkId })
    const sentence = chunk.sentences[Math.min(1, chunk.sentences.length - 1)]!
    const doc = await backend.call('documents.read', { workspaceId, documentId: hit.documentId, sentence: sentence.ord, chunkId: hit.chunkId })
    expect(doc.title).toBe(hit.title)
    expect(doc.notFound).toEqual([])
    const s = doc.highlight.sentence!
    expect(s).toMatchObject({ sentenceId: sentence.sentenceId, ord: sentence.ord })
    expect(doc.text.slice(s.start, s.end)).toBe(sentence.text)
    const c = doc.highlight.chunk!
    expect(c.chunkId).toBe(hit.chunkId)
    expect(doc.text.slice(c.start, c.end)).toBe(chunk.text)
    // Every sentence's span is its text, in order; chunk spans cover the document.
    const { raw } = await backend.services.workspaces.handle(workspaceId)
    const texts = raw.prepare('select text from sentences where document_id = ? order by ord').pluck().all(hit.documentId) as string[]
    expect(doc.sentences.map((x) => doc.text.slice(x.start, x.end))).toEqual(texts)
    expect(doc.chunks.map((x) => x.chunkId)).toContain(hit.chunkId)
  })

  it('reads the document alone without a highlight, and says what it could not find', async () => {
    const hit = await someHit()
    const plain = await backend.call('documents.read', { workspaceId, documentId: hit.documentId })
    expect(plain.highlight).toEqual({ chunk: null, sentence: null })
    const otherChunk = (raw: { prepare(sql: string): { pluck(): { get(...a: unknown[]): unknown } } }) => raw.prepare('select id from chunks where document_id != ? limit 1').pluck().get(hit.documentId) as number
    const { raw } = await backend.services.workspaces.handle(workspaceId)
    const foreign = otherChunk(raw)
    const doc = await backend.call('documents.read', { workspaceId, documentId: hit.documentId, sentence: 9999, chunkId: foreign })
    expect(doc.highlight).toEqual({ chunk: null, sentence: null })
    expect(doc.notFound).toEqual([`Chunk ${foreign} is not a chunk of "${hit.title}"`, expect.stringMatching(new RegExp(`^"${hit.title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}" has no sentence 9999 \\(its sentences are numbered 0–\\d+\\)$`))])
    await expect(backend.call('documents.read', { workspaceId, documentId: 987_654 })).rejects.toMatchObject({ body: { code: 'NOT_FOUND', message: 'No document with id 987654 in this workspace' } })
    await expect(backend.call('documents.read', { workspaceId, documentId: 1, sentence: -1 } as never)).rejects.toMatchObject({ body: { code: 'VALIDATION' } })
  })

  it('locates the documents of sentence and chunk ids, leaving unknown ids out', async () => {
    const hit = await someHit()
    const chunk = await backend.call('corpus.chunk', { workspaceId, chunkId: hit.chunkId })
    const ids = chunk.sentences.map((s) => s.sentenceId)
    const out = await backend.call('documents.locate', { workspaceId, sentenceIds: [...ids, 99_999_999], chunkIds: [hit.chunkId, 99_999_999] })
    expect(out.sentences.map((s) => s.sentenceId).sort((a, b) => a - b)).toEqual([...ids].sort((a, b) => a - b))
    expect(out.sentences.every((s) => s.documentId === hit.documentId)).toBe(true)
    expect(out.sentences.map((s) => s.ord).sort((a, b) => a - b)).toEqual(chunk.sentences.map((s) => s.ord).sort((a, b) => a - b))
    expect(out.chunks).toEqual([{ chunkId: hit.chunkId, documentId: hit.documentId }])
  })
})
