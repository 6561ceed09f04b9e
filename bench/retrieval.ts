/**
 * Retrieval bench on HotpotQA train-100 (read in place from ../shared/data): FTS5 BM25 through
 * the Retriever against MiniSearch 7.2.0, side by side in one process. Reports recall@10/@20 of the
 * gold supporting paragraphs, index build time and query latency. Run: npx tsx bench/retrieval.ts
 */
import { existsSync, readFileSync } from 'node:fs'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import MiniSearch from 'minisearch'
import { workspaceMigrations } from '../main/db/migrations'
import { openDatabase, type OpenedDatabase } from '../main/db/open'
import type { WorkspaceDatabase } from '../main/db/schema'
import { buildMatchQuery, createHashedEmbedder, createRetriever, embedMissingChunks, STOPWORDS, type SearchMode } from '../main/retrieval'
import { Bm25Ranker } from '../main/retrieval/bm25'
import { sharedPath } from './support/shared-data'

const DATA = process.env.HOTPOTQA_DIR ?? sharedPath('data/hotpotqa-train100')
const REPEATS = Number(process.env.BENCH_REPEATS ?? 5)
const K = 20

interface Question {
  question: string
  supporting_facts: [string, number][]
}

interface Row {
  name: string
  recall10: number
  recall20: number
  buildMs: number | null
  p50: number
  p95: number
}

interface Doc {
  id: number
  title: string
  sentences: string[]
}

interface Bench {
  docs: Doc[]
  questions: Question[]
  gold: Set<string>[]
}

type Raw = OpenedDatabase<WorkspaceDatabase>['raw']

async function main(): Promise<void> {
  const bench = loadBench()
  if (!bench) return
  const { docs, questions } = bench
  console.log(`HotpotQA train-100: ${docs.length} paragraphs, ${questions.length} questions, ${REPEATS} repeats, node ${process.version}\n`)

  const tmp = mkdtempSync(join(tmpdir(), 'harness-lab-bench-'))
  const opened = await openDatabase<WorkspaceDatabase>(join(tmp, 'workspace.db'), workspaceMigrations)
  try {
    const raw = opened.raw
    writeCorpus(raw, docs)
    const rows = await compareSystems(raw, bench, buildFts(raw, docs))
    printTable(rows)
    const [fts, , ms] = rows
    console.log(
      `\nRatios FTS5 / MiniSearch (defaults): recall@10 ${ratio(fts!.recall10, ms!.recall10)}, recall@20 ${ratio(fts!.recall20, ms!.recall20)}, ` +
        `index build ${ratio(fts!.buildMs!, ms!.buildMs!)}, query p50 ${ratio(fts!.p50, ms!.p50)}, p95 ${ratio(fts!.p95, ms!.p95)}`,
    )
    await titleWeightSensitivity(raw, bench)
    await toyDense(raw, bench)
  } finally {
    await opened.close()
    rmSync(tmp, { recursive: true, force: true })
  }
}

/** The corpus and questions, or null (said on the console) when the data folder does not hold them. */
function loadBench(): Bench | null {
  const corpusFile = join(DATA, 'hotpotqa_train_corpus.json')
  const questionsFile = join(DATA, 'hotpotqa_train.json')
  if (!existsSync(corpusFile) || !existsSync(questionsFile)) {
    console.log(`Skipping the retrieval bench: ${DATA} does not hold hotpotqa_train_corpus.json and hotpotqa_train.json.`)
    return null
  }
  const corpus = JSON.parse(readFileSync(corpusFile, 'utf8')) as Record<string, string[]>
  const questions = JSON.parse(readFileSync(questionsFile, 'utf8')) as Question[]
  const docs = Object.entries(corpus).map(([title, sentences], i) => ({ id: i + 1, title, sentences: sentences.map((s) => s.trim()) }))
  const gold = questions.map((q) => new Set(q.supporting_facts.map(([title]) => title)))
  return { docs, questions, gold }
}

