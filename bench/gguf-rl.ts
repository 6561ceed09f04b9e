/**
 * RL on the GGUF policy's own weights: stories260K choosing graph-menu ids on the demo world, trained
 * through the native trainer with the contract's defaults (GgufTrainSchema: optimizer, learning rate, KL
 * term and guard, clipping), as a sweep over group size G and questions per step Q and seeds. Each cell's
 * held-out reward of the trained model is paired per question against its base (greedy, bootstrap CI).
 * Then one recorded update is replayed through a fresh trainer packed (shared-prefix trees) and padded
 * (one datapoint per decision, the layout before packing): seconds per update and tokens per second of
 * both, in the same run.
 *
 * stories260K is a 260K-parameter story model, not an instruction model: it reads the menu prompt as
 * text, and what it can learn here is which ids to prefer from the prompt's surface. Report what comes.
 *
 * Env: GGUF_RL_GROUPS (4,8), GGUF_RL_QUESTIONS (4,16), GGUF_RL_SEEDS (2), GGUF_RL_STEPS (6),
 * GGUF_RL_DEMO_SIZE (2), GGUF_RL_HELDOUT (24), GGUF_RL_MODEL (stories260K); the options over the
 * contract's defaults: GGUF_RL_LR, GGUF_RL_OPTIMIZER, GGUF_RL_KL_COEF, GGUF_RL_KL_TARGET, GGUF_RL_CONTEXT,
 * GGUF_RL_MAX_GRAD_NORM; GGUF_RL_SEED_FROM (1) starts the seeds elsewhere, to split a sweep across runs;
 * GGUF_RL_HEAD (0; 1 also trains the head per cell for comparison).
 * Prints one line per cell:
 *   learn: gguf graph-menu G=<g> Q=<q> seed=<s> reward before <x> after <y> diff <d> CI [<lo>, <hi>] kl <k>
 * and update: <s> s/update <t> tokens/s (<u> trained tokens/s), padding <p>, packed vs padded, rollouts, memory.
 */
import { existsSync } from 'node:fs'

import { comparePaired } from '../main/eval'
import { GgufTrainSchema } from '../preload/contract'
import { isGgufStep, loadRequestFor, needsBase, runTraining, trainerThreadCount, trainRequestFor, type HeldOutResult } from '../main/experiments/training'
import { getSharedRuntime } from '../main/llm/llama-runtime'
import { GgufTrainer } from '../main/llm/training'
import { LexicalAnswerer } from '../main/policy/answerer/lexical-answerer'
import { computeReward } from '../main/rl/reward-schemes'
import { trainConfigSchema, type TokenBatch, type TrainConfigInput } from '../main/rl/trainer'
import { openDemoWorkspace } from './support/corpus'
import { STORIES_260K } from './support/gguf'
import { tempDir } from './support/services'

const env = (k: string, d: number) => Number(process.env[k] ?? d)
const list = (k: string, d: string) => (process.env[k] ?? d).split(',').map(Number)
const GROUPS = list('GGUF_RL_GROUPS', '4,8')
const QUESTIONS = list('GGUF_RL_QUESTIONS', '4,16')
const SEEDS = env('GGUF_RL_SEEDS', 2)
/** The first seed (GGUF_RL_SEED_FROM=2 runs seed 2 alone, to split a sweep across runs). */
const SEED_FROM = env('GGUF_RL_SEED_FROM', 1)
const STEPS = env('GGUF_RL_STEPS', 6)
const SIZE = env('GGUF_RL_DEMO_SIZE', 2)
const HELDOUT = env('GGUF_RL_HELDOUT', 24)
const MODEL = process.env.GGUF_RL_MODEL ?? STORIES_260K
const WITH_HEAD = env('GGUF_RL_HEAD', 0) !== 0
const overrides = Object.fromEntries(
  [
    ['learningRate', process.env.GGUF_RL_LR],
    ['optimizer', process.env.GGUF_RL_OPTIMIZER],
    ['klCoef', process.env.GGUF_RL_KL_COEF],
    ['klTarget', process.env.GGUF_RL_KL_TARGET],
    ['contextSize', process.env.GGUF_RL_CONTEXT],
    ['maxGradNorm', process.env.GGUF_RL_MAX_GRAD_NORM],
  ].flatMap(([k, v]) => (v === undefined ? [] : [[k, k === 'optimizer' ? v : Number(v)]])),
)
const GGUF = GgufTrainSchema.parse({ modelPath: MODEL, ...overrides })

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
console.log(`bench:gguf-rl: ${MODEL}; demo world size ${SIZE}: ${train.limit} train / ${heldOut.limit} held-out questions (the last by id); ${STEPS} steps per cell, G in {${GROUPS}}, Q in {${QUESTIONS}}, ${SEEDS} seed(s); ${GGUF.optimizer} lr ${GGUF.learningRate}, KL coef ${GGUF.klCoef}, KL target ${GGUF.klTarget}, max grad norm ${GGUF.maxGradNorm}, context ${GGUF.contextSize}`)

