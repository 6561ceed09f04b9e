/**
 * Bytes per stored evaluation episode, row format (every step's full JSON) against the compact
 * format (one brotli blob of per-step deltas, main/experiments/runs/episode-codec.ts), per environment:
 *   npx tsx bench/storage.ts [--questions N] [--demo-size S]
 * On the demo world (seed 1) and HotpotQA-train100 (../shared, skipped when absent): each
 * environment plays N questions with its scripted policy, previews on (as evaluations store them);
 * the same trajectories are written once per format into copies of one workspace database. Reported:
 * the stored value bytes per episode (what the Runs page shows), the growth of the database file per
 * episode after a checkpoint (pages, indexes and all), their ratio, and the median milliseconds to
 * write and to read back one episode (runs.episode's reader) in each format.
 */
import { existsSync, statSync } from 'node:fs'
import { join } from 'node:path'
import type SQLite from 'better-sqlite3'
import { workspaceMigrations } from '../main/db/migrations'
import { openDatabase } from '../main/db/open'
import { getEpisode } from '../main/experiments/runs/read-model'
import { RunStore } from '../main/experiments/runs/store'
import { createEnvironment, environmentContext, environmentFactory, environmentNames, runEpisode, type EnvQuestion, type Trajectory } from '../main/harness'
import { createScriptedPolicy, scriptedPolicies } from '../main/policy/scripted'
import { defaultIngestOptions, runIngest, type IngestReporter } from '../main/ingest/run'
import type { IngestSource } from '../main/ingest/sources'
import { tempDir } from './support/services'
import { sharedPath } from './support/shared-data'

const DATA = process.env.HOTPOTQA_DIR ?? sharedPath('data/hotpotqa-train100')
const quiet: IngestReporter = { progress: () => undefined, throwIfCancelled: () => undefined }
const flag = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(`--${name}`)
  return i >= 0 ? Number(process.argv[i + 1]) : fallback
}
const QUESTIONS = flag('questions', 30)
const DEMO_SIZE = flag('demo-size', 3)

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length ? s[Math.floor(s.length / 2)]! : NaN
}

function loadQuestions(raw: SQLite.Database, limit: number): EnvQuestion[] {
  const rows = raw.prepare('select id, question, answers_json, supporting_facts_json, supporting_docs_json from questions order by id limit ?').all(limit) as Record<string, string>[]
  return rows.map((r) => ({ id: String(r.id), question: r.question!, answers: JSON.parse(r.answers_json!), supportingFacts: JSON.parse(r.supporting_facts_json!), supportingDocs: JSON.parse(r.supporting_docs_json!) }))
}

interface FormatResult {
  valueBytes: number
  fileBytes: number
  writeMs: number
  readMs: number
}

/** Writes the trajectories in one format into a copy of the base database and measures it. */
async function measureFormat(base: string, dir: string, format: 'rows' | 'compact', env: string, trajectories: { q: EnvQuestion; t: Trajectory }[]): Promise<FormatResult> {
  const file = join(dir, `${env}-${format}.db`)
  const source = await openDatabase(base, workspaceMigrations)
  source.raw.prepare('vacuum into ?').run(file)
  await source.close()
  const db = await openDatabase(file, workspaceMigrations)
  try {
    db.raw.pragma('wal_checkpoint(TRUNCATE)')
    const sizeBefore = statSync(file).size
    const store = new RunStore(db.raw)
    const runId = store.createRun({ kind: 'eval', name: `${env}-${format}`, config: { kind: 'evaluation', name: `${env}-${format}`, environment: env, envConfig: {}, policy: { kind: 'scripted', name: 'bench' }, answerer: { kind: 'lexical', name: 'lexical', lexical: true }, questionSetId: 1, offset: 0, limit: QUESTIONS, seed: 0, previews: false }, seed: 0, appVersion: 'bench', corpusSignature: 'bench', jobId: null })
    const writes: number[] = []
    const ids: number[] = []
    for (const { q, t } of trajectories) {
      const t0 = performance.now()
      ids.push(store.saveEpisode(runId, Number(q.id), t, format))
      writes.push(performance.now() - t0)
    }
    db.raw.pragma('wal_checkpoint(TRUNCATE)')
    const fileBytes = (statSync(file).size - sizeBefore) / trajectories.length
    const valueBytes = store.storage().find((s) => s.runId === runId)!.bytes / trajectories.length
    const reads: number[] = []
    for (const id of ids) {
      const t0 = performance.now()
      await getEpisode(db.raw, id)
      reads.push(performance.now() - t0)
    }
    return { valueBytes, fileBytes, writeMs: median(writes), readMs: median(reads) }
  } finally {
    await db.close()
  }
}

