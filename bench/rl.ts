/**
 * Short RL runs on this machine: seconds per training step (G rollouts × Q questions) and rollouts per
 * second per environment beside the greedy scripted policy's episodes per second measured in the same run,
 * then held-out figures of the head before and after training for each variant, with paired bootstrap CIs,
 * against the scripted baseline (greedy on the sentence substrate, scripted-tools on Harness-1) and the
 * untrained head's argmax.
 *
 * Variants: `defaults` (graph-menu as the Training page trains it by default: 30 steps, G 8 x Q 16, SNC, the
 * oracle warm start; only the splits and the seed are set), graph-menu with SNC (lambda 0.5), SNC with credit
 * for stopping (`snc-stop`) and outcome-only credit, free-query with outcome credit, and
 * Harness-1 (`stateful`, outcome credit) with the published Harness-1 reward (`stateful`) and without its
 * tool-diversity terms (`stateful+nodiv`: harness1Weights diversity 0, toolShortfall 0). Harness-1 rows
 * report the tool mix of training (mean actionMix of the first and last steps' diagnostics) and of the
 * greedy head on the held-out split, and held-out curated recall (paragraph.recall), curated F-beta and
 * reward. evaluateHead scores with scoreEpisode, which has the recalls but no reward, so the bench
 * replays the same greedy episodes of the untrained head (same init as the run) and of the trained one
 * (the run's last checkpoint) with the Harness-1 rewarder: `harness1.reward` under the variant's own
 * weights, `harness1.rewardPublished` under the published ones; it checks that its recalls equal
 * evaluateHead's.
 *
 * Suites: the demo world (held-out = the last min(128, n/4) questions by id), and HotpotQA-train100 from
 * ../shared/data/hotpotqa-train100 when present (ingested like bench/env.ts; train = the first 50
 * questions by id, held-out = the last 50), skipped with a message when absent.
 *
 * Seeds: each variant trains once per seed 1..RL_SEEDS. Per-seed lines carry "seed k"; with several seeds
 * a "mean of N seeds" line per metric follows, and the `learn:` lines are over the seed means per
 * held-out question (bootstrap over questions); with one seed they are that seed's figures.
 *
 * Curves: per variant and seed, the training diagnostics' reward, zero-advantage rate, retrieval-equivalence
 * classes per group (N_eq), share of groups spanning more than one class (D_ret) and entropy, summarised as
 * their values at the first step, the quartiles of the run and the last step. On a suite with the menu
 * variants, `learn: <suite>graph-menu snc-vs-outcome sp.f1 ...` (and snc-stop-vs-outcome, snc-stop-vs-snc,
 * for SP F1 and the evidence count) pair the credit (after) against the reference (before) per held-out question.
 *
 * Env: RL_STEPS (default 60; the sentence-substrate variants), RL_STEPS_H1 (default 20; the Harness-1 variants), RL_SEEDS (default 1), RL_DEMO_SIZE (default 6: over 500 questions),
 * RL_SUITES (default "demo,hotpotqa"), RL_VARIANTS (labels, default all: defaults, graph-menu+snc,
 * graph-menu+snc-stop, graph-menu, free-query, stateful, stateful+nodiv), HOTPOTQA_DIR (default ../shared/data/hotpotqa-train100),
 * RL_CONFIG (JSON merged into every run's training config, for sweeps: e.g. '{"learningRate":0.05}'),
 * RL_HOTPOT_HELDOUT (held-out size of the HotpotQA suite, default half of its questions).
 * Credit quality (issue 30): after seed 1 of each suite's first graph-menu run other than `defaults`, the rollouts of its first
 * RL_CREDIT_STEPS steps (default 2; 0 skips) are re-credited by every scheme with both offline stand-ins
 * (lexical, support) and judged against gold (runCreditQuality). RL_ANSWERER (lexical, the default, or
 * support) is the stand-in the runs themselves train with.
 *
 * Ends with machine-readable lines (suite prefix "hotpotqa/" on the environment for the HotpotQA suite):
 *   vs-greedy: head graph-menu <demo|hotpotqa> diff <d> CI [<lo>, <hi>] (the `defaults` variant against greedy, SP F1)
 *   credit-auc: <scheme>[:<part>] <suite> <auc> [<lo>, <hi>] scorer <stand-in> mean <m>
 *   advantage-auc: <scheme> <suite> <auc> [<lo>, <hi>] scorer <stand-in> mean <m> zero-advantage groups <z>
 *   learn: <environment> <credit> <metric> before <x> after <y> diff <d> CI [<lo>, <hi>]
 *   step: <environment> <seconds> s/step <r> rollouts/s greedy <g> episodes/s
 *   storage: <environment> <k> KiB/rollout
 */
