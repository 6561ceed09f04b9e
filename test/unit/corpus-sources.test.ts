import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { corpusStats, sourceFiles } from '../../main/corpus/catalogue'
import { corpusSignature } from '../../main/experiments/questions'
import { openDemoWorkspace, type DemoWorkspace } from '../helpers/corpus'

let demo: DemoWorkspace
beforeAll(async () => {
  demo = await openDemoWorkspace(5, 0.6)
})
afterAll(async () => {
  await demo.close()
})

describe('the corpus sources repository', () => {
  it('counts what plain SQL counts, lists failed files first, and signs the corpus by its files', () => {
    const raw = demo.db.raw
    const count = (sql: string): number => Number(raw.prepare(sql).pluck().get())
    const stats = corpusStats(raw)
    expect(stats).toMatchObject({
      files: count('select count(*) from source_files'),
      documents: count('select count(*) from documents'),
      chunks: count('select count(*) from chunks'),
      sentences: count('select count(*) from sentences'),
      inEdges: count('select count(*) from sentences'),
      tokens: count('select coalesce(sum(token_count), 0) from documents'),
      lookupEntities: count('select count(*) from entities where lookup_ok = 1'),
      nextEdges: count('select coalesce(sum(n - 1), 0) from (select count(*) as n from sentences group by document_id)'),
      questions: count('select count(*) from questions'),
    })
    expect(stats.documents).toBeGreaterThan(0)
    raw.prepare("insert into source_files (path, format, size_bytes, sha256, status, error_reason, error, document_count, ingested_at) values ('zz-broken.txt', 'txt', 3, 'x', 'failed', 'parse', 'bad bytes', 0, 'now')").run()
    try {
      const files = sourceFiles(raw, { limit: 1000 })
      expect(files[0]).toEqual({ id: expect.any(Number), path: 'zz-broken.txt', format: 'txt', sizeBytes: 3, status: 'failed', errorReason: 'parse', error: 'bad bytes', documentCount: 0, ingestedAt: 'now' })
      expect(sourceFiles(raw, { status: 'failed', limit: 10 }).map((f) => f.path)).toEqual(['zz-broken.txt'])
      expect(sourceFiles(raw, { status: 'ok', limit: 1000 })).toHaveLength(stats.files)
      expect(corpusStats(raw).failedFiles).toBe(1)
      // A failed file is not part of the corpus a run is signed with.
      expect(corpusSignature(raw)).toMatch(new RegExp(`^${stats.files}files-sha256:[0-9a-f]{16}$`))
    } finally {
      raw.prepare("delete from source_files where path = 'zz-broken.txt'").run()
    }
  })
})
