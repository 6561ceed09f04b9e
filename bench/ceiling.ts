/**
 * Know the ceiling: npm run bench:ceiling [-- --questions N --offset K --max-steps S]
 *
 * Per environment (graph-menu, free-query; default budgets, turn limit 6), the share of gold reachable
 * within the budget by any sequence of the environment's own actions (a bounded search over its
 * transitions, main/experiments/ceiling) beside what the oracle commits (planning through a twin
 * environment) and what its one-step rules alone commit (the oracle before it planned), on:
 * - the MuSiQue-format fixture (test/fixtures/gold, paragraph-level gold);
 * - HotpotQA-train100 written in MuSiQue format (each question's own context paragraphs, gold at
 *   paragraph level only: the supporting titles), from ../shared (skipped when absent);
 * - HotpotQA-train100 as imported (sentence-level gold).
 * Unreachable gold is counted by reason; questions where the oracle commits less than is reachable are
 * listed (the oracle should match the ceiling). Deterministic: run before and after a change to an
 * environment or the oracle. The search is replayed from reset per branch, so it is slow: --questions
 * scales it.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { workspaceMigrations } from '../main/db/migrations'
import { openDatabase } from '../main/db/open'
import { ceilingReport, type CeilingRow } from '../main/experiments/ceiling'
import { loadQuestions } from '../main/experiments/questions'
import { environmentContext } from '../main/harness'
import { defaultIngestOptions, runIngest } from '../main/ingest/run'
import type { IngestSource } from '../main/ingest/sources'
import { MUSIQUE_REPEATED_TITLES } from './support/musique-workspace'
import { tempDir } from './support/services'
import { sharedPath } from './support/shared-data'

const flag = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(`--${name}`)
  const v = i >= 0 ? Number(process.argv[i + 1]) : NaN
  return Number.isFinite(v) && v > 0 ? v : fallback
}
const QUESTIONS = flag('questions', 33)
/** Questions skipped at the start of each set (0 by default), to measure a later slice. */
const OFFSET = flag('offset', 0)
const MAX_STEPS = flag('max-steps', 3000)
const HOTPOT = sharedPath('data/hotpotqa-train100')
const quiet = { progress: () => undefined, throwIfCancelled: () => undefined }
const ENVIRONMENTS = ['graph-menu', 'free-query']

/** HotpotQA records as MuSiQue records: the question's context paragraphs, supporting by title. */
function hotpotAsMuSiQue(file: string, out: string): void {
  const rows = JSON.parse(readFileSync(file, 'utf8')) as { _id: string; question: string; answer: string; supporting_facts: [string, number][]; context: [string, string[]][] }[]
  const lines = rows.map((r) => {
    const supporting = new Set(r.supporting_facts.map(([t]) => t))
    const paragraphs = r.context.map(([title, sentences], idx) => ({ idx, title, paragraph_text: sentences.join('').trim(), is_supporting: supporting.has(title) }))
    return JSON.stringify({ id: `2hop__${r._id}`, question: r.question, answer: r.answer, answerable: true, paragraphs })
  })
  writeFileSync(out, `${lines.join('\n')}\n`)
}

const pct = (x: number): string => `${(x * 100).toFixed(1)}%`

function print(set: string, rows: CeilingRow[]): void {
  console.log(`\n${set}`)
  console.log(`  ${'environment'.padEnd(12)} ${'questions'.padStart(9)} ${'gold'.padStart(5)} ${'reachable'.padStart(10)} ${'oracle'.padStart(7)} ${'rules'.padStart(7)} ${'all-gold reach/oracle/rules'.padStart(28)} ${'truncated'.padStart(9)}  unreachable by reason`)
  for (const r of rows) {
    const reasons = Object.entries(r.reasons).map(([k, v]) => `${k} ${v}`).join(', ') || '-'
    console.log(`  ${r.environment.padEnd(12)} ${String(r.questions).padStart(9)} ${String(r.units).padStart(5)} ${pct(r.reachable).padStart(10)} ${pct(r.oracle).padStart(7)} ${pct(r.oracleRules).padStart(7)} ${`${r.allReachable} / ${r.allOracle} / ${r.allRules}`.padStart(28)} ${String(r.truncated).padStart(9)}  ${reasons}`)
    if (r.oracleShort.length > 0) console.log(`    oracle below the ceiling on ${r.oracleShort.length} question(s): ${r.oracleShort.slice(0, 20).join(', ')}`)
    if (r.rulesShort.length > 0) console.log(`    one-step rules alone below it on ${r.rulesShort.length} question(s): ${r.rulesShort.slice(0, 20).join(', ')}`)
  }
}

async function measure(set: string, source: IngestSource, tmpDir: string): Promise<void> {
  const db = await openDatabase(join(tmpDir, `${set.replace(/\W+/g, '-')}.db`), workspaceMigrations)
  try {
    await runIngest(db.raw, source, defaultIngestOptions(), quiet)
    const ctx = environmentContext(db.raw)
    const questions = loadQuestions(db.raw, { questionSetId: 1, offset: OFFSET, limit: QUESTIONS })
    const rows: CeilingRow[] = []
    for (const env of ENVIRONMENTS) {
      const t = performance.now()
      rows.push(await ceilingReport(ctx, questions, env, {}, { maxSteps: MAX_STEPS }))
      console.log(`  (${set} / ${env}: ${((performance.now() - t) / 1000).toFixed(0)} s)`)
    }
    print(`${set}: ${questions.length} questions${OFFSET > 0 ? ` from #${OFFSET + 1}` : ''}, turn limit 6, search budget ${MAX_STEPS} steps per question`, rows)
  } finally {
    await db.close()
  }
}

async function main(): Promise<void> {
  const tmp = tempDir('harness-lab-bench-ceiling-')
  try {
    await measure('MuSiQue-format fixture', { kind: 'benchmark', benchmark: 'musique', questionsFile: MUSIQUE_REPEATED_TITLES }, tmp.dir)
    const questionsFile = join(HOTPOT, 'hotpotqa_train.json')
    const corpusFile = join(HOTPOT, 'hotpotqa_train_corpus.json')
    if (!existsSync(questionsFile) || !existsSync(corpusFile)) {
      console.log(`HotpotQA-train100: skipped, ${HOTPOT} is absent (the project's ../shared data folder)`)
      return
    }
    const musique = join(tmp.dir, 'hotpotqa-as-musique.jsonl')
    hotpotAsMuSiQue(questionsFile, musique)
    await measure('HotpotQA-train100 as MuSiQue (paragraph gold)', { kind: 'benchmark', benchmark: 'musique', questionsFile: musique }, tmp.dir)
    await measure('HotpotQA-train100 (sentence gold)', { kind: 'benchmark', benchmark: 'hotpotqa', questionsFile, corpusFile }, tmp.dir)
  } finally {
    tmp.cleanup()
  }
}

await main()
