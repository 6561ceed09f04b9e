/**
 * Generated questions: yields and the four acceptance figures, no LLM.
 *   npm run bench:questions [-- --runs N --seed N]
 * Ingests ../shared/data/wikipedia-md-300/pages and ../shared/data/sec-filings/markdown (read in
 * place) into temporary workspaces, then generates bridge and comparison questions: candidates by
 * template, how many have the answer in the question, and how many a set keeps with the answer
 * filter on (no cap). Generation time is the median of N runs, with its ratio to the ingest of the
 * same corpus measured in the same run (the machine is shared: read the ratio).
 *
 * Acceptance figures on the kept questions (main/questions/generate/measure.ts), beside the same
 * figures for HotpotQA-train100 (the imported benchmark) measured in the same run:
 *   (a) share quoting a gold sentence (>= 50% of its content words; goal 0);
 *   (b) share whose question alone, as a BM25 query, ranks every gold document in the top 10 (goal:
 *       well under HotpotQA's);
 *   (c) entity-type precision on the hand-labelled sample test/fixtures/questions/entity-type-sample.json
 *       (every typed bridge entity vs those generation keeps; goal >= 0.9);
 *   (d) share of answers that are stop phrases (goal 0).
 */
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { workspaceMigrations } from '../main/db/migrations'
import { openDatabase } from '../main/db/open'
import { loadQuestions } from '../main/experiments/questions'
import { defaultIngestOptions, runIngest } from '../main/ingest/run'
import { answerInQuestion, confidentType, generateCandidates, questionFigures, selectGenerated, type QuestionFigures } from '../main/questions'
import { sharedPath } from './support/shared-data'
import { tempDir } from './support/services'

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
const HOTPOT = sharedPath('data/hotpotqa-train100')
const SAMPLE = join(import.meta.dirname, '../test/fixtures/questions/entity-type-sample.json')
const quiet = { progress: () => undefined, throwIfCancelled: () => undefined }

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
const pct = (x: number): string => `${(x * 100).toFixed(1)}%`
const figureRows: { set: string; figures: QuestionFigures }[] = []

async function generated(tmpDir: string): Promise<void> {
  for (const corpus of CORPORA) {
    if (!existsSync(corpus.path)) {
      console.log(`${corpus.name}: skipped, ${corpus.path} is absent (the project's ../shared data folder)`)
      continue
    }
    const db = await openDatabase(join(tmpDir, `${corpus.name.replace(/\W+/g, '-')}.db`), workspaceMigrations)
    const t0 = performance.now()
    await runIngest(db.raw, { kind: 'folder', path: corpus.path }, defaultIngestOptions(), quiet)
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
    for (const form of forms) {
      const q = kept.find((x) => x.form === form)
      if (q) console.log(`  e.g. [${q.form}] ${q.question.length > 260 ? `${q.question.slice(0, 257)}...` : q.question}  => ${q.answers[0]}`)
    }
    const measured = kept.map((q) => ({ question: q.question, answers: q.answers, goldSentenceIds: q.gold.map((g) => g.sentenceId), goldDocumentIds: [...new Set(q.gold.map((g) => g.documentId))] }))
    figureRows.push({ set: `${corpus.name} generated`, figures: questionFigures(db.raw, measured) })
    const bridges = measured.filter((_, i) => kept[i]!.kind === 'bridge')
    if (bridges.length > 0) figureRows.push({ set: `  of which bridge`, figures: questionFigures(db.raw, bridges) })
    await db.close()
  }
}

async function hotpot(tmpDir: string): Promise<void> {
  const questionsFile = join(HOTPOT, 'hotpotqa_train.json')
  const corpusFile = join(HOTPOT, 'hotpotqa_train_corpus.json')
  if (!existsSync(questionsFile) || !existsSync(corpusFile)) {
    console.log(`HotpotQA-train100: skipped, ${HOTPOT} is absent (the project's ../shared data folder)`)
    return
  }
  const db = await openDatabase(join(tmpDir, 'hotpotqa.db'), workspaceMigrations)
  await runIngest(db.raw, { kind: 'benchmark', benchmark: 'hotpotqa', questionsFile, corpusFile }, defaultIngestOptions(), quiet)
  const qs = loadQuestions(db.raw, { questionSetId: 1, limit: 1000 }).map((q) => ({ question: q.question, answers: q.answers, goldSentenceIds: q.gold!.sentenceIds, goldDocumentIds: q.gold!.documentIds }))
  figureRows.push({ set: 'HotpotQA-train100 (imported)', figures: questionFigures(db.raw, qs) })
  await db.close()
}

interface SampleItem {
  corpus: string
  name: string
  type: string
  sentence: string
  /** Hand label: the type is right for what the sentence names. */
  correct: boolean
  drawnFrom: 'all' | 'kept'
}

function entityTypePrecision(): void {
  if (!existsSync(SAMPLE)) return void console.log(`(c) entity-type precision: skipped, ${SAMPLE} is absent`)
  const items = (JSON.parse(readFileSync(SAMPLE, 'utf8')) as { items: SampleItem[] }).items
  const precision = (xs: SampleItem[]): string => `${(xs.filter((x) => x.correct).length / Math.max(1, xs.length)).toFixed(3)} (${xs.filter((x) => x.correct).length}/${xs.length})`
  const unique = [...new Map(items.map((x) => [`${x.corpus}\u0000${x.name}\u0000${x.type}`, x])).values()]
  console.log(`\n(c) entity-type precision on the hand-labelled sample (${items.length} labels):`)
  console.log(`  every typed bridge entity (the generator before the type filter): ${precision(items.filter((x) => x.drawnFrom === 'all'))}`)
  console.log(`  those generation keeps now (confidentType):                      ${precision(unique.filter((x) => confidentType(x.name, x.type)))}   goal >= 0.9`)
}

async function main(): Promise<void> {
  const tmp = tempDir('harness-lab-bench-questions-')
  try {
    await generated(tmp.dir)
    await hotpot(tmp.dir)
    console.log(`\nAcceptance figures (kept questions; answer filter on):`)
    console.log(`  ${'set'.padEnd(30)} ${'n'.padStart(6)} ${'(a) quoting'.padStart(12)} ${'(b) BM25 all-gold@10'.padStart(21)} ${'(d) stop answers'.padStart(17)}`)
    for (const r of figureRows) console.log(`  ${r.set.padEnd(30)} ${String(r.figures.questions).padStart(6)} ${pct(r.figures.quoting).padStart(12)} ${pct(r.figures.bm25AllGold).padStart(21)} ${pct(r.figures.stopPhraseAnswers).padStart(17)}`)
    console.log('  goals: (a) 0, (b) well under the imported benchmark, (d) 0')
    entityTypePrecision()
  } finally {
    tmp.cleanup()
  }
}

await main()