import type SQLite from 'better-sqlite3'
import { comparePaired } from '../main/eval'
import { createEnvironment, environmentContext, environmentFactory, runEpisode, type Environment } from '../main/harness'
import { runCreditQuality, runTraining, TrainingStore, type CreditQualityReport, type HeldOutResult } from '../main/experiments/training'
import { EvidenceResolver } from '../main/experiments/metrics/evidence'
import { loadQuestions, type StoredQuestion } from '../main/experiments/questions'
import { rewarderFor } from '../main/experiments/metrics/rewards'
import { scoreEpisode } from '../main/experiments/metrics/score'
import { LexicalAnswerer } from '../main/policy/answerer/lexical-answerer'
import { SupportAnswerer } from '../main/policy/answerer/support-answerer'
import { createHead, restoreHead, type PolicyHead } from '../main/policy/head'
import { candidateBuilder, HeadPolicy, headInputDim } from '../main/policy/head-policy'
import { createScriptedPolicy } from '../main/policy/scripted'
import type { TrainConfigInput } from '../main/rl/trainer'
import { fmt, rows, seedMean, type Rows } from './support/rl-figures'
import { demoSuite, hotpotSuite } from './support/rl-suites'

const STEPS = Number(process.env.RL_STEPS ?? 60)
// Harness-1 steps cost about six times a graph-menu step (16 s on 2 cores), so its runs are shorter.
const STEPS_H1 = Number(process.env.RL_STEPS_H1 ?? 20)
const SEEDS = Number(process.env.RL_SEEDS ?? 1)
const SIZE = Number(process.env.RL_DEMO_SIZE ?? 6)
const SUITES = new Set((process.env.RL_SUITES ?? 'demo,hotpotqa').split(',').map((s) => s.trim()))
const HOTPOT_HELDOUT = process.env.RL_HOTPOT_HELDOUT ? Number(process.env.RL_HOTPOT_HELDOUT) : null
const GROUP = 8
const OVERRIDES = JSON.parse(process.env.RL_CONFIG ?? '{}') as Partial<TrainConfigInput>
const QUESTIONS_PER_STEP = 16
// Credit quality is measured on the rollouts of the first RL_CREDIT_STEPS steps of the suite's first menu run (seed 1).
const CREDIT_STEPS = Number(process.env.RL_CREDIT_STEPS ?? 2)
// RL_ANSWERER: the offline stand-in that scores evidence for rewards and credit (lexical, the default, or support).
const ANSWERER = process.env.RL_ANSWERER ?? 'lexical'
if (ANSWERER !== 'lexical' && ANSWERER !== 'support') throw new Error(`RL_ANSWERER must be lexical or support, got "${ANSWERER}"`)
const answerer = ANSWERER === 'support' ? new SupportAnswerer() : new LexicalAnswerer()
const lines: string[] = []

type RewardInput = NonNullable<TrainConfigInput['reward']>

interface Variant {
  label: string
  environment: string
  credit: string
  lambda: number
  reward?: RewardInput
  /** The environment token of the `learn:` lines. */
  learnAs: string
  /** Train with the Training page's defaults (steps, G, Q, credit, warm start: only the splits and the seed are set). */
  defaults?: boolean
}

const H1_PUBLISHED = { weights: { harness1: 1 } }
const H1_NO_DIVERSITY = { weights: { harness1: 1 }, harness1Weights: { diversity: 0, toolShortfall: 0 } }

