/**
 * RL on the GGUF policy's own weights: stories260K choosing graph-menu ids on the demo world, trained
 * through the native trainer (advantage-weighted -log p of the chosen id tokens), held-out reward and
 * supporting-fact F1 of the trained model against its base (greedy, paired per held-out question,
 * bootstrap CIs), and against the head trained with the same rollout budget in the same run.
 *
 * stories260K is a 260K-parameter story model, not an instruction model: it reads the menu prompt as
 * text, and what it can learn here is which ids to prefer from the prompt's surface. Report what comes.
 *
 * Env (small defaults that finish in a few minutes on 2 cores): GGUF_RL_STEPS (12), GGUF_RL_GROUP (8),
 * GGUF_RL_QUESTIONS (4 per step), GGUF_RL_SEEDS (1), GGUF_RL_DEMO_SIZE (2), GGUF_RL_HELDOUT (24),
 * GGUF_RL_LR (0.0002), GGUF_RL_OPTIMIZER (sgd), GGUF_RL_CONTEXT (512), GGUF_RL_MODEL (stories260K),
 * GGUF_RL_HEAD (1: also train the head for comparison; 0 skips it).
 * Prints, per metric: learn: gguf graph-menu <metric> before <x> after <y> diff <d> CI [<lo>, <hi>]
 * and update: <s> s/update <t> tokens/s (tokens through the training graph, sequences padded to the
 * context), rollouts: <r> rollouts/s, memory: ... (medians over the steps that trained).
 */
import { existsSync } from 'node:fs'

import { comparePaired } from '../main/eval'
import { runTraining, type HeldOutResult } from '../main/experiments/training'
import { LexicalAnswerer } from '../main/policy/answerer/lexical-answerer'
import { computeReward } from '../main/rl/reward-schemes'
import { trainConfigSchema, type TrainConfigInput } from '../main/rl/trainer'
import { openDemoWorkspace } from './support/corpus'
import { STORIES_260K } from './support/gguf'
import { tempDir } from './support/services'

const env = (k: string, d: number) => Number(process.env[k] ?? d)
const STEPS = env('GGUF_RL_STEPS', 12)
const GROUP = env('GGUF_RL_GROUP', 8)
const QUESTIONS = env('GGUF_RL_QUESTIONS', 4)
const SEEDS = env('GGUF_RL_SEEDS', 1)
const SIZE = env('GGUF_RL_DEMO_SIZE', 2)
const HELDOUT = env('GGUF_RL_HELDOUT', 24)
const LR = env('GGUF_RL_LR', 0.0002)
const CONTEXT = env('GGUF_RL_CONTEXT', 512)
const OPTIMIZER = (process.env.GGUF_RL_OPTIMIZER ?? 'sgd') as 'sgd' | 'adamw'
const MODEL = process.env.GGUF_RL_MODEL ?? STORIES_260K
const WITH_HEAD = env('GGUF_RL_HEAD', 1) !== 0
const METRICS = ['reward', 'sp.f1', 'sp.allGold', 'sp.recall', 'evidence.count']

if (!existsSync(MODEL)) {
  console.log(`Skipping bench:gguf-rl: no model at ${MODEL} (set GGUF_RL_MODEL to an F32 GGUF)`)
  process.exit(0)
}

const fmt = (x: number | null | undefined, d = 3) => (x === null || x === undefined || !Number.isFinite(x) ? 'n/a' : x.toFixed(d))
const median = (xs: number[]) => {
  const s = xs.filter(Number.isFinite).sort((a, b) => a - b)
  return s.length ? (s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2) : NaN
}
type Rows = Array<{ questionId: string; variant: null; metrics: Record<string, number | null> }>
const answerer = new LexicalAnswerer()

const demo = await openDemoWorkspace(11, SIZE)
const raw = demo.db.raw
const total = Number(raw.prepare('select count(*) from questions').pluck().get())
const heldOutSize = Math.min(HELDOUT, Math.floor(total / 2))
const train = { questionSetId: 1, offset: 0, limit: total - heldOutSize }
const heldOut = { questionSetId: 1, offset: total - heldOutSize, limit: heldOutSize }
const out = tempDir('harness-gguf-rl-')
console.log(`bench:gguf-rl: ${MODEL}; demo world size ${SIZE}: ${train.limit} train / ${heldOut.limit} held-out questions (the last by id); ${STEPS} steps x ${QUESTIONS} questions x ${GROUP} rollouts, ${SEEDS} seed(s); ${OPTIMIZER} lr ${LR}, context ${CONTEXT}`)

const base: TrainConfigInput = { environment: 'graph-menu', steps: STEPS, groupSize: GROUP, questionsPerStep: QUESTIONS, evalInterval: STEPS, train, heldOut, credit: { scheme: 'outcome', lambda: 0 } }
const reward = trainConfigSchema.parse(base).reward
const rows = (r: HeldOutResult): Rows =>
  Object.entries(r.perQuestion).map(([questionId, m]) => ({ questionId, variant: null, metrics: { ...m, reward: computeReward(m, reward).total } }))