const kib = (b: number): string => `${(b / 1024).toFixed(1)} KiB`

async function measure(label: string, source: IngestSource): Promise<void> {
  const tmp = tempDir('harness-storage-bench-')
  const base = join(tmp.dir, 'base.db')
  try {
    const db = await openDatabase(base, workspaceMigrations)
    await runIngest(db.raw, source, defaultIngestOptions(), quiet)
    const questions = loadQuestions(db.raw, QUESTIONS)
    const played = new Map<string, { q: EnvQuestion; t: Trajectory }[]>()
    for (const name of environmentNames()) {
      const protocol = environmentFactory(name).protocol
      const policy = scriptedPolicies().find((p) => p.protocols.includes(protocol))!.name
      const env = createEnvironment(name, environmentContext(db.raw))
      const list: { q: EnvQuestion; t: Trajectory }[] = []
      for (const [i, q] of questions.entries()) list.push({ q, t: await runEpisode(env, createScriptedPolicy(policy, protocol), q, i, { previews: true }) })
      played.set(name, list)
    }
    await db.close()
    const rows: Record<string, Record<string, string | number>> = {}
    for (const [name, list] of played) {
      const before = await measureFormat(base, tmp.dir, 'rows', name, list)
      const after = await measureFormat(base, tmp.dir, 'compact', name, list)
      rows[name] = {
        steps: +(list.reduce((a, x) => a + x.t.steps.length, 0) / list.length).toFixed(1),
        'rows: values/episode': kib(before.valueBytes),
        'compact: values/episode': kib(after.valueBytes),
        'values ratio': +(before.valueBytes / after.valueBytes).toFixed(1),
        'rows: file/episode': kib(before.fileBytes),
        'compact: file/episode': kib(after.fileBytes),
        'file ratio': +(before.fileBytes / Math.max(after.fileBytes, 1)).toFixed(1),
        'write ms rows/compact': `${before.writeMs.toFixed(2)} / ${after.writeMs.toFixed(2)}`,
        'read ms rows/compact': `${before.readMs.toFixed(2)} / ${after.readMs.toFixed(2)}`,
      }
    }
    console.log(`\n${label}: ${questions.length} questions per environment, scripted policies, previews on (medians for times)`)
    console.table(rows)
  } finally {
    tmp.cleanup()
  }
}

async function main(): Promise<void> {
  console.log(`Trajectory storage bench, node ${process.version}`)
  await measure(`Demo world (seed 1, size ${DEMO_SIZE})`, { kind: 'demo', seed: 1, size: DEMO_SIZE })
  const questionsFile = join(DATA, 'hotpotqa_train.json')
  const corpusFile = join(DATA, 'hotpotqa_train_corpus.json')
  if (existsSync(questionsFile) && existsSync(corpusFile)) await measure('HotpotQA-train100', { kind: 'benchmark', benchmark: 'hotpotqa', questionsFile, corpusFile })
  else console.log(`Skipping HotpotQA-train100: ${DATA} does not hold hotpotqa_train.json and hotpotqa_train_corpus.json.`)
}

main().catch((err) => {
  console.error(err)
  process.exit(1)
})
