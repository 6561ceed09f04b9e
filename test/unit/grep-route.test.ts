/** corpus.grep over a real workspace: capped by results, timed, every hit located in its document, bad patterns refused clearly. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { defaultIngestOptions, runIngest } from '../../main/ingest/run'
import { quiet } from '../helpers/corpus'
import { startBackend, type TestBackend } from '../helpers/services'

describe('corpus.grep', () => {
  let backend: TestBackend
  let workspaceId: string

  beforeAll(async () => {
    backend = await startBackend()
    workspaceId = (await backend.call('workspace.create', { name: 'grep' })).id
    const { raw } = await backend.services.workspaces.handle(workspaceId)
    await runIngest(raw, { kind: 'demo', seed: 6, size: 0.3 }, defaultIngestOptions(), quiet)
  }, 600_000)
  afterAll(() => backend?.close())

  it('stops at the result cap and says so, with the time it took and where each match lies in its document', async () => {
    const all = await backend.call('corpus.grep', { workspaceId, pattern: '\\bthe\\b', maxResults: 1000 })
    expect(all.hits.length).toBeGreaterThan(5)
    const capped = await backend.call('corpus.grep', { workspaceId, pattern: '\\bthe\\b', maxResults: 3 })
    expect(capped).toMatchObject({ truncated: true, timedOut: false, maxResults: 3 })
    expect(capped.hits).toEqual(all.hits.slice(0, 3))
    expect(capped.millis).toEqual(expect.any(Number))
    for (const h of capped.hits) {
      const doc = await backend.call('documents.read', { workspaceId, documentId: h.documentId, chunkId: h.chunkId })
      expect(doc.text.slice(h.documentOffset, h.documentOffset + h.match.length)).toBe(h.match)
      expect(h.documentOffset).toBeGreaterThanOrEqual(doc.highlight.chunk!.start)
    }
    // Case: the default flag i folds it; without it, THE matches only capitals.
    const upper = await backend.call('corpus.grep', { workspaceId, pattern: '\\bTHE\\b', flags: '', maxResults: 1000 })
    const folded = await backend.call('corpus.grep', { workspaceId, pattern: '\\bTHE\\b', maxResults: 1000 })
    expect(upper.hits.length).toBeLessThan(folded.hits.length)
  })

  it('refuses a bad regular expression or flag with a message that names it', async () => {
    await expect(backend.call('corpus.grep', { workspaceId, pattern: 'founded (in' })).rejects.toMatchObject({ body: { code: 'VALIDATION', message: expect.stringMatching(/^Invalid regular expression \/founded \(in\/: /) } })
    await expect(backend.call('corpus.grep', { workspaceId, pattern: 'a', flags: 'gx' })).rejects.toMatchObject({ body: { code: 'VALIDATION', issues: [expect.stringContaining('flags are among i, m, s, u, v')] } })
    await expect(backend.call('corpus.grep', { workspaceId, pattern: '' })).rejects.toMatchObject({ body: { code: 'VALIDATION' } })
    await expect(backend.call('corpus.grep', { workspaceId, pattern: 'a', maxResults: 5000 })).rejects.toMatchObject({ body: { code: 'VALIDATION' } })
  })
})