const seedMean = (perSeed: Rows[]): Rows =>
  perSeed[0]!.map((row) => ({
    questionId: row.questionId,
    variant: null,
    metrics: Object.fromEntries(METRICS.map((k) => [k, perSeed.reduce((a, s) => a + (s.find((r) => r.questionId === row.questionId)?.metrics[k] ?? 0), 0) / perSeed.length])),
  }))

const ggufBefore: Rows[] = []
const ggufAfter: Rows[] = []
const headAfter: Rows[] = []
const updates: number[] = []
const tokensPerSecond: number[] = []
const trainedTokensPerSecond: number[] = []
const rolloutsPerSecond: number[] = []
const kls: number[] = []
let trainerPeak = 0
let trainerEstimate = 0
for (let seed = 1; seed <= SEEDS; seed++) {
  const t0 = performance.now()
  const r = await runTraining(raw, { ...base, seed, gguf: { modelPath: MODEL, optimizer: OPTIMIZER, learningRate: LR, contextSize: CONTEXT } }, {
    answerer, appVersion: 'bench', jobId: null, progress: () => {}, throwIfCancelled: () => {}, ggufDir: out.dir,
    onStep: (step, d) => {
      // Steps whose groups all agreed train nothing: they are no update to time.
      if ((d.optimizerSteps as number) > 0) {
        updates.push(d.secondsPerUpdate as number)
        tokensPerSecond.push(d.tokensPerSecond as number)
        trainedTokensPerSecond.push((d.tokensTrained as number) / (d.secondsPerUpdate as number))
      }
      rolloutsPerSecond.push(d.rolloutsPerSecond as number)
      if (typeof d.klToBase === 'number') kls.push(d.klToBase)
      trainerPeak = Math.max(trainerPeak, d.trainerPeakRssBytes as number)
      trainerEstimate = d.trainerEstimatedBytes as number
      console.log(`seed ${seed} step ${step}: train reward ${fmt(d.reward as number)}, loss ${fmt(d.loss as number)}, ${d.decisionsTrained} decisions / ${d.tokensTrained} tokens trained in ${fmt(d.secondsPerUpdate as number, 2)} s, KL to base ${fmt(d.klToBase as number, 4)}${d.klWarning ? ` (${d.klWarning})` : ''}, step ${fmt(d.seconds as number, 1)} s`)
    },
  })
  ggufBefore.push(rows(r.before!))
  ggufAfter.push(rows(r.after!))
  console.log(`seed ${seed}: GGUF run #${r.runId} ${((performance.now() - t0) / 1000).toFixed(0)} s; saved ${r.model?.path} (sha256 ${r.model?.sha256.slice(0, 12)}, base ${r.model?.baseSha256.slice(0, 12)})`)
  if (WITH_HEAD) {
    const h = await runTraining(raw, { ...base, seed }, { answerer, appVersion: 'bench', jobId: null, progress: () => {}, throwIfCancelled: () => {} })
    headAfter.push(rows(h.after!))
  }

}

const lines: string[] = []
const before = SEEDS > 1 ? seedMean(ggufBefore) : ggufBefore[0]!
const after = SEEDS > 1 ? seedMean(ggufAfter) : ggufAfter[0]!
for (const metric of METRICS) {
  const c = comparePaired(before, after, metric, { seed: 1 })
  lines.push(`learn: gguf graph-menu ${metric} before ${fmt(c.baselineMean)} after ${fmt(c.candidateMean)} diff ${fmt(c.meanDifference)} CI [${fmt(c.ci?.lower)}, ${fmt(c.ci?.upper)}]`)
}
if (WITH_HEAD) {
  const head = SEEDS > 1 ? seedMean(headAfter) : headAfter[0]!
  for (const metric of ['reward', 'sp.f1']) {
    const c = comparePaired(head, after, metric, { seed: 1 })
    lines.push(`learn: gguf graph-menu ${metric}-vs-head before ${fmt(c.baselineMean)} after ${fmt(c.candidateMean)} diff ${fmt(c.meanDifference)} CI [${fmt(c.ci?.lower)}, ${fmt(c.ci?.upper)}]`)
  }
}
lines.push(`update: ${fmt(median(updates), 2)} s/update ${fmt(median(tokensPerSecond), 0)} tokens/s (${fmt(median(trainedTokensPerSecond), 1)} trained tokens/s)`)
lines.push(`rollouts: ${fmt(median(rolloutsPerSecond), 2)} rollouts/s`)
lines.push(`kl: last step KL(policy || base) ${fmt(kls[kls.length - 1], 4)} nats, max ${fmt(Math.max(...kls), 4)}`)
lines.push(`memory: trainer peak ${(trainerPeak / 2 ** 20).toFixed(0)} MiB (estimate ${(trainerEstimate / 2 ** 20).toFixed(0)} MiB), bench process peak ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB`)
console.log('')
for (const l of lines) console.log(l)
await demo.close()
out.cleanup()

