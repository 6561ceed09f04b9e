/**
 * How many questions a corpus yields, generated from its own graph with no LLM.
 *   npm run bench:questions [-- --runs N --seed N]
 * Ingests ../shared/data/wikipedia-md-300/pages and ../shared/data/sec-filings/markdown (read in
 * place) into temporary workspaces, then generates bridge and comparison questions: candidates by
 * template, how many have the answer in the question, and how many a set keeps with the answer
 * filter on (no cap). Generation time is the median of N runs, with its ratio to the ingest of the
 * same corpus measured in the same run (the machine is shared: read the ratio).
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { workspaceMigrations } from '../main/db/migrations'
import { openDatabase } from '../main/db/open'
import { defaultIngestOptions, runIngest } from '../main/ingest/run'
import { answerInQuestion, generateCandidates, selectGenerated } from '../main/questions'
import { sharedPath } from '../test/helpers/shared-data'
import { tempDir } from '../test/helpers/services'

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`)
  const v = i >= 0 ? Number(process.argv[i + 1]) : NaN
  return Number.isFinite(v) && v >= 0 ? v : fallback
}

const RUNS = arg('runs', 3)
const SEED = arg('seed', 1)
const CORPORA = [
  { name: 'wikipedia-md-300', path: sharedPath('data/wikipedia-md-300/pages') },
  { name: 'sec-filings markdown', path: sharedPath('data/sec-filings/markdown') },
]

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

async function main(): Promise<void> {
  const tmp = tempDir('harness-lab-bench-questions-')
  try {
    for (const corpus of CORPORA) {
      if (!existsSync(corpus.path)) {
        console.log(`${corpus.name}: skipped, ${corpus.path} is absent (the project's ../shared data folder)`)
        continue
      }
      const db = await openDatabase(join(tmp.dir, `${corpus.name.replace(/\W+/g, '-')}.db`), workspaceMigrations)
      const t0 = performance.now()
      await runIngest(db.raw, { kind: 'folder', path: corpus.path }, defaultIngestOptions(), { progress: () => undefined, throwIfCancelled: () => undefined })
      const ingestS = (performance.now() - t0) / 1000
      const count = (sql: string): number => Number(db.raw.prepare(sql).pluck().get())
      const docs = count('select count(*) from documents')
      const sentences = count('select count(*) from sentences')
      const entities = count('select count(*) from entities where lookup_ok = 1')
      const params = { seed: SEED, kinds: ['bridge', 'comparison'] as ('bridge' | 'comparison')[], maxPerKind: 100_000 }
      const times: number[] = []
      let candidates = generateCandidates(db.raw, params)
      for (let r = 0; r < RUNS; r++) {
        const t = performance.now()
        candidates = generateCandidates(db.raw, params)
        times.push((performance.now() - t) / 1000)
      }
      const kept = selectGenerated(candidates, { maxPerKind: 100_000, answerNotInQuestion: true }).kept
      console.log(`\n${corpus.name}: ${docs} documents, ${sentences} sentences, ${entities} named entities; ingest ${ingestS.toFixed(1)} s`)
      console.log(`  generation (seed ${SEED}): median ${(median(times) * 1000).toFixed(0)} ms over ${RUNS} runs = ${((median(times) / ingestS) * 100).toFixed(2)}% of the ingest time`)
      console.log(`  ${'form'.padEnd(20)} ${'candidates'.padStart(10)} ${'answer in q'.padStart(12)} ${'kept'.padStart(6)}`)
      const forms = [...new Set(candidates.map((q) => q.form))].sort()
      for (const form of forms) {
        const of = candidates.filter((q) => q.form === form)
        console.log(`  ${form.padEnd(20)} ${String(of.length).padStart(10)} ${String(of.filter((q) => answerInQuestion(q.question, q.answers)).length).padStart(12)} ${String(kept.filter((q) => q.form === form).length).padStart(6)}`)
      }
      for (const kind of ['bridge', 'comparison']) console.log(`  ${`total ${kind}`.padEnd(20)} ${String(candidates.filter((q) => q.kind === kind).length).padStart(10)} ${''.padStart(12)} ${String(kept.filter((q) => q.kind === kind).length).padStart(6)}`)
      const sample = kept.slice(0, 2)
      for (const q of sample) console.log(`  e.g. [${q.form}] ${q.question.length > 220 ? `${q.question.slice(0, 217)}...` : q.question}  => ${q.answers[0]}`)
      await db.close()
    }
  } finally {
    tmp.cleanup()
  }
}

await main()