const ALL_VARIANTS: Variant[] = [
  { label: 'defaults', environment: 'graph-menu', credit: 'snc', lambda: 0.5, learnAs: 'graph-menu', defaults: true },
  { label: 'graph-menu+snc', environment: 'graph-menu', credit: 'snc', lambda: 0.5, learnAs: 'graph-menu' },
  { label: 'graph-menu+snc-stop', environment: 'graph-menu', credit: 'snc-stop', lambda: 0.5, learnAs: 'graph-menu' },
  { label: 'graph-menu', environment: 'graph-menu', credit: 'outcome', lambda: 0, learnAs: 'graph-menu' },
  { label: 'free-query', environment: 'free-query', credit: 'outcome', lambda: 0, learnAs: 'free-query' },
  { label: 'stateful', environment: 'stateful', credit: 'outcome', lambda: 0, reward: H1_PUBLISHED, learnAs: 'stateful' },
  { label: 'stateful+nodiv', environment: 'stateful', credit: 'outcome', lambda: 0, reward: H1_NO_DIVERSITY, learnAs: 'stateful+nodiv' },
]
const wanted = process.env.RL_VARIANTS ? new Set(process.env.RL_VARIANTS.split(',').map((s) => s.trim())) : null
const VARIANTS = ALL_VARIANTS.filter((v) => !wanted || wanted.has(v.label))

const isH1 = (v: Variant) => environmentFactory(v.environment).protocol === 'harness1-tools'
const G_METRICS = ['sp.f1', 'sp.recall', 'sp.precision', 'sp.allGold', 'evidence.count']
const G_LEARN = ['sp.f1']
const H1_METRICS = ['paragraph.recall', 'harness1.curatedFBeta', 'harness1.reward', 'harness1.rewardPublished', 'harness1.answerRecall', 'paragraph.trajectoryRecall', 'evidence.count', 'turns']
const H1_LEARN = ['paragraph.recall', 'harness1.curatedFBeta', 'harness1.reward']

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN
const mix = (m: Record<string, number>) =>
  Object.entries(m)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .map(([k, v]) => `${k} ${v.toFixed(3)}`)
    .join(', ') || '(none)'

/** Per-question metrics with the Harness-1 reward terms of an episode (published and the variant's weights) and its tools. */
async function scoreH1(raw: SQLite.Database, q: StoredQuestion, outcome: Parameters<typeof scoreEpisode>[1], evidence: EvidenceResolver, reward: RewardInput | undefined) {
  const answer = outcome.answer ?? (await answerer.answer(q.question, evidence.evidenceTexts(outcome)))
  const m = scoreEpisode(q, outcome, answer, evidence)
  m['evidence.count'] = (outcome.evidence.chunkIds ?? outcome.evidence.sentenceIds ?? []).length
  m['harness1.reward'] = rewarderFor('harness1', raw, reward?.harness1Weights ?? {})!(q, outcome)['reward.total'] ?? null
  m['harness1.rewardPublished'] = rewarderFor('harness1', raw)!(q, outcome)['reward.total'] ?? null
  return { answer, metrics: m }
}

/** The scripted baseline on the held-out split: greedy (sentence substrate) or scripted-tools (Harness-1). */
async function baselineHeldOut(raw: SQLite.Database, v: Variant, questions: StoredQuestion[]): Promise<{ result: HeldOutResult; episodesPerSecond: number; name: string }> {
  const env = createEnvironment(v.environment, environmentContext(raw))
  const protocol = environmentFactory(v.environment).protocol
  const name = protocol === 'harness1-tools' ? 'scripted-tools' : 'greedy'
  const policy = createScriptedPolicy(name, protocol)
  const evidence = new EvidenceResolver(raw)
  const perQuestion: HeldOutResult['perQuestion'] = {}
  const t0 = performance.now()
  for (const q of questions) {
    const t = await runEpisode(env, policy, q, 1, {
      snapshots: false,
      previews: protocol !== 'harness1-tools',
      finish: async (_e, o) => {
        if (protocol === 'harness1-tools') return scoreH1(raw, q, o, evidence, v.reward)
        const answer = o.answer ?? (await answerer.answer(q.question, evidence.evidenceTexts(o)))
        const m = scoreEpisode(q, o, answer, evidence)
        m['evidence.count'] = (o.evidence.sentenceIds ?? []).length
        if (m['sp.recall'] !== undefined) m['sp.allGold'] = m['sp.recall'] === 1 ? 1 : 0
        return { answer, metrics: m }
      },
    })
    perQuestion[String(q.rowId)] = t.metrics
  }
  return { result: { aggregates: {} as HeldOutResult['aggregates'], perQuestion }, episodesPerSecond: questions.length / ((performance.now() - t0) / 1000), name }
}

/**
 * The greedy head on the held-out split with the Harness-1 reward: the same episodes evaluateHead plays
 * (same head, same per-question seeds), plus the reward and the tools each greedy episode used.
 */
