/**
 * Graph quality and what it does to Harness-G: npx tsx bench/graph-recall.ts [--questions N] [--demo-size S]
 *
 * For HotpotQA-train100 (../shared, skipped when absent) and the demo world (seed 1):
 * - entities, and how many canonical names appear under more than one type (duplicates by type);
 * - entities typed by a part-of-speech tag only (PROPN / NAME) and value hubs (value entities with
 *   >= 50 mentioned sentences);
 * - graph-menu supporting-fact recall of the greedy and oracle policies (mean over questions).
 * Run it on the code before and after a change to the graph builder: the figures are deterministic.
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import type SQLite from 'better-sqlite3'
import { workspaceMigrations } from '../main/db/migrations'
import { openDatabase } from '../main/db/open'
import { mean, supportingFactScore } from '../main/eval'
import { createEnvironment, envCorpus, environmentContext, environmentFactory, runEpisode, type EnvQuestion } from '../main/harness'
import { createScriptedPolicy } from '../main/policy/scripted'
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
const DEMO_SIZE = flag('demo-size', 3)
const HUB_SENTENCES = 50

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

function graphQuality(raw: SQLite.Database): Record<string, number> {
  const n = (sql: string): number => Number(raw.prepare(sql).pluck().get() ?? 0)
  return {
    entities: n('select count(*) from entities'),
    'names under >1 type': n('select count(*) from (select canonical from entities group by canonical having count(*) > 1)'),
    'POS-typed (PROPN)': n("select count(*) from entities where type = 'PROPN'"),
    'untyped (NAME)': n("select count(*) from entities where type = 'NAME'"),
    'lookup targets': n('select count(*) from entities where lookup_ok = 1'),
    [`value hubs (>=${HUB_SENTENCES} sentences)`]: n(
      `select count(*) from (select e.id from entities e join mentions m on m.entity_id = e.id
        where e.type in ('DATE','TIME','CARDINAL','ORDINAL','QUANTITY','PERCENT','MONEY') group by e.id having count(distinct m.sentence_id) >= ${HUB_SENTENCES})`,
    ),
  }
}

async function measure(label: string, source: IngestSource): Promise<void> {
  const tmp = tempDir('harness-graph-recall-')
  const db = await openDatabase(join(tmp.dir, 'workspace.db'), workspaceMigrations)
  try {
    await runIngest(db.raw, source, defaultIngestOptions(), quiet)
    const ctx = environmentContext(db.raw)
    const corpus = envCorpus(ctx)
    const questions = loadQuestions(db.raw, QUESTIONS)
    const facts = (ids: readonly number[]) => ids.map((id) => ({ title: corpus.sentence(id)!.title, sentence: corpus.sentence(id)!.ord }))
    const env = createEnvironment('graph-menu', ctx)
    const protocol = environmentFactory('graph-menu').protocol
    const recall: Record<string, number> = {}
    const lookups: Record<string, number> = {}
    for (const policy of ['greedy', 'oracle']) {
      const r: number[] = []
      let lookupSteps = 0
      for (const [i, q] of questions.entries()) {
        const t = await runEpisode(env, createScriptedPolicy(policy, protocol), q, i, { snapshots: false })
        r.push(supportingFactScore(facts(t.outcome.evidence.sentenceIds ?? []), q.supportingFacts).recall)
        lookupSteps += t.steps.filter((s) => s.action.kind === 'menu' && s.action.id.startsWith('L')).length
      }
      recall[policy] = +mean(r).toFixed(4)
      lookups[policy] = lookupSteps
    }
    console.log(`\n${label} (${questions.length} questions)`)
    console.table({ ...graphQuality(db.raw), 'greedy sf recall': recall.greedy!, 'oracle sf recall': recall.oracle!, 'greedy LOOKUP steps': lookups.greedy!, 'oracle LOOKUP steps': lookups.oracle! })
  } finally {
    await db.close()
    tmp.cleanup()
  }
}

async function main(): Promise<void> {
  const questionsFile = join(DATA, 'hotpotqa_train.json')
  const corpusFile = join(DATA, 'hotpotqa_train_corpus.json')
  if (existsSync(questionsFile) && existsSync(corpusFile)) await measure('HotpotQA-train100', { kind: 'benchmark', benchmark: 'hotpotqa', questionsFile, corpusFile })
  else console.log(`Skipping HotpotQA-train100: ${DATA} does not hold hotpotqa_train.json and hotpotqa_train_corpus.json.`)
  await measure(`Demo world (seed 1, size ${DEMO_SIZE})`, { kind: 'demo', seed: 1, size: DEMO_SIZE })
}

main().catch((err) => {
  console.error(err)
  process.exit(1)
})
