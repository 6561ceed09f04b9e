/**
 * Generated questions: yields, drops by reason and the acceptance figures, no LLM.
 *   npm run bench:questions [-- --runs N --seed N --sample N]
 * Ingests three corpora from ../shared (read in place; each skipped when absent) into temporary
 * workspaces: wikipedia-md-300 (the corpus the checks were built on), the nq17-wiki1000 passages
 * (1,000 DPR Wikipedia passages, a corpus they were not tuned on) and the sec-filings markdown; then
 * generates bridge and comparison questions with every check on (no cap) and keeps those whose answer
 * is not in the question. Generation time is the median of N runs, beside the same corpus's ingest
 * time measured in the same run (the machine is shared: read the ratio).
 *
 * Per corpus, on the kept questions (main/questions/generate/measure.ts), beside HotpotQA-train100's
 * imported questions measured the same way in the same run:
 *   kept / candidates, and every dropped candidate by reason;
 *   unique: share of kept bridge questions whose own words lead to one answer, the gold, through the
 *     gold sentence (the uniqueness check, reading the question's text; goal >= 95 %), and how many
 *     read "Another article mentions the same" (goal 0);
 *   ref/list gold: share with a gold sentence the evidence test reads as a reference, list or markup
 *     line, end matter or a list page's line (goal <= 2 %; on HotpotQA, whose gold annotators chose,
 *     it measures the test's false alarms);
 *   quoting (>= 50 % of a gold sentence's content words; goal 0), BM25 all-gold@10 (the question alone
 *     ranks every gold document in the top 10; goal below 80 %: the set still needs search), stop-phrase
 *     answers (goal 0);
 *   greedy and oracle SP F1 (graph-menu, default budgets) on a seeded sample of N kept questions.
 * Then the evidence test against hand labels (test/fixtures/questions/evidence-sample.json: sentences
 * of each corpus labelled prose or not by reading them, in their documents), and the entity-type
 * precision on its hand-labelled sample (test/fixtures/questions/entity-type-sample.json).
 */
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type SQLite from 'better-sqlite3'
import { workspaceMigrations } from '../main/db/migrations'
import { openDatabase } from '../main/db/open'
import { mean } from '../main/eval'
import { EvidenceResolver } from '../main/experiments/metrics/evidence'
import { scriptedPolicyFor } from '../main/experiments/scripted-policy'
import { loadQuestions } from '../main/experiments/questions'
import { scoreEpisode } from '../main/experiments/metrics/score'
import { seededRandom } from '../main/eval/bootstrap'
import { createEnvironment, environmentContext, runEpisode, type EnvQuestion } from '../main/harness'
import { defaultIngestOptions, runIngest } from '../main/ingest/run'
import type { IngestSource } from '../main/ingest/sources'
import { bridgeFigures, confidentType, generateCandidates, questionFigures, selectGenerated, type BridgeFigures, type MeasuredQuestion, type QuestionFigures } from '../main/questions'
import { corpusRepositories } from '../main/corpus/repository'
import { CorpusView } from '../main/questions/generate/corpus-view'
import { shuffle } from '../main/questions/generate/bridge'
import type { GeneratedQuestion } from '../main/questions'
import { sharedPath } from './support/shared-data'
import { tempDir } from './support/services'

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`)
  const v = i >= 0 ? Number(process.argv[i + 1]) : NaN
  return Number.isFinite(v) && v >= 0 ? v : fallback
}

const RUNS = arg('runs', 3)
const SEED = arg('seed', 1)
const SAMPLE = arg('sample', 50)
const NQ = sharedPath('data/nq17-wiki1000')
const CORPORA: { name: string; present: string; source: IngestSource }[] = [
  { name: 'wikipedia-md-300', present: sharedPath('data/wikipedia-md-300/pages'), source: { kind: 'folder', path: sharedPath('data/wikipedia-md-300/pages') } },
  {
    name: 'nq17-wiki1000',
    present: join(NQ, 'wiki_dpr_sample_1000.jsonl'),
    source: { kind: 'benchmark', benchmark: 'flashrag', corpusFile: join(NQ, 'wiki_dpr_sample_1000.jsonl'), questionsFile: join(NQ, 'nq_test.jsonl') },
  },
  { name: 'sec-filings', present: sharedPath('data/sec-filings/markdown'), source: { kind: 'folder', path: sharedPath('data/sec-filings/markdown') } },
]
const HOTPOT = sharedPath('data/hotpotqa-train100')
const ENTITY_SAMPLE = join(import.meta.dirname, '../test/fixtures/questions/entity-type-sample.json')
const EVIDENCE_SAMPLE = join(import.meta.dirname, '../test/fixtures/questions/evidence-sample.json')
const quiet = { progress: () => undefined, throwIfCancelled: () => undefined }

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
const pct = (x: number): string => `${(x * 100).toFixed(1)}%`

interface Row {
  set: string
  yieldText: string
  figures: QuestionFigures
  bridges: BridgeFigures | null
  greedy: number
  oracle: number
  sampled: number
}
const rows: Row[] = []
/** Per corpus, the view the evidence labels are checked in. */
const views = new Map<string, { raw: SQLite.Database; view: CorpusView }>()
/** Closed at the end (the evidence labels are read in them last). */
const opened: { close(): Promise<void> }[] = []

const measured = (q: GeneratedQuestion): MeasuredQuestion => ({ question: q.question, answers: q.answers, goldSentenceIds: q.gold.map((g) => g.sentenceId), goldDocumentIds: [...new Set(q.gold.map((g) => g.documentId))] })

/** Mean SP F1 of greedy and of the oracle (graph-menu, default budgets) on a seeded sample of the questions. */
async function spF1(raw: SQLite.Database, questions: readonly EnvQuestion[]): Promise<{ greedy: number; oracle: number; sampled: number }> {
  const env = createEnvironment('graph-menu', environmentContext(raw))
  const evidence = new EvidenceResolver(raw)
  // Gold resolved by document and sentence id, as loaded questions carry it (the oracle follows it; titles alone repeat in a passage corpus).
  const sample = shuffle([...questions], seededRandom(SEED))
    .slice(0, SAMPLE)
    .map((q) => ({ ...q, gold: q.gold ?? evidence.gold(q) }))
  const out = { greedy: 0, oracle: 0, sampled: sample.length }
  for (const name of ['greedy', 'oracle'] as const) {
    const policy = scriptedPolicyFor(name, 'graph-menu', raw)
    const scores: number[] = []
    for (const [i, q] of sample.entries()) {
      const { outcome } = await runEpisode(env, policy, q, i, { snapshots: false })
      scores.push(scoreEpisode(q, outcome, '', evidence)['sp.f1'] ?? 0)
    }
    out[name] = mean(scores)
  }
  return out
}

async function generated(tmpDir: string): Promise<void> {
  for (const corpus of CORPORA) {
    if (!existsSync(corpus.present)) {
      console.log(`${corpus.name}: skipped, ${corpus.present} is absent (the project's ../shared data folder)`)
      continue
    }
    const db = await openDatabase(join(tmpDir, `${corpus.name}.db`), workspaceMigrations)
    opened.push(db)
    const t0 = performance.now()
    await runIngest(db.raw, corpus.source, defaultIngestOptions(), quiet)
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
    const { kept, result } = selectGenerated(candidates, { maxPerKind: 100_000, answerNotInQuestion: true })
    console.log(`\n${corpus.name}: ${docs} documents, ${sentences} sentences, ${entities} named entities; ingest ${ingestS.toFixed(1)} s`)
    console.log(`  generation (seed ${SEED}, every check on): median ${(median(times) * 1000).toFixed(0)} ms over ${RUNS} runs = ${((median(times) / ingestS) * 100).toFixed(1)}% of the ingest time`)
    const kinds = ['bridge', 'comparison']
    console.log(`  ${'kind'.padEnd(12)} ${'candidates'.padStart(10)} ${'kept'.padStart(6)}  dropped by reason`)
    for (const kind of kinds) {
      const reasons = Object.entries(result.dropped)
        .filter(([, by]) => (by[kind] ?? 0) > 0)
        .map(([reason, by]) => `${reason} ${by[kind]}`)
      console.log(`  ${kind.padEnd(12)} ${String(result.candidates[kind] ?? 0).padStart(10)} ${String(result.kept[kind] ?? 0).padStart(6)}  ${reasons.join(', ') || '-'}`)
    }
    for (const form of [...new Set(kept.map((q) => q.form))].sort()) {
      const q = kept.find((x) => x.form === form)!
      console.log(`  e.g. [${q.form}] ${q.question.length > 300 ? `${q.question.slice(0, 297)}...` : q.question}  => ${q.answers[0]}`)
    }
    const all = kept.map(measured)
    const bridges = kept.filter((q) => q.kind === 'bridge').map(measured)
    const env = (q: GeneratedQuestion, i: number): EnvQuestion => ({ id: String(i), question: q.question, answers: q.answers, supportingFacts: q.gold.map((g) => ({ title: g.title, sentence: g.ord })), supportingDocs: [...new Set(q.gold.map((g) => g.externalId))] })
    const yieldText = kinds.map((k) => `${result.kept[k] ?? 0}/${result.candidates[k] ?? 0}`).join(' + ')
    rows.push({ set: `${corpus.name} generated`, yieldText, figures: questionFigures(db.raw, all), bridges: bridgeFigures(db.raw, bridges), ...(await spF1(db.raw, kept.map(env))) })
    views.set(corpus.name, { raw: db.raw, view: new CorpusView(corpusRepositories(db.raw).questionGeneration) })
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
  opened.push(db)
  await runIngest(db.raw, { kind: 'benchmark', benchmark: 'hotpotqa', questionsFile, corpusFile }, defaultIngestOptions(), quiet)
  const loaded = loadQuestions(db.raw, { questionSetId: 1, limit: 1000 })
  const qs = loaded.map((q) => ({ question: q.question, answers: q.answers, goldSentenceIds: q.gold!.sentenceIds, goldDocumentIds: q.gold!.documentIds }))
  rows.push({ set: 'HotpotQA-train100 (imported)', yieldText: '-', figures: questionFigures(db.raw, qs), bridges: null, ...(await spF1(db.raw, loaded)) })
  views.set('hotpotqa-train100', { raw: db.raw, view: new CorpusView(corpusRepositories(db.raw).questionGeneration) })
}

