/**
 * Seeded sweeps of the head's training config (issue 42): each named arm (a delta over the Training page's
 * defaults) trains once per seed on each suite, and its greedy head is compared on the held-out split with
 * the scripted greedy policy (paired bootstrap CI over questions of the seed-mean per question), beside the
 * head before RL (the untrained or warm-started start) and the warm start's own figures. Timings are not
 * printed: on a shared machine they are load, not the config.
 *
 *   SWEEP='{"none":{"warmStart":null},"oracle":{}}' SWEEP_SEEDS=3 SWEEP_SUITES=demo,hotpotqa npx tsx bench/head-sweep.ts
 *
 * Env: SWEEP (JSON: arm name -> config delta; default: no warm start vs the default), SWEEP_SEEDS (3),
 * SWEEP_SUITES (demo,hotpotqa), SWEEP_ENV (graph-menu), SWEEP_DEMO_SIZE (6), SWEEP_ANSWERER (lexical | support).
 * Ends with one line per arm and suite:
 *   sweep: <arm> <suite> sp.f1 <after> greedy <g> diff <d> CI [<lo>, <hi>] start <before> evidence <n>
 */
import type SQLite from 'better-sqlite3'
import { comparePaired } from '../main/eval'
import { createEnvironment, environmentContext } from '../main/harness'
import { EvidenceResolver } from '../main/experiments/metrics/evidence'
import { loadQuestions } from '../main/experiments/questions'
import { scriptedPolicyFor } from '../main/experiments/scripted-policy'
import { evaluatePolicy, runTraining, TrainingStore } from '../main/experiments/training'
import type { WarmStartReport } from '../main/experiments/training/warm-start'
import { LexicalAnswerer } from '../main/policy/answerer/lexical-answerer'
import { SupportAnswerer } from '../main/policy/answerer/support-answerer'
import type { TrainConfigRequestInput } from '../preload/contract'
import { fmt, rows, seedMean, type Rows } from './support/rl-figures'
import { eachSuite, type RlSuite } from './support/rl-suites'

const ARMS = JSON.parse(process.env.SWEEP ?? '{"none":{"warmStart":null},"default":{}}') as Record<string, Partial<TrainConfigRequestInput>>
const SEEDS = Number(process.env.SWEEP_SEEDS ?? 3)
const SUITES = (process.env.SWEEP_SUITES ?? 'demo,hotpotqa').split(',').map((s) => s.trim())
const ENV = process.env.SWEEP_ENV ?? 'graph-menu'
const answerer = process.env.SWEEP_ANSWERER === 'support' ? new SupportAnswerer() : new LexicalAnswerer()
async function greedyRows(raw: SQLite.Database, s: RlSuite): Promise<Rows> {
  const env = createEnvironment(ENV, environmentContext(raw))
  return rows(await evaluatePolicy(env, scriptedPolicyFor('greedy', ENV, raw), loadQuestions(raw, s.heldOut), answerer, new EvidenceResolver(raw), 1))
}

await eachSuite(SUITES, async (s, lines) => {
  const greedy = await greedyRows(s.raw, s)
  console.log(`\n== ${s.label}: ${s.train.limit} train / ${s.heldOut.limit} held-out, ${ENV}, ${SEEDS} seed(s); greedy sp.f1 ${fmt(comparePaired(greedy, greedy, 'sp.f1').baselineMean)}`)
  for (const [arm, delta] of Object.entries(ARMS)) {
    const after: Rows[] = []
    const before: Rows[] = []
    for (let seed = 1; seed <= SEEDS; seed++) {
      const r = await runTraining(s.raw, { environment: ENV, train: s.train, heldOut: s.heldOut, seed, ...delta } as TrainConfigRequestInput, { answerer, appVersion: 'bench', jobId: null, progress: () => {}, throwIfCancelled: () => {} })
      const w = (new TrainingStore(s.raw).diagnostics(r.runId)[0]?.diagnostics as { warmStart?: WarmStartReport } | undefined)?.warmStart
      const b = comparePaired(greedy, rows(r.before!), 'sp.f1', { seed })
      const a = comparePaired(greedy, rows(r.after!), 'sp.f1', { seed })
      console.log(`${arm} seed ${seed}: start ${fmt(b.candidateMean)} -> trained ${fmt(a.candidateMean)} (greedy ${fmt(a.baselineMean)}, diff ${fmt(a.meanDifference)} [${fmt(a.ci?.lower)}, ${fmt(a.ci?.upper)}])${w ? `; warm start ${w.samples} samples (${w.unmatched}/${w.decisions} unmatched), loss ${fmt(w.finalLoss)}, agreement ${fmt(w.agreementAfter)}` : ''}`)
      after.push(rows(r.after!))
      before.push(rows(r.before!))
    }
    const a = comparePaired(greedy, seedMean(after), 'sp.f1', { seed: 1 })
    const b = comparePaired(greedy, seedMean(before), 'sp.f1', { seed: 1 })
    const ev = comparePaired(greedy, seedMean(after), 'evidence.count', { seed: 1 })
    const line = `sweep: ${arm} ${s.name} sp.f1 ${fmt(a.candidateMean)} greedy ${fmt(a.baselineMean)} diff ${fmt(a.meanDifference)} CI [${fmt(a.ci?.lower)}, ${fmt(a.ci?.upper)}] start ${fmt(b.candidateMean)} evidence ${fmt(ev.candidateMean)}`
    console.log(line)
    lines.push(line)
  }
}, Number(process.env.SWEEP_DEMO_SIZE ?? 6))
