/**
 * What holds the head back, measured without RL (issue 42): the oracle's (or greedy's) decisions on the train
 * and held-out questions as the head's candidates see them, a head fitted to the train decisions by
 * cross-entropy, and its agreement with the teacher on train (can the features and the capacity express the
 * teacher?) and held-out (does it generalise from this many questions?), by the teacher's action type, beside
 * the fitted head's own held-out SP F1 (greedy play) against scripted greedy. Seeded; no timings.
 *
 * The fit is the product's warm start (warm-start.ts: the teacher's pass, then IMIT_ROUNDS DAgger rounds).
 *
 *   IMIT_ARCHS=linear:0,mlp:32,mlp:128 IMIT_ROUNDS=0,2 IMIT_EPOCHS=30 IMIT_TEACHER=oracle npx tsx bench/head-imitation.ts
 *
 * Env: IMIT_SUITES (demo,hotpotqa), IMIT_TEACHER (oracle), IMIT_ARCHS (arch:hidden list), IMIT_ROUNDS (list, 0),
 * IMIT_EPOCHS (30), IMIT_LR (0.01), IMIT_ENV (graph-menu), IMIT_SEED (1).
 * Lines: imitation: <suite> <arch> rounds <r> train agreement <a> loss <l> held-out agreement <b> loss <m> sp.f1 <f> greedy <g> diff <d> CI [<lo>, <hi>]
 */
import { comparePaired } from '../main/eval'
import { createEnvironment, environmentContext, environmentFactory, runEpisode } from '../main/harness'
import { EvidenceResolver } from '../main/experiments/metrics/evidence'
import { scriptedPolicyFor } from '../main/experiments/scripted-policy'
import { loadQuestions } from '../main/experiments/questions'
import { evaluatePolicy, resolveTrainConfig } from '../main/experiments/training'
import { warmStartHead } from '../main/experiments/training/warm-start'
import { LexicalAnswerer } from '../main/policy/answerer/lexical-answerer'
import { createHead } from '../main/policy/head'
import { candidateBuilder, HeadPolicy, headInputDim, TeacherRecorder, type ImitationSample } from '../main/policy/head-policy'
import { imitationFit } from '../main/rl/trainer'
import { fmt, rows } from './support/rl-figures'
import { eachSuite } from './support/rl-suites'

const SUITES = (process.env.IMIT_SUITES ?? 'demo,hotpotqa').split(',')
const TEACHER = process.env.IMIT_TEACHER ?? 'oracle'
const ARCHS = (process.env.IMIT_ARCHS ?? 'linear:0,mlp:32,mlp:128').split(',').map((a) => a.split(':') as ['linear' | 'mlp', string])
const ROUNDS = (process.env.IMIT_ROUNDS ?? '0').split(',').map(Number)
const EPOCHS = Number(process.env.IMIT_EPOCHS ?? 30)
const LR = Number(process.env.IMIT_LR ?? 0.01)
const ENV = process.env.IMIT_ENV ?? 'graph-menu'
const SEED = Number(process.env.IMIT_SEED ?? 1)
const answerer = new LexicalAnswerer()
const protocol = environmentFactory(ENV).protocol
const builder = candidateBuilder(protocol)

/** The teacher's decisions on `questions` and the type of each chosen candidate. */
async function record(raw: Parameters<typeof scriptedPolicyFor>[2], questions: ReturnType<typeof loadQuestions>) {
  const env = createEnvironment(ENV, environmentContext(raw!))
  const recorder = new TeacherRecorder(scriptedPolicyFor(TEACHER, ENV, raw), builder)
  for (const q of questions) await runEpisode(env, recorder, q, (SEED * 1_000_003 + q.rowId) >>> 0, { snapshots: false })
  return recorder
}
const typeOf = (s: ImitationSample) => s.type

await eachSuite(SUITES, async (s, lines) => {
  const train = await record(s.raw, loadQuestions(s.raw, s.train))
  const held = await record(s.raw, loadQuestions(s.raw, s.heldOut))
  const counts = (xs: ImitationSample[]) => Object.entries(xs.reduce<Record<string, number>>((m, x) => ((m[typeOf(x)] = (m[typeOf(x)] ?? 0) + 1), m), {})).map(([k, v]) => `${k} ${v}`).join(', ')
  console.log(`\n== ${s.label}: ${TEACHER} on ${s.train.limit} train questions: ${train.samples.length} samples (${counts(train.samples)}), ${train.unmatched}/${train.decisions} unmatched; held-out ${held.samples.length} samples`)
  const env = createEnvironment(ENV, environmentContext(s.raw))
  const ev = new EvidenceResolver(s.raw)
  const heldQs = loadQuestions(s.raw, s.heldOut)
  const greedy = await evaluatePolicy(env, scriptedPolicyFor('greedy', ENV, s.raw), heldQs, answerer, ev, SEED)
  for (const [arch, hidden] of ARCHS) for (const rounds of ROUNDS) {
    const config = resolveTrainConfig(s.raw, { environment: ENV, train: s.train, heldOut: s.heldOut, seed: SEED, head: { arch, hidden: Math.max(1, Number(hidden)) }, warmStart: { teacher: TEACHER, epochs: EPOCHS, learningRate: LR, rounds } })
    const head = createHead(arch, { inputDim: headInputDim(protocol), hidden: Math.max(1, Number(hidden)), seed: SEED })
    const stats = await warmStartHead({ raw: s.raw, config, env, head, builder, train: loadQuestions(s.raw, s.train), progress: () => {}, throwIfCancelled: () => {} })
    const h = imitationFit(head, held.samples, 1)
    const byType = (xs: ImitationSample[]) => {
      const out: Record<string, [number, number]> = {}
      for (const x of xs) {
        const t = typeOf(x)
        const o = head.forward(x.rows)
        const best = o.logp.indexOf(Math.max(...o.logp))
        out[t] = [(out[t]?.[0] ?? 0) + (best === x.chosen ? 1 : 0), (out[t]?.[1] ?? 0) + 1]
      }
      return Object.entries(out).map(([k, [a, n]]) => `${k} ${(a / n).toFixed(2)}`).join(', ')
    }
    const played = await evaluatePolicy(env, new HeadPolicy(head, builder, { mode: 'greedy' }), heldQs, answerer, ev, SEED)
    const c = comparePaired(rows(greedy), rows(played), 'sp.f1', { seed: SEED })
    console.log(`${arch}:${hidden} rounds ${rounds}: ${stats.samples} samples, agreement on them ${fmt(stats.agreementAfter)}; teacher's own pass ${byType(train.samples)}, held-out ${fmt(h.agreement)} (${byType(held.samples)}); evidence ${fmt(played.aggregates['evidence.count']?.mean)}`)
    const line = `imitation: ${s.name} ${arch}:${hidden} rounds ${rounds} train agreement ${fmt(stats.agreementAfter)} loss ${fmt(stats.finalLoss)} held-out agreement ${fmt(h.agreement)} loss ${fmt(h.loss)} sp.f1 ${fmt(c.candidateMean)} greedy ${fmt(c.baselineMean)} diff ${fmt(c.meanDifference)} CI [${fmt(c.ci?.lower)}, ${fmt(c.ci?.upper)}]`
    console.log(line)
    lines.push(line)
  }
})
