import { appendFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type SQLite from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { workspaceMigrations } from '../../main/db/migrations'
import { openDatabase, type OpenedDatabase } from '../../main/db/open'
import { runIngest, defaultIngestOptions, type IngestReporter } from '../../main/ingest/run'
import { tempDir } from '../helpers/services'
import { sharedPath } from '../helpers/shared-data'

const quiet: IngestReporter = { progress: () => undefined, throwIfCancelled: () => undefined }
const count = (raw: SQLite.Database, sql: string): number => Number(raw.prepare(sql).pluck().get())

/** Invariants every ingest must leave behind, whatever happened to individual files. */
function expectConsistent(raw: SQLite.Database): void {
  expect(count(raw, 'select count(*) from chunks')).toBe(count(raw, 'select count(*) from chunks_fts'))
  expect(count(raw, 'select count(*) from chunks_fts where rowid not in (select id from chunks)')).toBe(0)
  expect(count(raw, 'select count(*) from mentions where sentence_id not in (select id from sentences)')).toBe(0)
  expect(count(raw, 'select count(*) from mentions where entity_id not in (select id from entities)')).toBe(0)
  expect(count(raw, 'select count(*) from sentences s where not exists (select 1 from chunks c where c.id = s.chunk_id and c.document_id = s.document_id)')).toBe(0)
  expect(count(raw, "select count(*) from entities where lookup_ok = 1 and type in ('DATE','TIME','CARDINAL','ORDINAL','QUANTITY','PERCENT','MONEY','NORP')")).toBe(0)
  expect(raw.pragma('foreign_key_check')).toEqual([])
}

describe('ingest', () => {
  const tmp = tempDir()
  const docs = join(tmp.dir, 'docs')
  let db: OpenedDatabase<unknown>

  beforeAll(async () => {
    mkdirSync(docs)
    writeFileSync(join(docs, 'ada.md'), '# Ada Lovelace\n\nAda Lovelace was born in London in 1815. She worked with Charles Babbage on the Analytical Engine.\n')
    writeFileSync(join(docs, 'notes.txt'), 'Grace Hopper joined the Harvard Computation Lab in 1944. Hopper later led the COBOL work at Remington Rand.')
    writeFileSync(join(docs, 'records.jsonl'), '{"id":"r1","title":"Turing","text":"Alan Turing studied at Cambridge."}\n{"id":"r2","text":\n')
    writeFileSync(join(docs, 'empty.txt'), '')
    writeFileSync(join(docs, 'blob.txt'), Buffer.from([0, 1, 2, 3, 0, 0, 255, 254, 0, 7]))
    writeFileSync(join(docs, 'broken.pdf'), '%PDF-1.7 this is not really a pdf')
    db = await openDatabase(join(tmp.dir, 'workspace.db'), workspaceMigrations)
  })
  afterAll(async () => {
    await db.close()
    tmp.cleanup()
  })

  it('ingests a folder file by file: good files land, bad ones fail with their reason, the rest continue', async () => {
    const summary = await runIngest(db.raw, { kind: 'folder', path: docs }, defaultIngestOptions(), quiet)
    expect(summary.files).toBe(6)
    expect(summary.ingested).toBe(3)
    expect(summary.failed).toBe(3)
    const rows = db.raw.prepare('select path, status, error_reason, error from source_files order by path').all() as { path: string; status: string; error_reason: string; error: string }[]
    const byName = Object.fromEntries(rows.map((f) => [f.path.split('/').pop(), f]))
    // The malformed JSONL line is skipped and reported with its number; the good record lands.
    expect(byName['records.jsonl']).toMatchObject({ status: 'ok', error_reason: 'notes' })
    expect(byName['records.jsonl']?.error).toMatch(/1 bad line skipped, 1 record kept: line 2/)
    expect(summary.outcomes.find((o) => o.label === 'records.jsonl')?.notes?.[0]).toMatch(/line 2/)
    expect(byName['empty.txt']?.error_reason).toBe('empty')
    expect(byName['blob.txt']?.error_reason).toBe('binary')
    expect(byName['broken.pdf']?.error_reason).toBe('corrupt')
    expect(count(db.raw, 'select count(*) from documents')).toBe(3)
    expect(count(db.raw, "select count(*) from entities where name like '%Lovelace%'")).toBeGreaterThan(0)
    expectConsistent(db.raw)
  })

  it('is a no-op for unchanged files and replaces the chunks of a changed one', async () => {
    const before = db.raw.prepare('select id, text from chunks order by id').all()
    const again = await runIngest(db.raw, { kind: 'folder', path: docs }, defaultIngestOptions(), quiet)
    expect(again.unchanged).toBe(3)
    expect(again.ingested).toBe(0)
    // Failed files are not parsed again until their content changes.
    expect(again.failed).toBe(0)
    expect(again.skipped).toBe(3)
    expect(again.outcomes.filter((o) => o.status === 'skipped').map((o) => o.error)).toEqual(Array(3).fill(expect.stringMatching(/^skipped: failed before with the same content/)))
    expect(db.raw.prepare('select id, text from chunks order by id').all()).toEqual(before)

    appendFileSync(join(docs, 'notes.txt'), ' Hopper received the National Medal of Technology in 1991.')
    const changed = await runIngest(db.raw, { kind: 'folder', path: docs }, defaultIngestOptions(), quiet)
    expect(changed.ingested).toBe(1)
    expect(changed.unchanged).toBe(2)
    expect(count(db.raw, 'select count(*) from documents')).toBe(3)
    expect(count(db.raw, "select count(*) from chunks where text like '%National Medal%'")).toBe(1)
    expect(count(db.raw, "select count(*) from chunks_fts where chunks_fts match 'medal'")).toBe(1)
    expectConsistent(db.raw)
  })

  it('re-chunks when the chunk settings change', async () => {
    const summary = await runIngest(db.raw, { kind: 'folder', path: docs }, { ...defaultIngestOptions(), chunking: { chunkTokens: 40, overlapTokens: 0 } }, quiet)
    expect(summary.ingested).toBe(3)
    expectConsistent(db.raw)
  })

  it('stops between files when cancelled, and a second run resumes where it stopped', async () => {
    const other = await openDatabase(join(tmp.dir, 'cancel.db'), workspaceMigrations)
    let units = 0
    const cancelAfterOne: IngestReporter = {
      progress: (_p, stage) => {
        if (stage === 'hash') units++
      },
      throwIfCancelled: () => {
        if (units > 1) throw Object.assign(new Error('cancelled'), { name: 'JobCancelledError' })
      },
    }
    await expect(runIngest(other.raw, { kind: 'folder', path: docs }, defaultIngestOptions(), cancelAfterOne)).rejects.toThrow('cancelled')
    expectConsistent(other.raw)
    const firstPass = count(other.raw, 'select count(*) from source_files')
    expect(firstPass).toBeGreaterThan(0)
    expect(firstPass).toBeLessThan(6)
    const okFirst = count(other.raw, "select count(*) from source_files where status = 'ok'")
    const resumed = await runIngest(other.raw, { kind: 'folder', path: docs }, defaultIngestOptions(), quiet)
    expect(resumed.unchanged).toBe(okFirst)
    expect(count(other.raw, 'select count(*) from source_files')).toBe(6)
    expectConsistent(other.raw)
    await other.close()
  })

  it('keeps the previous version of a file that turns bad', async () => {
    writeFileSync(join(docs, 'ada.md'), Buffer.from([0xff, 0xfe, 0xfd, 0x41, 0x42]))
    const summary = await runIngest(db.raw, { kind: 'folder', path: docs }, defaultIngestOptions(), quiet)
    expect(summary.failed).toBeGreaterThan(0)
    const row = db.raw.prepare("select status, error from source_files where path like '%ada.md'").get() as { status: string; error: string }
    expect(row.status).toBe('failed')
    expect(row.error).toMatch(/previously ingested version is kept/)
    expect(count(db.raw, "select count(*) from documents where text like '%Lovelace%'")).toBe(1)
    expectConsistent(db.raw)
  })
})

describe('ingest of the demo world', () => {
  it('stores gold supporting facts that resolve to stored sentences', async () => {
    const tmp = tempDir()
    const db = await openDatabase(join(tmp.dir, 'w.db'), workspaceMigrations)
    const summary = await runIngest(db.raw, { kind: 'demo', seed: 3, size: 1 }, defaultIngestOptions(), quiet)
    expect(summary.questions).toBeGreaterThan(20)
    const questions = db.raw.prepare('select supporting_facts_json from questions').pluck().all() as string[]
    const sentence = db.raw.prepare('select s.text from sentences s join documents d on d.id = s.document_id where d.title = ? and s.ord = ?').pluck()
    let facts = 0
    for (const q of questions) {
      for (const f of JSON.parse(q) as { title: string; sentence: number }[]) {
        expect(sentence.get(f.title, f.sentence), `${f.title}#${f.sentence}`).toBeTypeOf('string')
        facts++
      }
    }
    expect(facts).toBeGreaterThan(questions.length)
    expectConsistent(db.raw)
    await db.close()
    tmp.cleanup()
  })
})

const HOTPOT = sharedPath('data/hotpotqa-train100')
describe.skipIf(!existsSync(HOTPOT))('ingest of HotpotQA (../shared/data/hotpotqa-train100)', () => {
  it('imports 100 questions whose 229 supporting facts all resolve to stored sentences', async () => {
    const tmp = tempDir()
    const db = await openDatabase(join(tmp.dir, 'w.db'), workspaceMigrations)
    const summary = await runIngest(
      db.raw,
      { kind: 'benchmark', benchmark: 'hotpotqa', questionsFile: join(HOTPOT, 'hotpotqa_train.json'), corpusFile: join(HOTPOT, 'hotpotqa_train_corpus.json') },
      defaultIngestOptions(),
      quiet,
    )
    expect(summary.questions).toBe(100)
    expect(summary.documents).toBe(994)
    const sentence = db.raw.prepare('select count(*) from sentences s join documents d on d.id = s.document_id where d.title = ? and s.ord = ?').pluck()
    let facts = 0
    for (const q of db.raw.prepare('select supporting_facts_json from questions').pluck().all() as string[]) {
      for (const f of JSON.parse(q) as { title: string; sentence: number }[]) {
        expect(sentence.get(f.title, f.sentence), `${f.title}#${f.sentence}`).toBe(1)
        facts++
      }
    }
    expect(facts).toBe(229)
    expectConsistent(db.raw)
    await db.close()
    tmp.cleanup()
  })
})
if (!existsSync(HOTPOT)) console.warn(`Skipping HotpotQA ingest test: ${HOTPOT} is absent`)

describe('sentence numbering', () => {
  it('keeps source sentence ids when a source sentence is empty', async () => {
    const { prepareDocuments, preparedSentences } = await import('../../main/ingest/prepare')
    const [doc] = prepareDocuments(
      [{ externalId: 'd', title: 'D', text: 'Alpha one.  Gamma three.', sentences: ['Alpha one.', '', 'Gamma three.'], source: { path: 'x' } }],
      { chunkTokens: 1200, overlapTokens: 100 },
    )
    expect(preparedSentences(doc!).map((s) => [s.ord, s.text])).toEqual([
      [0, 'Alpha one.'],
      [2, 'Gamma three.'],
    ])
    expect(doc!.chunks).toHaveLength(1)
  })
})

describe('a file whose transaction fails', () => {
  it('leaves no trace, and later files never reuse the rolled-back entity ids', async () => {
    const tmp = tempDir()
    const dir = join(tmp.dir, 'docs')
    mkdirSync(dir)
    writeFileSync(join(dir, 'a-boom.txt'), 'Alice Smith founded the Harbour Guild in Lisbon.')
    writeFileSync(join(dir, 'b.txt'), 'Bob Jones lived in Porto for many years.')
    writeFileSync(join(dir, 'c.txt'), 'Alice Smith later moved to Madrid.')
    const db = await openDatabase(join(tmp.dir, 'w.db'), workspaceMigrations)
    // Fail the first file's transaction after its entities were inserted (a disk-full or constraint error in real life).
    db.raw.exec(`create temp trigger fail_boom before insert on mentions
      when (select d.title from sentences s join documents d on d.id = s.document_id where s.id = new.sentence_id) = 'a-boom'
      begin select raise(abort, 'simulated write failure'); end`)
    const summary = await runIngest(db.raw, { kind: 'folder', path: dir }, defaultIngestOptions(), { progress: () => undefined, throwIfCancelled: () => undefined })
    expect(summary.failed).toBe(1)
    expect(summary.ingested).toBe(2)
    expect(count(db.raw, "select count(*) from documents where title = 'a-boom'")).toBe(0)
    const names = db.raw
      .prepare("select e.name from mentions m join entities e on e.id = m.entity_id join sentences s on s.id = m.sentence_id join documents d on d.id = s.document_id where d.title = 'c' and m.surface like 'Alice%'")
      .pluck()
      .all()
    expect(names).toEqual(['Alice Smith'])
    expectConsistent(db.raw)
    await db.close()
    tmp.cleanup()
  })
})

describe('an ingest cancelled while linking entities', () => {
  it('links them on the next run even though every file is unchanged', async () => {
    const tmp = tempDir()
    const db = await openDatabase(join(tmp.dir, 'w.db'), workspaceMigrations)
    const cancelAtLinks: IngestReporter = {
      progress: () => undefined,
      throwIfCancelled: () => {
        if (count(db.raw, 'select count(*) from source_files') > 0) throw Object.assign(new Error('cancelled'), { name: 'JobCancelledError' })
      },
    }
    await expect(runIngest(db.raw, { kind: 'demo', seed: 6, size: 0.3 }, defaultIngestOptions(), cancelAtLinks)).rejects.toThrow('cancelled')
    expect(count(db.raw, 'select count(*) from entity_links')).toBe(0)
    const resumed = await runIngest(db.raw, { kind: 'demo', seed: 6, size: 0.3 }, defaultIngestOptions(), quiet)
    expect(resumed.unchanged).toBe(1)
    expect(resumed.links).not.toBeNull()
    expect(count(db.raw, 'select count(*) from entity_links')).toBeGreaterThan(0)
    const again = await runIngest(db.raw, { kind: 'demo', seed: 6, size: 0.3 }, defaultIngestOptions(), quiet)
    expect(again.links).toBeNull()
    await db.close()
    tmp.cleanup()
  })
})

describe('sentence adjacency across an empty source sentence', () => {
  it('links the sentences on either side of the gap', async () => {
    const { prepareDocuments } = await import('../../main/ingest/prepare')
    const { CorpusWriter } = await import('../../main/ingest/writer')
    const { graphStats, neighbourhood } = await import('../../main/graph/store')
    const tmp = tempDir()
    const db = await openDatabase(join(tmp.dir, 'w.db'), workspaceMigrations)
    const docs = prepareDocuments(
      [{ externalId: 'd', title: 'D', text: 'Alpha one.  Gamma three.', sentences: ['Alpha one.', '', 'Gamma three.'], source: { path: 'x' } }],
      { chunkTokens: 1200, overlapTokens: 100 },
    )
    new CorpusWriter(db.raw).writeFile({ path: 'x', format: 'test', sizeBytes: 1, signature: 's' }, docs, [])
    const [first, third] = db.raw.prepare('select id from sentences order by ord').pluck().all() as number[]
    expect(graphStats(db.raw).edges.next).toBe(1)
    const around = neighbourhood(db.raw, `s:${first}`, { limit: 10 })
    expect(around.edges).toContainEqual(expect.objectContaining({ source: `s:${first}`, target: `s:${third}`, kind: 'next' }))
    await db.close()
    tmp.cleanup()
  })
})