interface EvidenceLabel {
  corpus: string
  /** The document's external id (passages of one article share a title). */
  document: string
  title: string
  ord: number
  text: string
  /** Hand label: prose a question may use as gold, or not (a reference, list or markup line, a heading, a fragment). */
  prose: boolean
}

/** The evidence test against the hand labels, per corpus: how many non-prose lines it catches, and how much prose it keeps. */
function evidenceAccuracy(): void {
  if (!existsSync(EVIDENCE_SAMPLE)) return void console.log(`\nEvidence test: skipped, ${EVIDENCE_SAMPLE} is absent`)
  const items = (JSON.parse(readFileSync(EVIDENCE_SAMPLE, 'utf8')) as { items: EvidenceLabel[] }).items
  console.log(`\nEvidence test against hand labels (${items.length} sentences, each read in its document):`)
  console.log(`  ${'corpus'.padEnd(20)} ${'labelled'.padStart(8)} ${'not prose'.padStart(10)} ${'caught'.padStart(14)} ${'prose'.padStart(6)} ${'kept as prose'.padStart(14)}`)
  for (const corpus of [...new Set(items.map((x) => x.corpus))]) {
    const at = views.get(corpus)
    if (!at) continue
    const lookup = at.raw.prepare('select s.id from sentences s join documents d on d.id = s.document_id where d.external_id = ? and s.ord = ?').pluck()
    const of = items.filter((x) => x.corpus === corpus)
    const flagged = (x: EvidenceLabel): boolean => {
      const id = lookup.get(x.document, x.ord) as number | undefined
      if (id === undefined) throw new Error(`${EVIDENCE_SAMPLE}: no sentence ${x.ord} of "${x.title}" in ${corpus}`)
      return at.view.flaw(id) !== null
    }
    const bad = of.filter((x) => !x.prose)
    const good = of.filter((x) => x.prose)
    const caught = bad.filter(flagged).length
    const kept = good.filter((x) => !flagged(x)).length
    console.log(`  ${corpus.padEnd(20)} ${String(of.length).padStart(8)} ${String(bad.length).padStart(10)} ${`${caught} (${pct(caught / Math.max(1, bad.length))})`.padStart(14)} ${String(good.length).padStart(6)} ${`${kept} (${pct(kept / Math.max(1, good.length))})`.padStart(14)}`)
  }
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
  if (!existsSync(ENTITY_SAMPLE)) return void console.log(`Entity-type precision: skipped, ${ENTITY_SAMPLE} is absent`)
  const items = (JSON.parse(readFileSync(ENTITY_SAMPLE, 'utf8')) as { items: SampleItem[] }).items
  const precision = (xs: SampleItem[]): string => `${(xs.filter((x) => x.correct).length / Math.max(1, xs.length)).toFixed(3)} (${xs.filter((x) => x.correct).length}/${xs.length})`
  const unique = [...new Map(items.map((x) => [`${x.corpus}\u0000${x.name}\u0000${x.type}`, x])).values()]
  console.log(`\nEntity-type precision on the hand-labelled sample (${items.length} labels):`)
  console.log(`  every typed bridge entity (the generator before the type filter): ${precision(items.filter((x) => x.drawnFrom === 'all'))}`)
  console.log(`  those generation keeps now (confidentType):                      ${precision(unique.filter((x) => confidentType(x.name, x.type)))}   goal >= 0.9`)
}