/** Documents, chunks and sentences as ingest writes them: one chunk per paragraph. */
function writeCorpus(raw: Raw, docs: Doc[]): void {
  raw.transaction(() => {
    raw.prepare("insert into source_files (id, path, format, size_bytes, sha256, status, ingested_at) values (1, 'hotpotqa_train_corpus.json', 'json', 0, '', 'ok', '')").run()
    const insDoc = raw.prepare('insert into documents (id, file_id, external_id, title, text, token_count) values (?, 1, ?, ?, ?, ?)')
    const insChunk = raw.prepare(
      'insert into chunks (id, document_id, ord, text, start_char, end_char, token_count, first_sentence, last_sentence) values (?, ?, 0, ?, 0, ?, ?, 0, ?)',
    )
    const insSentence = raw.prepare('insert into sentences (document_id, chunk_id, ord, text, start_char, end_char) values (?, ?, ?, ?, ?, ?)')
    for (const d of docs) {
      const text = d.sentences.join(' ')
      const tokens = text.split(/\s+/).length
      insDoc.run(d.id, d.title, d.title, text, tokens)
      insChunk.run(d.id, d.id, text, text.length, tokens, d.sentences.length - 1)
      let pos = 0
      d.sentences.forEach((s, ord) => {
        insSentence.run(d.id, d.id, ord, s, pos, pos + s.length)
        pos += s.length + 1
      })
    }
  })()
}

/** Index build: FTS5 rows, rebuilt REPEATS times; the build times. */
function buildFts(raw: Raw, docs: Doc[]): number[] {
  const ftsBuild: number[] = []
  const insFts = raw.prepare('insert into chunks_fts (rowid, title, text) values (?, ?, ?)')
  for (let r = 0; r < REPEATS; r++) {
    raw.exec('delete from chunks_fts')
    const t0 = performance.now()
    raw.transaction(() => {
      for (const d of docs) insFts.run(d.id, d.title, d.sentences.join(' '))
    })()
    ftsBuild.push(performance.now() - t0)
  }
  return ftsBuild
}

/** Index build: MiniSearch addAll, rebuilt REPEATS times; the last index and the build times. */
function buildMini(docs: Doc[], stopwords: boolean): { index: MiniSearch; times: number[] } {
  const miniDocs = docs.map((d) => ({ id: d.id, title: d.title, text: d.sentences.join(' ') }))
  const times: number[] = []
  let index: MiniSearch | null = null
  for (let r = 0; r < REPEATS; r++) {
    const t0 = performance.now()
    index = new MiniSearch({
      fields: ['title', 'text'],
      storeFields: ['title'],
      ...(stopwords ? { processTerm: (term: string) => (STOPWORDS.has(term.toLowerCase()) ? null : term.toLowerCase()) } : {}),
      searchOptions: { boost: { title: 2 }, combineWith: 'OR' },
    })
    index.addAll(miniDocs)
    times.push(performance.now() - t0)
  }
  return { index: index!, times }
}

/** FTS5 through the Retriever, its bare ranking, and MiniSearch with and without the same stopwords. */
async function compareSystems(raw: Raw, { docs, questions, gold }: Bench, ftsBuild: number[]): Promise<Row[]> {
  const mini = buildMini(docs, false)
  const miniStop = buildMini(docs, true)
  const rows: Row[] = []
  const retriever = createRetriever(raw)
  rows.push(await runSystem('FTS5 bm25 (Retriever)', median(ftsBuild), questions, gold, (q) => retriever.search(q, K, 'bm25').then((r) => r.hits.map((h) => h.title))))
  // The same ranking without snippets and hydration, to show what the snippet() pass costs.
  const ranker = new Bm25Ranker(raw, { title: 2, text: 1 })
  const titleOf = new Map(docs.map((d) => [d.id, d.title]))
  rows.push(
    await runSystem('FTS5 bm25 ranking only (no snippets)', median(ftsBuild), questions, gold, async (q) => {
      const { expression } = buildMatchQuery(q)
      return expression ? ranker.rank(expression, K, [], null).map((h) => titleOf.get(h.id)!) : []
    }),
  )
  rows.push(await runSystem('MiniSearch 7.2.0 (defaults)', median(mini.times), questions, gold, async (q) => mini.index.search(q).slice(0, K).map((h) => h.title as string)))
  rows.push(
    await runSystem('MiniSearch 7.2.0 (+ same stopwords)', median(miniStop.times), questions, gold, async (q) =>
      miniStop.index.search(q).slice(0, K).map((h) => h.title as string),
    ),
  )
  return rows
}

