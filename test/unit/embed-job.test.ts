import { join } from 'node:path'
import type BetterSqlite3 from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { workspaceMigrations } from '../../main/db/migrations'
import { openDatabase, type OpenedDatabase } from '../../main/db/open'
import { EmbedParams, runEmbedJob, type EmbedJobResult } from '../../main/job-kinds/embed'
import { readEmbeddingModel } from '../../main/models/embedding-model'
import { JobCancelledError, type JobContext } from '../../main/jobs/protocol'
import { createGgufEmbedder, type GgufEmbedder } from '../../main/llm/embedder'
import { ModelFileError } from '../../main/llm/errors'
import { LlamaRuntime } from '../../main/llm/llama-runtime'
import { createRetriever } from '../../main/retrieval'
import { writeTinyLlama } from '../helpers/gguf'
import { tempDir } from '../helpers/services'

const TOPICS = ['rivers', 'mountains', 'castles', 'comets', 'violins', 'glaciers', 'harbours', 'orchards', 'deserts', 'lighthouses', 'bridges']
const tmp = tempDir('harness-lab-embed-job-')
const modelPath = join(tmp.dir, 'tiny.gguf')
let runtime: LlamaRuntime
let ws: OpenedDatabase<unknown>
let chunkCount = 0

/** Documents, chunks and FTS rows in the ingest writer's shape (sentences are not needed here). */
function seedCorpus(raw: BetterSqlite3.Database): number {
  const fileId = Number(raw.prepare("insert into source_files (path, format, size_bytes, sha256, status, ingested_at) values ('fixture.json', 'json', 0, '', 'ok', '')").run().lastInsertRowid)
  const addDoc = raw.prepare('insert into documents (file_id, external_id, title, text, token_count) values (?, ?, ?, ?, ?)')
  const addChunk = raw.prepare('insert into chunks (document_id, ord, text, start_char, end_char, token_count, first_sentence, last_sentence) values (?, ?, ?, ?, ?, ?, ?, ?)')
  const addFts = raw.prepare('insert into chunks_fts (rowid, title, text) values (?, ?, ?)')
  let n = 0
  raw.transaction(() => {
    for (const [d, topic] of TOPICS.entries()) {
      const title = `On ${topic}`
      const parts = [0, 1, 2].map((p) => `Part ${p} about ${topic}: the ${topic} of region ${d} are described in note ${d * 3 + p}.`)
      const text = parts.join(' ')
      const docId = Number(addDoc.run(fileId, `doc-${d}`, title, text, text.split(' ').length).lastInsertRowid)
      let start = 0
      for (const [ord, part] of parts.entries()) {
        const chunkId = Number(addChunk.run(docId, ord, part, start, start + part.length, part.split(' ').length, ord, ord).lastInsertRowid)
        addFts.run(chunkId, title, part)
        start += part.length + 1
        n++
      }
    }
  })()
  return n
}

type TestContext = JobContext<unknown> & { reports: Array<{ progress: number; stage: string }>; holds: string[] }

function jobContext(params: unknown, options: { cancelAfterProgress?: number } = {}): TestContext {
  let cancelled = false
  let embedReports = 0
  const reports: Array<{ progress: number; stage: string }> = []
  const holds: string[] = []
  return {
    jobId: 'test',
    params,
    dataDir: tmp.dir,
    workspaceDbFile: ws.file,
    reports,
    holds,
    reportModelHold(path) {
      holds.push(`hold ${path}`)
      return () => holds.push(`release ${path}`)
    },
    progress(progress, stage) {
      reports.push({ progress, stage })
      if (stage === 'embed' && progress > 0 && ++embedReports === options.cancelAfterProgress) cancelled = true
    },
    throwIfCancelled() {
      if (cancelled) throw new JobCancelledError()
    },
    get cancelled() {
      return cancelled
    },
  }
}

const vectorCount = (): number => ws.raw.prepare('select count(*) from chunk_vectors').pluck().get() as number

beforeAll(async () => {
  writeTinyLlama(modelPath, { seed: 5 })
  runtime = await LlamaRuntime.create({ gpu: 'cpu', threads: 1 })
  ws = await openDatabase(join(tmp.dir, 'workspace.sqlite'), workspaceMigrations)
  chunkCount = seedCorpus(ws.raw)
}, 600_000)
afterAll(async () => {
  await ws?.close()
  await runtime?.dispose()
  tmp.cleanup()
})

