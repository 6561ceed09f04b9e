/**
 * Harness-G environment bench: npx tsx bench/env.ts [--questions N] [--demo-size S]
 *
 * 1. Step cost: median (and p90) milliseconds of one environment step including the rebuild of the
 *    whole menu with a preview of every item (graph-menu), and of the same step plus preview calls on
 *    every item, on HotpotQA-train100 (read from ../shared, skipped when absent) and on a large demo
 *    world (size 10). The free-query baseline's step is shown beside it.
 * 2. Throughput: episodes per second with the greedy policy.
 * 3. Supporting-fact recall (main/eval supportingFactScore on committed sentence ids mapped to
 *    [title, sentence ord]) of greedy, random and oracle on HotpotQA-train100, menu and free query
 *    side by side, with BM25 top-k retrieval (no agent: the sentences of the question's top chunks,
 *    in rank order, cut at the evidence budget = the turn limit) as the reference row.
 * One process, one core; the machine is shared, so read ratios rather than absolute times.
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import type SQLite from 'better-sqlite3'
import { workspaceMigrations } from '../main/db/migrations'
import { openDatabase, type OpenedDatabase } from '../main/db/open'
import { mean, supportingFactScore } from '../main/eval'
import { createEnvironment, envCorpus, environmentFactory, runEpisode, type EnvContext, type Environment, type EnvQuestion, environmentContext } from '../main/harness'
import { GRAPH_MENU_DEFAULTS } from '../main/harness/graph-menu'
import type { SentenceReader } from '../main/corpus/repository/corpus-reader'
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
const QUESTIONS = flag('questions', 100)
const DEMO_SIZE = flag('demo-size', 10)
const RANDOM_SEEDS = [0, 1, 2]

const quantile = (xs: number[], q: number): number => {
  if (xs.length === 0) return NaN
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.floor(q * s.length))]!
}
const median = (xs: number[]): number => quantile(xs, 0.5)

function loadQuestions(raw: SQLite.Database, limit: number): EnvQuestion[] {
  const rows = raw.prepare('select id, question, answers_json, supporting_facts_json, supporting_docs_json from questions order by id limit ?').all(limit) as Record<string, string>[]
  return rows.map((r) => ({
    id: String(r.id),
    question: r.question!,
    answers: JSON.parse(r.answers_json!),
    supportingFacts: JSON.parse(r.supporting_facts_json!),
    supportingDocs: JSON.parse(r.supporting_docs_json!),
  }))
}

async function workspace(label: string, source: IngestSource): Promise<{ db: OpenedDatabase<unknown>; ctx: EnvContext; cleanup: () => Promise<void> }> {
  const tmp = tempDir('harness-env-bench-')
  const db = await openDatabase(join(tmp.dir, 'workspace.db'), workspaceMigrations)
  const t0 = performance.now()
  const summary = await runIngest(db.raw, source, defaultIngestOptions(), quiet)
  console.log(`${label}: ${summary.documents} documents, ${summary.chunks} chunks, ${summary.sentences} sentences, ${summary.questions} questions; ingest ${((performance.now() - t0) / 1000).toFixed(1)} s`)
  return {
    db,
    ctx: environmentContext(db.raw),
    cleanup: async () => {
      await db.close()
      tmp.cleanup()
    },
  }
}

interface StepTimes {
  reset: number[]
  step: number[]
  stepWithPreviews: number[]
  menuItems: number[]
  episodesPerSecond: number
}

/** Plays greedy episodes, timing every reset and step (the menu and its previews are rebuilt in both). */
async function timeSteps(env: Environment, envName: string, questions: EnvQuestion[]): Promise<StepTimes> {
  const times: StepTimes = { reset: [], step: [], stepWithPreviews: [], menuItems: [], episodesPerSecond: 0 }
  const policy = createScriptedPolicy('greedy', environmentFactory(envName).protocol)
  const t0 = performance.now()
  for (const [i, q] of questions.entries()) {
    // What a trainer computing SNC asks for at every state: the preview of every menu item (free query: of its SELECT items).
    const trajectory = await runEpisode(env, policy, q, i, { previews: true, snapshots: false, onStep: (step) => {
      const menu = step.actions.kind === 'menu' ? step.actions.items : []
      times.step.push(step.timings!.env)
      times.stepWithPreviews.push(step.timings!.env + step.timings!.previews)
      times.menuItems.push(menu.length)
    } })
    times.reset.push(trajectory.resetMs)
  }
  times.episodesPerSecond = questions.length / ((performance.now() - t0) / 1000)
  return times
}

async function stepTable(label: string, ctx: EnvContext, questions: EnvQuestion[]): Promise<void> {
  console.log(`\nStep cost on ${label} (${questions.length} questions, greedy policy), ms:`)
  const rows: Record<string, string | number>[] = []
  for (const envName of ['graph-menu', 'free-query']) {
    const env = createEnvironment(envName, ctx)
    await runEpisode(env, createScriptedPolicy('greedy', environmentFactory(envName).protocol), questions[0]!, 0) // warm statements and NLP models
    const t = await timeSteps(env, envName, questions)
    rows.push({
      env: envName,
      'reset p50': t.reset.length ? +median(t.reset).toFixed(2) : NaN,
      'step p50': +median(t.step).toFixed(2),
      'step p90': +quantile(t.step, 0.9).toFixed(2),
      'step+previews p50': +median(t.stepWithPreviews).toFixed(2),
      'menu items p50': median(t.menuItems),
      'episodes/s (greedy)': +t.episodesPerSecond.toFixed(1),
    })
  }
  console.table(rows)
}

