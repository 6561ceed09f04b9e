/**
 * A resumed ingest equals an uninterrupted one: a document's sentences and mentions depend on that
 * document alone, and an entity's name and LOOKUP flag on the set of its mentions, so a folder ingested
 * whole, in two halves, after a crash (a child process SIGKILLed mid-ingest) and resumed, in reverse
 * order, in the ingest's own thread, or incrementally after some files changed, leaves identical
 * sentence, entity and mention digests.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { generateDemoWorld } from '../../main/corpus/demo-world'
import { workspaceMigrations } from '../../main/db/migrations'
import { openDatabase } from '../../main/db/open'
import { graphDigest, type GraphDigest } from '../../main/ingest/digest'
import { stopIdleFileWorkers } from '../../main/ingest/isolation'
import { defaultIngestOptions, runIngest, type IngestOptions, type IngestReporter } from '../../main/ingest/run'
import type { IngestSource } from '../../main/ingest/sources'
import { crashingIngest } from '../helpers/crashing-ingest'
import { tempDir } from '../helpers/services'

const quiet: IngestReporter = { progress: () => undefined, throwIfCancelled: () => undefined }
const LONG = 240_000

async function ingestInto(file: string, source: IngestSource, options: Partial<IngestOptions> = {}): Promise<void> {
  // Every ingest in a fresh worker process, as in separate runs of the app: a parked worker would carry over what it read.
  stopIdleFileWorkers()
  const db = await openDatabase(file, workspaceMigrations)
  try {
    await runIngest(db.raw, source, { ...defaultIngestOptions(), ...options }, quiet)
  } finally {
    await db.close()
  }
}

async function digestOf(file: string): Promise<GraphDigest> {
  const db = await openDatabase(file, workspaceMigrations)
  try {
    return graphDigest(db.raw)
  } finally {
    await db.close()
  }
}

describe('a resumed ingest equals an uninterrupted one', () => {
  const tmp = tempDir('harness-lab-determinism-')
  const folder = join(tmp.dir, 'corpus')
  const names: string[] = []
  let reference: GraphDigest

  const write = (name: string, text: string) => {
    writeFileSync(join(folder, name), text)
    if (!names.includes(name)) names.push(name)
  }

  beforeAll(async () => {
    mkdirSync(folder)
    // "God's," teaches wink the word "God's" (and "Smith's," "Smith's"): before every pass started from the
    // shipped lexicon, the probe's tokens and mentions depended on whether the same process read the primer first.
    write('a-primer.txt', "The psalm ends with the word God's, as the scribes wrote it. They quoted Smith's, then left.")
    write('m1.txt', 'Amara Okafor sailed from Reykjavik to Bergen in 1901. The Harbour Guild paid for the voyage.')
    write('m2.md', '# Amara Okafor\n\nAmara Okafor was born in Reykjavík in 1870. Okafor later wrote about the sea.\n')
    generateDemoWorld({ seed: 4, size: 0.3 }).documents.forEach((d, i) => write(`doc-${String(i).padStart(3, '0')}.${i % 3 === 0 ? 'md' : 'txt'}`, `# ${d.title}\n\n${d.text}\n`))
    // Read after the primer by the same process, this gave "God's Messiah" (PERSON) and "Smith's", not "God", "Messiah" and "Smith".
    write('z-probe.txt', "The kingdom of God's Messiah came to Jerusalem. Ada Lovelace read Smith's book.")
    names.sort()
    const whole = join(tmp.dir, 'whole.db')
    await ingestInto(whole, { kind: 'folder', path: folder })
    reference = await digestOf(whole)
    expect(reference.counts.sentences).toBeGreaterThan(200)
    expect(reference.counts.mentions).toBeGreaterThan(200)
  }, LONG)
  afterAll(() => tmp.cleanup())

  const expectSame = (digest: GraphDigest) => {
    expect(digest.counts).toEqual(reference.counts)
    expect({ sentences: digest.sentences, entities: digest.entities, mentions: digest.mentions }).toEqual({
      sentences: reference.sentences,
      entities: reference.entities,
      mentions: reference.mentions,
    })
  }

  it(
    'in two halves: the first half, then the rest added',
    async () => {
      const stash = join(tmp.dir, 'stash')
      mkdirSync(stash)
      const second = names.slice(Math.ceil(names.length / 2))
      for (const n of second) {
        writeFileSync(join(stash, n), readFileSync(join(folder, n)))
        rmSync(join(folder, n))
      }
      const file = join(tmp.dir, 'halves.db')
      try {
        await ingestInto(file, { kind: 'folder', path: folder })
      } finally {
        for (const n of second) writeFileSync(join(folder, n), readFileSync(join(stash, n)))
      }
      await ingestInto(file, { kind: 'folder', path: folder })
      expectSame(await digestOf(file))
    },
    LONG,
  )

  it(
    'after a crash (SIGKILL mid-ingest) and a resume',
    async () => {
      const file = join(tmp.dir, 'crash.db')
      const { writes, finished } = await crashingIngest(file, folder, Math.floor(names.length / 3))
      expect(finished).toBe(false)
      expect(writes).toBeGreaterThan(0)
      expect(writes).toBeLessThan(names.length)
      await ingestInto(file, { kind: 'folder', path: folder })
      expectSame(await digestOf(file))
    },
    LONG,
  )

  it(
    'in reverse order, and in the ingest’s own thread',
    async () => {
      const reverse = join(tmp.dir, 'reverse.db')
      await ingestInto(reverse, { kind: 'files', paths: [...names].reverse().map((n) => join(folder, n)) })
      expectSame(await digestOf(reverse))
      const inline = join(tmp.dir, 'inline.db')
      await ingestInto(inline, { kind: 'folder', path: folder }, { isolation: 'inline' })
      expectSame(await digestOf(inline))
    },
    LONG,
  )

  it(
    'incrementally: files changed after an ingest end where a fresh ingest of the new content does',
    async () => {
      const file = join(tmp.dir, 'incremental.db')
      await ingestInto(file, { kind: 'folder', path: folder })
      // m1 held the best name of Reykjavík ("Reykjavik" sorts first) and the only Harbour Guild; now it has neither.
      write('m1.txt', 'Amara Okafor sailed to Bergen in 1901, paid by her own savings.')
      write('doc-001.txt', readFileSync(join(folder, 'doc-002.txt'), 'utf8'))
      await ingestInto(file, { kind: 'folder', path: folder })
      const fresh = join(tmp.dir, 'fresh.db')
      await ingestInto(fresh, { kind: 'folder', path: folder })
      const [changed, expected] = [await digestOf(file), await digestOf(fresh)]
      expect(changed).toEqual(expected)
      expect(changed.entities).not.toBe(reference.entities)
      const db = await openDatabase(file, workspaceMigrations)
      try {
        expect(db.raw.prepare("select name from entities where canonical = 'reykjavik'").pluck().get()).toBe('Reykjavík')
        expect(db.raw.prepare("select count(*) from entities where canonical = 'harbour guild'").pluck().get()).toBe(0)
      } finally {
        await db.close()
      }
    },
    LONG,
  )
})