const cellConfig = (g: number, q: number, seed: number): TrainConfigInput => ({ environment: 'graph-menu', steps: STEPS, groupSize: g, questionsPerStep: q, evalInterval: STEPS, train, heldOut, seed, credit: { scheme: 'outcome', lambda: 0 }, estimator: 'grpo' })
const reward = trainConfigSchema.parse(cellConfig(4, 4, 1)).reward
const rows = (r: HeldOutResult): Rows =>
  Object.entries(r.perQuestion).map(([questionId, m]) => ({ questionId, variant: null, metrics: { ...m, reward: computeReward(m, reward).total } }))

const lines: string[] = []
const updates: number[] = []
const tokensPerSecond: number[] = []
const trainedTokensPerSecond: number[] = []
const padding: number[] = []
const rolloutsPerSecond: number[] = []
let recorded: TokenBatch | null = null
let trainerPeak = 0
let failedCells = 0
for (const g of GROUPS) {
  for (const q of QUESTIONS) {
    for (let seed = SEED_FROM; seed < SEED_FROM + SEEDS; seed++) {
      const t0 = performance.now()
      let lastKl: number | null = null
      const r = await runTraining(raw, { ...cellConfig(g, q, seed), gguf: GGUF }, {
        answerer, appVersion: 'bench', jobId: null, progress: () => {}, throwIfCancelled: () => {}, ggufDir: out.dir, llm: getSharedRuntime,
        // the sweep's largest update is the one replayed packed and padded
        onBatch: (_step, b) => {
          if (!recorded || b.items.length > (recorded as TokenBatch).items.length) recorded = b
        },
        onStep: (step, d) => {
          if (!isGgufStep(d)) throw new Error('bench:gguf-rl trains the GGUF policy: a step without its diagnostics')
          // Steps whose groups all agreed train nothing: they are no update to time.
          if (d.optimizerSteps > 0) {
            updates.push(d.secondsPerUpdate ?? NaN)
            tokensPerSecond.push(d.tokensPerSecond)
            trainedTokensPerSecond.push(d.trainedTokensPerSecond)
            padding.push(d.paddingShare)
          }
          rolloutsPerSecond.push(d.rolloutsPerSecond)
          if (typeof d.klToBase === 'number') lastKl = d.klToBase
          trainerPeak = Math.max(trainerPeak, d.trainerPeakRssBytes)
          console.log(`G=${g} Q=${q} seed ${seed} step ${step}: train reward ${fmt(d.reward)}, loss ${fmt(d.loss)}, grad norm ${fmt(d.gradNorm)}, entropy ${fmt(d.entropy)}, ${d.decisionsTrained} decisions in ${d.datapoints} datapoints, ${fmt(d.secondsPerUpdate, 2)} s/update, KL to base ${fmt(d.klToBase, 4)}${d.klWarning ? ` (${d.klWarning})` : ''}, step ${fmt(d.seconds, 1)} s`)
        },
      })
      const c = comparePaired(rows(r.before!), rows(r.after!), 'reward', { seed: 1 })
      const ok = (c.ci?.lower ?? -1) > 0 && (lastKl ?? Infinity) <= GGUF.klTarget
      if (!ok) failedCells++
      lines.push(`learn: gguf graph-menu G=${g} Q=${q} seed=${seed} reward before ${fmt(c.baselineMean)} after ${fmt(c.candidateMean)} diff ${fmt(c.meanDifference)} CI [${fmt(c.ci?.lower)}, ${fmt(c.ci?.upper)}] kl ${fmt(lastKl, 4)}${ok ? '' : '  <- below the goal (CI low > 0, KL under the target)'}`)
      const f1 = comparePaired(rows(r.before!), rows(r.after!), 'sp.f1', { seed: 1 })
      console.log(`${lines.at(-1)}; sp.f1 diff ${fmt(f1.meanDifference)} CI [${fmt(f1.ci?.lower)}, ${fmt(f1.ci?.upper)}]; run #${r.runId} ${((performance.now() - t0) / 1000).toFixed(0)} s`)
      if (WITH_HEAD) {
        const h = await runTraining(raw, cellConfig(g, q, seed), { answerer, appVersion: 'bench', jobId: null, progress: () => {}, throwIfCancelled: () => {}, llm: getSharedRuntime })
        const vs = comparePaired(rows(h.after!), rows(r.after!), 'reward', { seed: 1 })
        lines.push(`learn: gguf graph-menu G=${g} Q=${q} seed=${seed} reward-vs-head head ${fmt(vs.baselineMean)} gguf ${fmt(vs.candidateMean)} diff ${fmt(vs.meanDifference)} CI [${fmt(vs.ci?.lower)}, ${fmt(vs.ci?.upper)}]`)
      }
    }
  }
}

