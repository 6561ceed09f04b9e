/**
 * npm run bench:ingest — graph construction cost and scaling.
 *
 * 1. Construction cost in seconds per 1K corpus tokens (cl100k) on HotpotQA-train100 (if ../shared is present)
 *    and the demo world: sentences, entities, mentions, implicit edges and the FTS5 index, all included.
 *    Peer: the paper's 0.116 s per 1K tokens (spaCy + bge-large on one A100); target at least 5x faster here.
 * 2. Scaling: ingest time, database size and BM25 query latency p50/p95 for demo worlds of size 1x, 10x, 100x.
 * Medians over repeats; the machine is shared, so read ratios rather than absolute times.
 */
import { existsSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { workspaceMigrations } from '../main/db/migrations'
import { openDatabase } from '../main/db/open'
import { defaultIngestOptions, runIngest, type IngestReporter } from '../main/ingest/run'
import type { IngestSource } from '../main/ingest/sources'
import { createRetriever } from '../main/retrieval'
import { tempDir } from './support/services'
import { sharedPath } from './support/shared-data'

const PAPER_S_PER_1K = 0.116
const quiet: IngestReporter = { progress: () => undefined, throwIfCancelled: () => undefined }
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
const pct = (xs: number[], p: number): number => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!
const args = new Set(process.argv.slice(2))
const repeats = Number(process.env.REPEATS ?? 3)

async function ingestOnce(source: IngestSource) {
  const tmp = tempDir('harness-bench-')
  const file = join(tmp.dir, 'w.db')
  const db = await openDatabase(file, workspaceMigrations)
  const summary = await runIngest(db.raw, source, defaultIngestOptions(), quiet)
  const tokens = Number(db.raw.prepare('select coalesce(sum(token_count), 0) from documents').pluck().get())
  db.raw.pragma('wal_checkpoint(TRUNCATE)')
  const bytes = statSync(file).size
  return { summary, tokens, bytes, db, cleanup: async () => (await db.close(), tmp.cleanup()) }
}

async function constructionCost(label: string, source: IngestSource): Promise<void> {
  const runs: { total: number; parse: number; nlp: number; write: number; links: number; tokens: number }[] = []
  for (let i = 0; i < repeats; i++) {
    const r = await ingestOnce(source)
    runs.push({ ...r.summary.seconds, tokens: r.tokens })
    await r.cleanup()
  }
  const tokens = runs[0]!.tokens
  const per1k = (s: number) => (s / tokens) * 1000
  const total = median(runs.map((r) => r.total))
  console.log(
    `${label.padEnd(28)} ${String(tokens).padStart(9)} tok  total ${total.toFixed(2)} s  ` +
      `= ${per1k(total).toFixed(4)} s/1K tok (parse ${per1k(median(runs.map((r) => r.parse))).toFixed(4)}, ` +
      `nlp ${per1k(median(runs.map((r) => r.nlp))).toFixed(4)}, write+FTS ${per1k(median(runs.map((r) => r.write))).toFixed(4)}, ` +
      `entity links ${per1k(median(runs.map((r) => r.links))).toFixed(4)})  ` +
      `vs paper ${PAPER_S_PER_1K} s/1K: ${(PAPER_S_PER_1K / per1k(total)).toFixed(1)}x faster`,
  )
}

async function scaling(size: number): Promise<void> {
  const r = await ingestOnce({ kind: 'demo', seed: 1, size })
  const retriever = createRetriever(r.db.raw)
  const questions = (r.db.raw.prepare('select question from questions limit 200').pluck().all() as string[])
  const lat: number[] = []
  for (const q of questions) {
    const t = performance.now()
    await retriever.search(q, 10, 'bm25')
    lat.push(performance.now() - t)
  }
  const s = r.summary
  console.log(
    `demo x${String(size).padEnd(4)} ${String(s.documents).padStart(6)} docs ${String(r.tokens).padStart(9)} tok ${String(s.sentences).padStart(7)} sent ` +
      `${String(s.mentions).padStart(8)} mentions  ingest ${s.seconds.total.toFixed(1).padStart(6)} s  db ${(r.bytes / 1024 / 1024).toFixed(1).padStart(7)} MiB  ` +
      `query p50 ${pct(lat, 0.5).toFixed(2)} ms p95 ${pct(lat, 0.95).toFixed(2)} ms`,
  )
  await r.cleanup()
}

const hotpot = sharedPath('data/hotpotqa-train100')
console.log(`Graph construction cost (median of ${repeats}; embeddings: none configured, so not included)`)
if (existsSync(hotpot)) {
  await constructionCost('HotpotQA-train100 (994 p.)', {
    kind: 'benchmark', benchmark: 'hotpotqa',
    questionsFile: join(hotpot, 'hotpotqa_train.json'), corpusFile: join(hotpot, 'hotpotqa_train_corpus.json'),
  })
} else console.log(`(skipping HotpotQA: ${hotpot} is absent)`)
await constructionCost('demo world x1', { kind: 'demo', seed: 1, size: 1 })

console.log('\nScaling (one run each)')
for (const size of args.has('--quick') ? [1, 10] : [1, 10, 100]) await scaling(size)