async function headH1HeldOut(raw: SQLite.Database, env: Environment, head: PolicyHead, questions: StoredQuestion[], seed: number, v: Variant) {
  const evidence = new EvidenceResolver(raw)
  const policy = new HeadPolicy(head, candidateBuilder('harness1-tools'), { mode: 'greedy' })
  const perQuestion: Record<string, Record<string, number | null>> = {}
  const tools: Record<string, number> = {}
  let steps = 0
  for (const q of questions) {
    const t = await runEpisode(env, policy, q, (seed * 1_000_003 + q.rowId) >>> 0, { snapshots: false, finish: (_e, o) => scoreH1(raw, q, o, evidence, v.reward) })
    for (const s of t.steps) {
      if (s.action.kind !== 'tool' || !s.info.valid) continue
      tools[s.action.name] = (tools[s.action.name] ?? 0) + 1
      steps++
    }
    perQuestion[String(q.rowId)] = t.metrics
  }
  for (const k of Object.keys(tools)) tools[k]! /= Math.max(1, steps)
  return { perQuestion, tools }
}

/** Mean actionMix over a range of stored steps' diagnostics. */
function meanMix(diagnostics: { diagnostics: unknown }[]): Record<string, number> {
  const out: Record<string, number> = {}
  for (const d of diagnostics) for (const [k, v] of Object.entries((d.diagnostics as { actionMix?: Record<string, number> }).actionMix ?? {})) out[k] = (out[k] ?? 0) + v / diagnostics.length
  return out
}

/** A diagnostic's curve over the run: first step, quartiles, last step. */
function curve(diagnostics: { diagnostics: unknown }[], key: string): string {
  const xs = diagnostics.map((d) => (d.diagnostics as Record<string, unknown>)[key]).map((x) => (typeof x === 'number' ? x : NaN))
  if (xs.length === 0) return '(none)'
  const at = [0, 0.25, 0.5, 0.75, 1].map((q) => Math.round(q * (xs.length - 1)))
  return at.map((i) => `${i}:${fmt(xs[i])}`).join(' ')
}

/** Credit-quality figures of one suite: per signal its AUC with CI, group variance, zero-advantage share, and slices by type and hops. */
function printCreditQuality(label: string, prefix: string, q: CreditQualityReport) {
  const suiteName = prefix ? prefix.replace(/\/$/, '') : 'demo'
  console.log(`\ncredit quality, ${label}: run #${q.runId} steps ${q.fromStep}..${q.toStep}, ${q.questions} groups, ${q.rollouts} rollouts (${q.skipped} skipped), answerer ${q.answerer}${q.standIn ? ' (stand-in)' : ''}, lambda ${q.lambda}`)
  const slices = (r: Record<string, { auc: number | null; positives: number; negatives: number }>) => Object.entries(r).map(([k, x]) => `${k} ${fmt(x.auc)} (${x.positives}+/${x.negatives}-)`).join(', ')
  for (const [name, s] of Object.entries(q.signals)) {
    console.log(`  ${name}: AUC ${fmt(s.auc)} [${fmt(s.ci?.lower)}, ${fmt(s.ci?.upper)}]${s.constant ? ' CONSTANT (ranks nothing)' : ''}, ${s.positives} gold-path / ${s.negatives} other steps, mean ${fmt(s.mean)}, group variance ${fmt(s.groupVariance)}, zero-advantage groups ${fmt(s.zeroGroupShare)}; by type: ${slices(s.byType)}; by hops: ${slices(s.byHops)}`)
    const tail = ` scorer ${q.answerer.replace(/ /g, '-')} mean ${fmt(s.mean)}`
    if (name.endsWith(':credit')) lines.push(`credit-auc: ${name.slice(0, -':credit'.length)} ${suiteName} ${fmt(s.auc)} [${fmt(s.ci?.lower)}, ${fmt(s.ci?.upper)}]${tail}${s.constant ? ' (constant: all steps equal)' : ''}`)
    else if (!name.includes(':')) lines.push(`advantage-auc: ${name} ${suiteName} ${fmt(s.auc)} [${fmt(s.ci?.lower)}, ${fmt(s.ci?.upper)}]${tail} zero-advantage groups ${fmt(s.zeroGroupShare)}`)
    else lines.push(`credit-auc: ${name} ${suiteName} ${fmt(s.auc)} [${fmt(s.ci?.lower)}, ${fmt(s.ci?.upper)}]${tail}`)
  }
}