/** How the title weight moves BM25 recall (the Retriever default is 2). */
async function titleWeightSensitivity(raw: Raw, { questions, gold }: Bench): Promise<void> {
  console.log('\nFTS5 bm25 title weight sensitivity (text weight 1):')
  for (const title of [1, 2, 4]) {
    const r = createRetriever(raw, { bm25Weights: { title, text: 1 } })
    const recall = await recallAt(questions, gold, async (q) => r.searchBm25(q, K).hits.map((h) => h.title))
    console.log(`  title ${title}: ${Object.entries(recall).map(([at, v]) => `recall@${at} ${v.toFixed(3)}`).join('  ')}`)
  }
}

/**
 * Dense/hybrid plumbing with hashed bag-of-words vectors: NOT a real embedding model, so these
 * figures say nothing about semantic retrieval; they only exercise the code path end to end.
 */
async function toyDense(raw: Raw, { questions, gold }: Bench): Promise<void> {
  const toy = createHashedEmbedder(512)
  const t0 = performance.now()
  await embedMissingChunks(raw, toy, { batchSize: 128 })
  const embedMs = performance.now() - t0
  const withToy = createRetriever(raw, { embedder: toy })
  console.log(`\nToy dense: ${toy.model}, embed+store ${embedMs.toFixed(0)} ms:`)
  const toyRows: Row[] = []
  for (const mode of ['dense', 'hybrid'] as SearchMode[]) {
    toyRows.push(await runSystem(`toy ${mode}`, null, questions, gold, (q) => withToy.search(q, K, mode).then((r) => r.hits.map((h) => h.title))))
  }
  printTable(toyRows)
}

/** Mean over questions of the share of gold supporting titles found in the top n, for each cutoff. */
async function recallAt(questions: Question[], gold: Set<string>[], search: (q: string) => Promise<string[]>): Promise<Record<number, number>> {
  const cutoffs = [2, 5, 10, 20]
  const sums = new Map(cutoffs.map((n) => [n, 0]))
  for (const [i, q] of questions.entries()) {
    const titles = await search(q.question)
    const g = gold[i]!
    for (const n of cutoffs) sums.set(n, sums.get(n)! + titles.slice(0, n).filter((t) => g.has(t)).length / g.size)
  }
  return Object.fromEntries(cutoffs.map((n) => [n, sums.get(n)! / questions.length]))
}

async function runSystem(name: string, buildMs: number | null, questions: Question[], gold: Set<string>[], search: (q: string) => Promise<string[]>): Promise<Row> {
  const recall = await recallAt(questions, gold, search) // also warms caches and statements
  const latencies: number[] = []
  for (let r = 0; r < REPEATS; r++) {
    for (const q of questions) {
      const t0 = performance.now()
      await search(q.question)
      latencies.push(performance.now() - t0)
    }
  }
  latencies.sort((a, b) => a - b)
  return { name, recall10: recall[10]!, recall20: recall[20]!, buildMs, p50: percentile(latencies, 50), p95: percentile(latencies, 95) }
}

function printTable(rows: Row[]): void {
  const header = ['system', 'recall@10', 'recall@20', 'index build ms (median)', 'query p50 ms', 'query p95 ms']
  const cells = rows.map((r) => [r.name, r.recall10.toFixed(3), r.recall20.toFixed(3), r.buildMs === null ? '-' : r.buildMs.toFixed(1), r.p50.toFixed(3), r.p95.toFixed(3)])
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)))
  const line = (c: string[]) => `| ${c.map((x, i) => (i === 0 ? x.padEnd(widths[i]!) : x.padStart(widths[i]!))).join(' | ')} |`
  console.log(line(header))
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`)
  for (const c of cells) console.log(line(c))
}

function median(values: number[]): number {
  return percentile([...values].sort((a, b) => a - b), 50)
}

/** Nearest-rank percentile of sorted values. */
function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!
}

function ratio(a: number, b: number): string {
  return b === 0 ? 'n/a' : `${(a / b).toFixed(2)}x`
}

await main()