/** [title, ord] of committed sentences, the form HotpotQA gold uses. */
function factsOf(corpus: SentenceReader): (ids: readonly number[]) => { title: string; sentence: number }[] {
  return (ids) => ids.map((id) => {
    const s = corpus.sentence(id)!
    return { title: s.title, sentence: s.ord }
  })
}

interface RecallRow {
  env: string
  policy: string
  recall: number[]
  precision: number[]
  seen: number[]
  evidence: number[]
  turns: number[]
}

function summarise(r: RecallRow): Record<string, string | number> {
  return {
    env: r.env,
    policy: r.policy,
    'sf recall (mean)': +mean(r.recall).toFixed(3),
    'sf recall (median)': +median(r.recall).toFixed(3),
    'all gold': +mean(r.recall.map((x) => (x === 1 ? 1 : 0))).toFixed(3),
    'sf precision': +mean(r.precision).toFixed(3),
    'seen recall': r.seen.length ? +mean(r.seen).toFixed(3) : '-',
    evidence: +mean(r.evidence).toFixed(2),
    turns: r.turns.length ? +mean(r.turns).toFixed(2) : '-',
  }
}

async function recallTable(ctx: EnvContext, questions: EnvQuestion[]): Promise<void> {
  const facts = factsOf(envCorpus(ctx))
  const budget = GRAPH_MENU_DEFAULTS.turnLimit
  const rows: RecallRow[] = []

  // Reference: no agent, the question's top chunks read in rank order until the evidence budget is full.
  const reference: RecallRow = { env: '-', policy: `bm25 top chunks, first ${budget} sentences`, recall: [], precision: [], seen: [], evidence: [], turns: [] }
  const chunkSentences = (chunkId: number): number[] => envCorpus(ctx).chunkSentences(chunkId).map((s) => s.id)
  const chunksUsed: number[] = []
  for (const q of questions) {
    const hits = (await ctx.retriever.search(q.question, 20, 'bm25')).hits
    const ids: number[] = []
    let used = 0
    for (const hit of hits) {
      if (ids.length >= budget) break
      used++
      for (const id of chunkSentences(hit.chunkId)) if (ids.length < budget && !ids.includes(id)) ids.push(id)
    }
    chunksUsed.push(used)
    const sf = supportingFactScore(facts(ids), q.supportingFacts)
    reference.recall.push(sf.recall)
    reference.precision.push(sf.precision)
    reference.evidence.push(ids.length)
  }
  rows.push(reference)

  for (const envName of ['graph-menu', 'free-query']) {
    const env = createEnvironment(envName, ctx)
    for (const policyName of scriptedPolicies().filter((p) => p.protocols.includes(environmentFactory(envName).protocol)).map((p) => p.name)) {
      const row: RecallRow = { env: envName, policy: policyName, recall: [], precision: [], seen: [], evidence: [], turns: [] }
      const seeds = policyName === 'random' ? RANDOM_SEEDS : [0]
      for (const seed of seeds) {
        for (const [i, q] of questions.entries()) {
          const { outcome } = await runEpisode(env, createScriptedPolicy(policyName, environmentFactory(envName).protocol), q, seed * 100_000 + i, { snapshots: false })
          const evidence = outcome.evidence.sentenceIds ?? []
          const sf = supportingFactScore(facts(evidence), q.supportingFacts)
          row.recall.push(sf.recall)
          row.precision.push(sf.precision)
          row.seen.push(supportingFactScore(facts(outcome.seen.sentenceIds ?? []), q.supportingFacts).recall)
          row.evidence.push(evidence.length)
          row.turns.push(outcome.turns)
        }
      }
      rows.push(row)
    }
  }
  console.log(
    `\nSupporting-fact recall on HotpotQA-train100 (${questions.length} questions; turn limit ${budget}; random over ${RANDOM_SEEDS.length} seeds; ` +
      `reference used ${mean(chunksUsed).toFixed(2)} chunks on average):`,
  )
  console.table(rows.map(summarise))
}

async function main(): Promise<void> {
  console.log(`Harness-G environment bench, node ${process.version}\n`)
  const questionsFile = join(DATA, 'hotpotqa_train.json')
  const corpusFile = join(DATA, 'hotpotqa_train_corpus.json')
  if (existsSync(questionsFile) && existsSync(corpusFile)) {
    const hotpot = await workspace('HotpotQA-train100', { kind: 'benchmark', benchmark: 'hotpotqa', questionsFile, corpusFile })
    try {
      const questions = loadQuestions(hotpot.db.raw, QUESTIONS)
      await stepTable('HotpotQA-train100', hotpot.ctx, questions)
      await recallTable(hotpot.ctx, questions)
    } finally {
      await hotpot.cleanup()
    }
  } else {
    console.log(`Skipping HotpotQA-train100: ${DATA} does not hold hotpotqa_train.json and hotpotqa_train_corpus.json.`)
  }

  const demo = await workspace(`\nDemo world (seed 1, size ${DEMO_SIZE})`, { kind: 'demo', seed: 1, size: DEMO_SIZE })
  try {
    await stepTable(`the demo world, size ${DEMO_SIZE}`, demo.ctx, loadQuestions(demo.db.raw, QUESTIONS))
  } finally {
    await demo.cleanup()
  }
}

main().catch((err) => {
  console.error(err)
  process.exit(1)
})