describe('runEmbedJob', () => {
  it('validates its parameters', () => {
    expect(EmbedParams.parse({ modelPath: '/m.gguf' })).toEqual({ modelPath: '/m.gguf', batchSize: 32 })
    expect(() => EmbedParams.parse({ modelPath: '  ' })).toThrow()
    expect(() => EmbedParams.parse({ modelPath: '/m.gguf', batchSize: 0 })).toThrow()
    expect(() => EmbedParams.parse({ modelPath: '/m.gguf', extra: 1 })).toThrow()
  })

  it('fails on a bad model file before writing anything', async () => {
    const error = await runEmbedJob(jobContext({ modelPath: join(tmp.dir, 'missing.gguf') }), { runtime }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ModelFileError)
    expect(vectorCount()).toBe(0)
    expect(readEmbeddingModel(ws.raw)).toBeNull()
  })

  it('cancelled mid-way keeps whole batches, and a rerun embeds only what is missing', async () => {
    const batchSize = 4
    const ctx = jobContext({ modelPath, batchSize }, { cancelAfterProgress: 2 })
    await expect(runEmbedJob(ctx, { runtime })).rejects.toBeInstanceOf(JobCancelledError)
    expect(vectorCount()).toBe(2 * batchSize)
    // The stored rows are the lowest chunk ids: whole batches in embedding order.
    const ids = ws.raw.prepare('select chunk_id from chunk_vectors order by chunk_id').pluck().all() as number[]
    const firstIds = ws.raw.prepare('select id from chunks order by id limit ?').pluck().all(2 * batchSize) as number[]
    expect(ids).toEqual(firstIds)

    const rerun = jobContext({ modelPath, batchSize })
    const outcome = await runEmbedJob(rerun, { runtime })
    const result = outcome.result as EmbedJobResult
    expect(result.embedded).toBe(chunkCount - 2 * batchSize)
    expect(result.skipped).toBe(2 * batchSize)
    expect(vectorCount()).toBe(chunkCount)
    const progress = rerun.reports.map((r) => r.progress)
    expect(progress).toEqual([...progress].sort((a, b) => a - b))
    expect(progress.at(-1)).toBe(1)
  })

  it('embeds every chunk once, records the model, and a second run embeds nothing', async () => {
    ws.raw.exec('delete from chunk_vectors')
    const first = await runEmbedJob(jobContext({ modelPath }), { runtime })
    const result = first.result as EmbedJobResult
    expect(result).toMatchObject({ dimension: 64, embedded: chunkCount, skipped: 0, truncated: 0 })
    expect(result.model).toMatch(/^tiny\.gguf@[0-9a-f]{12}$/)
    expect(result.chunksPerSecond).toBeGreaterThan(0)
    expect(result.entityLinks.method).toBe(`name-embedding:${result.model}`)
    expect(first.message).toContain(`${chunkCount} chunks embedded`)
    expect(readEmbeddingModel(ws.raw)).toEqual({ path: modelPath, model: result.model, dimension: 64 })
    const rows = ws.raw.prepare('select count(*) as n, min(dim) as lo, max(dim) as hi, count(distinct model) as models from chunk_vectors').get()
    expect(rows).toEqual({ n: chunkCount, lo: 64, hi: 64, models: 1 })

    const second = (await runEmbedJob(jobContext({ modelPath }), { runtime })).result as EmbedJobResult
    expect(second).toMatchObject({ model: result.model, embedded: 0, skipped: chunkCount })
  })

  it('reports holding its model while it runs, and lets go when it ends', async () => {
    const ctx = jobContext({ modelPath })
    await runEmbedJob(ctx, { runtime })
    expect(ctx.holds).toEqual([`hold ${modelPath}`, `release ${modelPath}`])
    const failing = jobContext({ modelPath, batchSize: 1 }, { cancelAfterProgress: 1 })
    ws.raw.exec('delete from chunk_vectors')
    await expect(runEmbedJob(failing, { runtime })).rejects.toBeInstanceOf(JobCancelledError)
    expect(failing.holds).toEqual([`hold ${modelPath}`, `release ${modelPath}`])
    await runEmbedJob(jobContext({ modelPath }), { runtime }) // whole again, for the retriever below
    expect(vectorCount()).toBe(chunkCount)
  })

  describe('then the retriever searches the vectors', () => {
    let embedder: GgufEmbedder
    beforeAll(async () => {
      embedder = await createGgufEmbedder(modelPath, { runtime })
    })
    afterAll(async () => embedder?.dispose())

    it('dense and hybrid modes use the stored vectors', async () => {
      expect(embedder.model).toBe(readEmbeddingModel(ws.raw)!.model)
      const retriever = createRetriever(ws.raw, { embedder })
      // Random weights carry no meaning, but a query identical to a chunk's embedded input ("title\n\ntext") is its own nearest neighbour.
      const target = ws.raw.prepare("select c.id as id, d.title as title, c.text as text from chunks c join documents d on d.id = c.document_id where c.text like '%castles%' order by c.id limit 1").get() as { id: number; title: string; text: string }
      const dense = await retriever.search(`${target.title}\n\n${target.text}`, 5, 'dense')
      expect(dense.fusedFrom).toEqual(['dense'])
      expect(dense.hits).toHaveLength(5)
      expect(dense.hits[0]!.chunkId).toBe(target.id)
      expect(dense.hits[0]!.dense).toBeCloseTo(1, 4)

      const hybrid = await retriever.search('castles', 5, 'hybrid')
      expect(hybrid.fallback).toBeUndefined()
      expect(hybrid.fusedFrom).toContain('dense')
      expect(hybrid.fusedFrom).toContain('bm25')
      expect(hybrid.hits.length).toBe(5)
      expect(hybrid.hits.some((h) => h.denseRank !== undefined)).toBe(true)
      expect(hybrid.hits[0]!.title).toBe('On castles')
    })
  })
})