// One recorded update replayed packed and padded through fresh trainers from the base: the same batch, the same run.
const replay: string[] = []
if (recorded) {
  const batch = recorded as TokenBatch
  const seconds: Record<string, number> = {}
  for (const pack of [false, true]) {
    const trainer = await GgufTrainer.start()
    try {
      // as a run loads it: the base only for a KL term or guard, every core
      const info = await trainer.load(loadRequestFor(GGUF, MODEL, { baseModel: needsBase(GGUF) ? MODEL : null, optimizerState: null, threads: trainerThreadCount() }))
      const r = await trainer.train(trainRequestFor(GGUF, batch.items, GGUF.learningRate, [], pack))
      seconds[String(pack)] = r.seconds
      // FLOPs by the usual 2·params per token and pass: the base's forward for the KL term (2), forward + backward (6).
      const flops = ((GGUF.klCoef > 0 ? 2 : 0) + 6) * info.nParams * r.tokensProcessed
      replay.push(`flops: ${pack ? 'packed' : 'padded'} ${fmt(flops / r.seconds / 1e9, 2)} GFLOP/s achieved (${fmt(flops / 1e9, 1)} GFLOP over ${r.tokensProcessed} graph positions of a ${info.nParams.toLocaleString('en')}-parameter model; attention excluded)`)
      replay.push(`update: ${pack ? 'packed' : 'padded'} ${fmt(r.seconds, 2)} s/update ${fmt(r.tokensProcessed / r.seconds, 0)} graph tokens/s (${fmt(r.weightedTokens / r.seconds, 1)} trained tokens/s, ${fmt(r.sequenceTokens / r.seconds, 0)} sequence tokens/s; ${fmt(r.cpuSeconds, 2)} CPU-s on ${trainerThreadCount()} threads, ${fmt(r.weightedTokens / r.cpuSeconds, 1)} trained tokens per CPU-s), ${r.sequences} sequences in ${r.datapoints} datapoints, padding ${fmt(1 - r.packedTokens / r.tokensProcessed, 3)}, shared prefixes ${fmt(1 - r.packedTokens / r.sequenceTokens, 3)}`)
    } finally {
      await trainer.close()
    }
  }
  replay.push(`update: packed / padded speed-up ${fmt(seconds['false']! / seconds['true']!, 2)}x on the same batch`)
}

console.log('')
for (const l of lines) console.log(l)
console.log(`sweep: ${lines.filter((l) => l.startsWith('learn:') && !l.includes('reward-vs-head')).length - failedCells} of ${GROUPS.length * QUESTIONS.length * SEEDS} cells above the base with CI low > 0 and KL under ${GGUF.klTarget}`)
console.log(`update: ${fmt(median(updates), 2)} s/update ${fmt(median(tokensPerSecond), 0)} tokens/s (${fmt(median(trainedTokensPerSecond), 1)} trained tokens/s), padding ${fmt(median(padding), 3)} (medians over the sweep's updates)`)
for (const l of replay) console.log(l)
console.log(`rollouts: ${fmt(median(rolloutsPerSecond), 2)} rollouts/s`)
console.log(`memory: trainer peak ${(trainerPeak / 2 ** 20).toFixed(0)} MiB, bench process peak ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB`)
await demo.close()
out.cleanup()
