import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { workspaceMigrations } from '../../main/db/migrations'
import { openDatabase } from '../../main/db/open'
import { workspaceCorpus, type CorpusReader } from '../../main/corpus/repository'
import { createEnvironment, environmentContext, runEpisode, type EnvContext, type EnvQuestion } from '../../main/harness'
import { replaceEntityLinks } from '../../main/graph/store/links'
import { defaultIngestOptions, runIngest } from '../../main/ingest/run'
import { createScriptedPolicy } from '../../main/policy/scripted'
import { quiet, useDemoWorkspace } from '../helpers/corpus'
import { tempDir } from '../helpers/services'
import { snapshotsOf } from '../helpers/episodes'

/** A context whose corpus reader counts its reads and whose retriever counts its searches (one cache: the counting reader's). */
function counted(ctx: EnvContext) {
  const counts = { reads: 0, searches: 0 }
  const corpus = new Proxy(ctx.corpus, {
    get(target, key: keyof CorpusReader) {
      const value = target[key]
      if (typeof value !== 'function' || key === 'corpusRevision') return value
      return (...args: unknown[]) => {
        counts.reads++
        return (value as (...a: unknown[]) => unknown).apply(target, args)
      }
    },
  })
  const search = ctx.retriever.search.bind(ctx.retriever)
  const retriever = Object.assign(Object.create(ctx.retriever), {
    search: (...args: Parameters<typeof search>) => {
      counts.searches++
      return search(...args)
    },
  })
  return { ctx: { corpus, retriever } as EnvContext, counts }
}

describe('the corpus cache shared across episodes', () => {
  const demo = useDemoWorkspace(3, 0.4)

  it('plays the same episodes as environments that share nothing, and reads the corpus once for a repeated question', async () => {
    const { db, questions } = demo.workspace
    const { ctx, counts } = counted(environmentContext(db.raw))
    const shared = createEnvironment('graph-menu', ctx, {})
    const greedy = () => createScriptedPolicy('greedy', 'sentence-menu')
    // A second connection to the same file: its reader, so its cache, is its own.
    const other = await openDatabase(db.raw.name, workspaceMigrations)
    try {
      for (const [i, q] of questions.slice(0, 8).entries()) {
        const alone = await runEpisode(createEnvironment('graph-menu', environmentContext(other.raw), {}), greedy(), q, i)
        const first = await runEpisode(shared, greedy(), q, i)
        const before = { ...counts }
        // Another environment over the same connection: a group's next rollout of the question.
        const again = await runEpisode(createEnvironment('graph-menu', ctx, {}), greedy(), q, i)
        expect(snapshotsOf(first)).toEqual(snapshotsOf(alone))
        expect(snapshotsOf(again)).toEqual(snapshotsOf(alone))
        expect(counts).toEqual(before)
      }
      expect(counts.reads).toBeGreaterThan(0)
      expect(counts.searches).toBeGreaterThan(0)
    } finally {
      await other.close()
    }
  })

  it('moves the corpus revision with documents, entities, links and vectors, and with nothing else', async () => {
    const { db } = demo.workspace
    const revision = workspaceCorpus(db.raw).corpusRevision
    const at = revision()
    expect(at).toBeGreaterThan(0)
    db.raw.prepare("insert into question_sets (name, source, created_at) values ('revision probe', 'test', '2026-12-02')").run()
    expect(revision()).toBe(at)
    // The graph builder's writer, putting back the same links: the revision cannot tell, so it moves.
    const links = db.raw.prepare('select source_id as s, target_id as t, score, method from entity_links').all() as { s: number; t: number; score: number; method: string }[]
    replaceEntityLinks(db.raw, (add) => links.forEach((l) => add(l.s, l.t, l.score, l.method)))
    expect(revision()).toBeGreaterThan(at!)
    const afterLinks = revision()!
    const chunk = Number(db.raw.prepare('select min(id) from chunks').pluck().get())
    db.raw.prepare("insert into chunk_vectors (chunk_id, model, dim, vector) values (?, 'probe', 1, ?)").run(chunk, Buffer.alloc(4))
    expect(revision()).toBe(afterLinks + 1)
    db.raw.prepare("delete from chunk_vectors where model = 'probe'").run()
    expect(revision()).toBe(afterLinks + 2)
  })
})

describe('a corpus that changes between episodes', () => {
  it('is read again after an ingest by another connection: the next reset finds the new document', async () => {
    const tmp = tempDir('harness-lab-corpus-cache-')
    const docs = join(tmp.dir, 'docs')
    mkdirSync(docs)
    writeFileSync(join(docs, 'Harbour.md'), '# Harbour\n\nThe old harbour of Velmora served fishing boats for two centuries. Its pier was rebuilt after a storm.\n')
    writeFileSync(join(docs, 'Market.md'), '# Market\n\nThe Velmora market sells fish from the harbour every morning. Traders arrive before dawn.\n')
    const db = await openDatabase(join(tmp.dir, 'workspace.db'), workspaceMigrations)
    const writer = await openDatabase(join(tmp.dir, 'workspace.db'), workspaceMigrations)
    try {
      await runIngest(db.raw, { kind: 'folder', path: docs }, defaultIngestOptions(), quiet)
      const { ctx, counts } = counted(environmentContext(db.raw))
      const env = createEnvironment('graph-menu', ctx, { initialSentences: 8 })
      const question: EnvQuestion = { id: 'q', question: 'Who built the lighthouse of Velmora harbour?', answers: ['Orsolya Kend'], supportingFacts: [], supportingDocs: [] }
      const text = async () => (await env.reset(question, 1)).text
      expect(await text()).not.toContain('Orsolya Kend')
      const cached = { ...counts }
      expect(await text()).not.toContain('Orsolya Kend')
      expect(counts).toEqual(cached)

      // A job thread ingests on its own connection; this connection's caches must not hide the new document.
      writeFileSync(join(docs, 'Lighthouse.md'), '# Velmora lighthouse\n\nThe lighthouse of Velmora harbour was built by Orsolya Kend in 1821.\n')
      await runIngest(writer.raw, { kind: 'folder', path: docs }, defaultIngestOptions(), quiet)
      expect(await text()).toContain('Orsolya Kend')
      expect(counts.searches).toBeGreaterThan(cached.searches)
    } finally {
      await writer.close()
      await db.close()
      tmp.cleanup()
    }
  })
})