async function suite(label: string, prefix: string, raw: SQLite.Database, setId: number, total: number, heldOutSize: number) {
  const heldOut = { questionSetId: setId, offset: total - heldOutSize, limit: heldOutSize }
  const train = { questionSetId: setId, offset: 0, limit: total - heldOutSize }
  console.log(`\n== ${label}: ${train.limit} train (the first ${train.limit} by id) / ${heldOut.limit} held-out questions (the last ${heldOut.limit} by id), ${STEPS} steps (Harness-1: ${STEPS_H1}), ${SEEDS} seed(s), ${GROUP} rollouts x ${QUESTIONS_PER_STEP} questions per step`)
  const heldOutQuestions = loadQuestions(raw, { questionSetId: setId, offset: heldOut.offset, limit: heldOut.limit })
  const afterOf = new Map<string, Rows>()
  let creditMeasured = false
  for (const v of VARIANTS) {
    const h1 = isH1(v)
    const t0 = performance.now()
    const baseline = await baselineHeldOut(raw, v, heldOutQuestions)
    const metrics = h1 ? H1_METRICS : G_METRICS
    const perSeed: { before: Rows; after: Rows; seed: number }[] = []
    let stepsRun = 0
    for (let seed = 1; seed <= SEEDS; seed++) {
      const seconds: number[] = []
      const input = v.defaults
        ? { environment: v.environment, seed, train, heldOut, ...OVERRIDES }
        : {
            environment: v.environment, steps: h1 ? STEPS_H1 : STEPS, groupSize: GROUP, questionsPerStep: QUESTIONS_PER_STEP, evalInterval: Math.max(h1 ? STEPS_H1 : STEPS, 1), seed,
            credit: { scheme: v.credit, lambda: v.lambda }, train, heldOut, ...(v.reward ? { reward: v.reward } : {}), ...OVERRIDES,
          }
      const r = await runTraining(raw, input, { answerer, appVersion: 'bench', jobId: null, progress: () => {}, throwIfCancelled: () => {}, onStep: (_s, d) => seconds.push(d.seconds as number) })
      const steps = r.config.steps
      stepsRun = steps
      if (seed === 1 && !creditMeasured && v.environment === 'graph-menu' && !v.defaults && CREDIT_STEPS > 0) {
        creditMeasured = true
        // Both offline stand-ins credit the same rollouts, so their figures are paired too.
        for (const scorer of [new LexicalAnswerer(), new SupportAnswerer()]) {
          printCreditQuality(label, prefix, await runCreditQuality(raw, r.runId, scorer, { fromStep: 0, toStep: Math.min(steps, CREDIT_STEPS) - 1 }))
        }
      }
      const sPerStep = median(seconds)
      const rolloutsPerSecond = (r.config.groupSize * r.config.questionsPerStep) / sPerStep
      if (seed === 1) {
        lines.push(`step: ${prefix}${v.label} ${sPerStep.toFixed(2)} s/step ${rolloutsPerSecond.toFixed(1)} rollouts/s greedy ${baseline.episodesPerSecond.toFixed(1)} episodes/s`)
        // Stored bytes per rollout (its row, compact steps blob and initial snapshot): the budget is 20 KB.
        lines.push(`storage: ${prefix}${v.label} ${(new TrainingStore(raw).bytesPerRollout(r.runId) / 1024).toFixed(1)} KiB/rollout`)
      }
      let before = rows(r.before!)
      let after = rows(r.after!)
      if (h1) {
        // The run's own init (createHead with the run's defaults and seed) and its last checkpoint, replayed with the reward.
        const store = new TrainingStore(raw)
        const diagnostics = store.diagnostics(r.runId)
        const env = createEnvironment(v.environment, environmentContext(raw))
        const init = createHead('mlp', { inputDim: headInputDim('harness1-tools'), hidden: 32, seed, temperature: 1 })
        const trained = restoreHead(store.lastCheckpoint(r.runId)!.head)
        const b = await headH1HeldOut(raw, env, init, heldOutQuestions, seed, v)
        const a = await headH1HeldOut(raw, env, trained, heldOutQuestions, seed, v)
        const same = (x: Rows, y: Record<string, Record<string, number | null>>) => x.every((row) => row.metrics['paragraph.recall'] === y[row.questionId]?.['paragraph.recall'] && row.metrics['harness1.curatedFBeta'] === y[row.questionId]?.['harness1.curatedFBeta'])
        if (!same(before, b.perQuestion) || !same(after, a.perQuestion)) console.log(`WARNING ${v.label} seed ${seed}: the replayed greedy episodes differ from evaluateHead's (reward rows may not match the run's held-out figures)`)
        const withReward = (x: Rows, y: Record<string, Record<string, number | null>>): Rows => x.map((row) => ({ ...row, metrics: { ...row.metrics, 'harness1.reward': y[row.questionId]?.['harness1.reward'] ?? null, 'harness1.rewardPublished': y[row.questionId]?.['harness1.rewardPublished'] ?? null } }))
        before = withReward(before, b.perQuestion)
        after = withReward(after, a.perQuestion)
        const k = Math.min(5, diagnostics.length)
        console.log(`${v.label} ${v.credit} seed ${seed} tool mix, training (actionMix, mean of the first ${k} steps): ${mix(meanMix(diagnostics.slice(0, k)))}`)
        console.log(`${v.label} ${v.credit} seed ${seed} tool mix, training (actionMix, mean of the last ${k} steps): ${mix(meanMix(diagnostics.slice(-k)))}`)
        console.log(`${v.label} ${v.credit} seed ${seed} tool mix, held-out greedy head: untrained ${mix(b.tools)} -> trained ${mix(a.tools)}`)
        const meanOf = (ds: typeof diagnostics, key: 'reward' | 'turns') => ds.reduce((a, d) => a + ((d.diagnostics as Record<string, number>)[key] ?? 0), 0) / Math.max(1, ds.length)
        console.log(`${v.label} ${v.credit} seed ${seed} training reward (rollout mean): first ${k} steps ${fmt(meanOf(diagnostics.slice(0, k), 'reward'))} -> last ${k} steps ${fmt(meanOf(diagnostics.slice(-k), 'reward'))}; turns ${fmt(meanOf(diagnostics.slice(0, k), 'turns'))} -> ${fmt(meanOf(diagnostics.slice(-k), 'turns'))}`)
        const last = diagnostics[diagnostics.length - 1]?.diagnostics as { reward?: number; zeroAdvantageRate?: number; entropy?: number; turns?: number } | undefined
        console.log(`${v.label} ${v.credit} seed ${seed} last step: train reward ${fmt(last?.reward)}, zero-advantage rate ${fmt(last?.zeroAdvantageRate)}, entropy ${fmt(last?.entropy)}, turns ${fmt(last?.turns)}`)
      }
      const runDiagnostics = new TrainingStore(raw).diagnostics(r.runId)
      for (const key of ['reward', 'zeroAdvantageRate', 'equivalenceClasses', 'spanningGroups', 'entropy', 'evidence']) {
        console.log(`${v.label} ${v.credit} seed ${seed} curve ${key} (step:value): ${curve(runDiagnostics, key)}`)
      }
      perSeed.push({ before, after, seed })
      for (const metric of metrics) {
        const c = comparePaired(before, after, metric, { seed })
        const g = comparePaired(rows(baseline.result), after, metric, { seed })
        console.log(`${v.label} ${v.credit} seed ${seed} ${metric}: untrained argmax ${fmt(c.baselineMean)} -> trained ${fmt(c.candidateMean)} (diff ${fmt(c.meanDifference)} [${fmt(c.ci?.lower)}, ${fmt(c.ci?.upper)}]); ${baseline.name} ${fmt(g.baselineMean)}, trained - ${baseline.name} ${fmt(g.meanDifference)} [${fmt(g.ci?.lower)}, ${fmt(g.ci?.upper)}]`)
      }
    }
    const before = SEEDS > 1 ? seedMean(perSeed.map((s) => s.before)) : perSeed[0]!.before
    const after = SEEDS > 1 ? seedMean(perSeed.map((s) => s.after)) : perSeed[0]!.after
    afterOf.set(v.label, after)
    for (const metric of metrics) {
      const c = comparePaired(before, after, metric, { seed: 1 })
      const g = comparePaired(rows(baseline.result), after, metric, { seed: 1 })
      if (SEEDS > 1) {
        const diffs = perSeed.map((s) => fmt(comparePaired(s.before, s.after, metric, { seed: s.seed }).meanDifference)).join(', ')
        console.log(`${v.label} ${v.credit} mean of ${SEEDS} seeds ${metric}: untrained argmax ${fmt(c.baselineMean)} -> trained ${fmt(c.candidateMean)} (diff ${fmt(c.meanDifference)} [${fmt(c.ci?.lower)}, ${fmt(c.ci?.upper)}]; per-seed diffs ${diffs}); ${baseline.name} ${fmt(g.baselineMean)}, trained - ${baseline.name} ${fmt(g.meanDifference)} [${fmt(g.ci?.lower)}, ${fmt(g.ci?.upper)}]`)
      }
      if ((h1 ? H1_LEARN : G_LEARN).includes(metric)) {
        lines.push(`learn: ${prefix}${v.learnAs} ${v.credit} ${metric} before ${fmt(c.baselineMean)} after ${fmt(c.candidateMean)} diff ${fmt(c.meanDifference)} CI [${fmt(c.ci?.lower)}, ${fmt(c.ci?.upper)}]`)
        if (metric === (h1 ? 'paragraph.recall' : 'sp.f1') || metric === 'harness1.reward') {
          lines.push(`learn: ${prefix}${v.learnAs} ${v.credit} ${metric}-vs-${baseline.name} before ${fmt(g.baselineMean)} after ${fmt(g.candidateMean)} diff ${fmt(g.meanDifference)} CI [${fmt(g.ci?.lower)}, ${fmt(g.ci?.upper)}]`)
        }
      }
    }
    if (v.defaults) {
      // The head as the Training page trains it by default, against the scripted baseline (issue 42's bar: lo > 0, d >= 0.10).
      const g = comparePaired(rows(baseline.result), after, 'sp.f1', { seed: 1 })
      lines.push(`vs-greedy: head ${v.environment} ${prefix ? prefix.replace(/\/$/, '') : 'demo'} diff ${fmt(g.meanDifference)} CI [${fmt(g.ci?.lower)}, ${fmt(g.ci?.upper)}] (sp.f1 head ${fmt(g.candidateMean)} greedy ${fmt(g.baselineMean)}, ${g.count} held-out questions, ${SEEDS} seed(s), ${stepsRun} steps, the Training page's defaults)`)
    }
    console.log(`${v.label}: ${((performance.now() - t0) / 1000).toFixed(0)} s for ${SEEDS} seed(s)`)
  }
  // Credit against outcome-only (and SNC with credit for stopping against SNC), paired per held-out question over the seed means.
  const pairs: [string, string, string][] = [['graph-menu', 'graph-menu+snc', 'snc-vs-outcome'], ['graph-menu', 'graph-menu+snc-stop', 'snc-stop-vs-outcome'], ['graph-menu+snc', 'graph-menu+snc-stop', 'snc-stop-vs-snc']]
  for (const [ref, treat, name] of pairs) {
    const a = afterOf.get(ref)
    const b = afterOf.get(treat)
    if (!a || !b) continue
    for (const metric of G_METRICS) {
      const c = comparePaired(a, b, metric, { seed: 1 })
      console.log(`${treat} vs ${ref} ${metric}: ${ref} ${fmt(c.baselineMean)}, ${treat} ${fmt(c.candidateMean)}, diff ${fmt(c.meanDifference)} [${fmt(c.ci?.lower)}, ${fmt(c.ci?.upper)}]`)
      if (metric === 'sp.f1' || metric === 'evidence.count') lines.push(`learn: ${prefix}graph-menu ${name} ${metric} before ${fmt(c.baselineMean)} after ${fmt(c.candidateMean)} diff ${fmt(c.meanDifference)} CI [${fmt(c.ci?.lower)}, ${fmt(c.ci?.upper)}]`)
    }
  }
}

if (SUITES.has('demo')) {
  const demo = await demoSuite(SIZE)
  try {
    await suite(demo.label, demo.prefix, demo.raw, demo.setId, demo.train.limit + demo.heldOut.limit, demo.heldOut.limit)
  } finally {
    await demo.close()
  }
}

if (SUITES.has('hotpotqa')) {
  // 100 questions: the first 50 by id train, the last 50 are held out (RL_HOTPOT_HELDOUT changes the 50).
  const hotpot = await hotpotSuite(HOTPOT_HELDOUT)
  if (hotpot) {
    try {
      await suite(hotpot.label, hotpot.prefix, hotpot.raw, hotpot.setId, hotpot.train.limit + hotpot.heldOut.limit, hotpot.heldOut.limit)
    } finally {
      await hotpot.close()
    }
  }
}

console.log('')
for (const l of lines) console.log(l)