async function main(): Promise<void> {
  const tmp = tempDir('harness-lab-bench-questions-')
  try {
    await generated(tmp.dir)
    await hotpot(tmp.dir)
    console.log(`\nAcceptance figures (kept questions; answer filter on; SP F1 on a seeded sample of ${SAMPLE}):`)
    const head = ['set', 'kept/cand (bridge + comp.)', 'n', 'unique bridge', '"Another article"', 'ref/list gold', 'quoting', 'BM25 all-gold@10', 'stop', 'greedy SP F1', 'oracle SP F1']
    console.log(`  ${head.join(' | ')}`)
    for (const r of rows) {
      const b = r.bridges
      const cells = [
        r.set,
        r.yieldText,
        String(r.figures.questions),
        b ? `${pct(b.unique / Math.max(1, b.bridges))} (${b.unique}/${b.bridges})` : '-',
        b ? String(b.unnamedSecondHop) : '-',
        pct(r.figures.referenceGold),
        pct(r.figures.quoting),
        pct(r.figures.bm25AllGold),
        pct(r.figures.stopPhraseAnswers),
        `${r.greedy.toFixed(3)} (n=${r.sampled})`,
        r.oracle.toFixed(3),
      ]
      console.log(`  ${cells.join(' | ')}`)
    }
    console.log('  goals: unique bridge >= 95 %, no "Another article", ref/list gold <= 2 %, quoting 0, BM25 all-gold@10 < 80 %, stop 0')
    evidenceAccuracy()
    entityTypePrecision()
  } finally {
    for (const db of opened) await db.close()
    tmp.cleanup()
  }
}

await main()
