/**
 * `npm run bench:trl-vs-app`: GRPO in TRL (the trainer users would pick) against the app's own GGUF training, side
 * by side on the same model, environment, questions and group size, in one run, doing the same work.
 *
 * The model: bench/support/trl_vs_app.py builds test/python/tiny_policy.py's tiny llama (hidden 64, 2 layers, byte-level
 * BPE, Qwen2.5 chat template), warms it up on correct `choose` calls at the first turns of scripted episodes on the
 * training questions (a random model never writes a tool call, so TRL would have nothing to train on) and on the same
 * choices as bare menu ids after the app's own text prompt at the same states (so both sides start equally able to
 * play), and writes those weights as an F32 GGUF (test/python/llama_gguf.py). Before the app trains, this side checks
 * the GGUF is the same model: node-llama-cpp must tokenize a rendered prompt to the ids transformers gives, the app's
 * teacher-forced log-probabilities of its last tokens must be transformers' within 1e-3 (F32 sums in another order
 * over a prompt of hundreds of tokens, with an F32 cache and no flash attention: measured 3e-5), and the app's menu
 * policy must render its own prompt to the ids the warm-up fitted. The app's context holds its whole prompt.
 * The environment: graph-menu on the demo world, served over HTTP to TRL (resources/trainers/trl glue, tool calls, the
 * server's tool-calling instructions) and played in process by the app (menu ids under the grammar); SP F1 as the
 * reward on both sides (the server's default for the demo world's sentence gold), outcome credit, no SNC on either side.
 * Equal work: both sides play whole episodes to the environment's turn limit (TRL's completion budget covers a whole
 * episode, its tool calls stop at the turn limit) and neither has a KL term (TRL's beta 0; the app's klCoef 0 and
 * klTarget 0, which also skip its base forward and its KL probe).
 * Each side: held-out reward (greedy, the same TRL_VS_APP_HELDOUT questions, the last by id) before and after
 * TRL_VS_APP_STEPS steps of TRL_VS_APP_QUESTIONS training questions x TRL_VS_APP_GROUP rollouts (from the first
 * TRL_VS_APP_TRAIN questions). Seconds per step: TRL's from step begin to step end (its rollouts, rewards, loss and
 * update); the app's from the training loop's step diagnostics, leaving out steps that also ran a held-out evaluation.
 * Prints per side the medians of seconds per step, rollouts per second, turns and tool calls per rollout, trained
 * tokens per step and the held-out reward, then
 *   trl-vs-app: step <ratio>x rollouts <ratio>x held-out reward app <x> trl <y> trl turns/rollout <t> app turns/rollout <u>
 * (ratios app over TRL: step throughput, i.e. TRL's s/step over the app's, and rollouts/s). Needs $HARNESS_LAB_PYTHON
 * (a venv with trl, transformers, torch, gguf: .ci/run makes one); skips with a message without it.
 */
import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Token } from 'node-llama-cpp'
import { GgufTrainSchema } from '../preload/contract'
import { startEnvServer } from '../main/env-server'
import { isGgufStep, runTraining, type HeldOutResult } from '../main/experiments/training'
import { getSharedRuntime, LlamaRuntime } from '../main/llm/llama-runtime'
import { evaluateTarget } from '../main/llm/scoring'
import { tokenizePrompt } from '../main/llm/tokens'
import { MENU_CUE, PromptRenderer } from '../main/policy/prompt'
import { LexicalAnswerer } from '../main/policy/answerer/lexical-answerer'
import { computeReward, rewardPreset } from '../main/rl/reward-schemes'
import { trainConfigSchema, type TrainConfigInput } from '../main/rl/trainer'
import { openDemoWorkspace } from './support/corpus'
import { tempDir } from './support/services'

const env = (k: string, d: number) => Number(process.env[`TRL_VS_APP_${k}`] ?? d)
const GROUP = env('GROUP', 4)
const QUESTIONS = env('QUESTIONS', 2)
const STEPS = env('STEPS', 4)
const TRAIN = env('TRAIN', 8)
const HELDOUT = env('HELDOUT', 8)
const SEED = env('SEED', 1)
const PYTHON = process.env.HARNESS_LAB_PYTHON
const SCRIPT = fileURLToPath(new URL('./support/trl_vs_app.py', import.meta.url))

if (!PYTHON || !existsSync(PYTHON)) {
  console.log(`Skipping bench:trl-vs-app: no $HARNESS_LAB_PYTHON${PYTHON ? ` (${PYTHON} does not exist)` : ''}; it needs a venv with trl, transformers, torch and gguf (.ci/run makes /tmp/harness-lab-ci-venv)`)
  process.exit(0)
}

const fmt = (x: number | null | undefined, d = 3) => (x === null || x === undefined || !Number.isFinite(x) ? 'n/a' : x.toFixed(d))
const median = (xs: number[]) => {
  const s = xs.filter(Number.isFinite).sort((a, b) => a - b)
  return s.length ? (s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2) : NaN
}
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length)

const demo = await openDemoWorkspace(11, 1)
const raw = demo.db.raw
const total = demo.questions.length
if (TRAIN + HELDOUT > total) throw new Error(`TRL_VS_APP_TRAIN + TRL_VS_APP_HELDOUT (${TRAIN + HELDOUT}) pass the demo world's ${total} questions`)
const train = { questionSetId: 1, offset: 0, limit: TRAIN }
const heldOut = { questionSetId: 1, offset: total - HELDOUT, limit: HELDOUT }
const key = (i: number) => ({ question_id: Number(demo.questions[i]!.id) })
const out = tempDir('harness-trl-vs-app-')
/** One reward on both sides: SP F1 (the server's default for sentence gold, as the demo world's), outcome credit. */
const REWARD = rewardPreset('sp-f1').config
const gguf = join(out.dir, 'tiny-llama.gguf')
console.log(`bench:trl-vs-app: graph-menu on the demo world (${total} questions): ${STEPS} steps of ${QUESTIONS} questions x ${GROUP} rollouts from the first ${TRAIN}; held-out reward on the last ${HELDOUT} (greedy), before and after; seed ${SEED}`)

// TRL: the server over the same workspace, the Python side against it; it writes the warmed-up model as a GGUF.
const server = await startEnvServer({ raw, appVersion: 'bench', port: 0, reward: REWARD, credit: 'outcome' })
interface TrlResult {
  versions: Record<string, string>
  parameters: number
  warmup: { steps: number; turns: number; seconds: number; valid_before: number; valid_after: number }
  step_seconds: number[]
  rollouts_per_step: number
  episodes: number
  server_steps: number
  rewards: number[]
  tool_calls_per_rollout: number[]
  tool_failures: number[]
  trained_tokens: number[]
  loss: (number | null)[]
  rollouts: { phase: string; turns: number; reward: number }[]
  max_completion: number
  max_tool_calls: number
  app_check: { system: string; user: string; ids: number[] }
  app_prompt_tokens: number
  held_out: { before: number; after: number }
  total_s: number
  check: { text: string; ids: number[]; target_logp: number[] }
}
const spec = { train: Array.from({ length: TRAIN }, (_, i) => key(i)), held_out: Array.from({ length: HELDOUT }, (_, i) => key(total - HELDOUT + i)), group: GROUP, questions: QUESTIONS, steps: STEPS, seed: SEED, gguf }
const trl = await new Promise<TrlResult>((resolve, reject) =>
  execFile(PYTHON, [SCRIPT, JSON.stringify(spec)], { env: { ...process.env, HARNESS_LAB_URL: server.url, HARNESS_LAB_TOKEN: server.token, PYTHONDONTWRITEBYTECODE: '1' }, maxBuffer: 1 << 26 }, (err, stdout, stderr) =>
    err ? reject(new Error(`${SCRIPT} failed: ${err.message}\n${stderr.slice(-4000)}`)) : resolve(JSON.parse(stdout) as TrlResult),
  ),
)
await server.close()

// The same model on both sides: the app's tokens and teacher-forced log-probabilities (llm/scoring.ts) against transformers'.
{
  const runtime = await LlamaRuntime.create({ threads: 1 })
  const model = await runtime.loadModel(gguf)
  const ids = Array.from(model.model.tokenize(trl.check.text, true))
  // F32 keys and values and no flash attention (F16 paths: with them a warmed-up model's last log-probabilities were up
  // to 1.9e-2 away; without, 3e-5): the check is about the weights, not the cache's or the attention's precision.
  const context = await model.model.createContext({ contextSize: ids.length + 8, threads: 1, flashAttention: false, experimentalKvCacheKeyType: 'F32', experimentalKvCacheValueType: 'F32' })
  const k = trl.check.target_logp.length
  const scored = await evaluateTarget(context.getSequence(), trl.check.ids.slice(0, -k) as Token[], trl.check.ids.slice(-k) as Token[])
  const gap = Math.max(...scored.tokenLogprobs.map((lp, i) => Math.abs(lp - trl.check.target_logp[i]!)))
  await context.dispose()
  // The app's own prompt (its chat-template rendering, as its menu policy sends it) is the one the warm-up fitted.
  const appIds = tokenizePrompt(model.model, new PromptRenderer(model.model).render({ system: trl.app_check.system, user: trl.app_check.user, cue: MENU_CUE }).tokens)
  const appSame = JSON.stringify(appIds) === JSON.stringify(trl.app_check.ids)
  await runtime.dispose()
  const same = JSON.stringify(ids) === JSON.stringify(trl.check.ids)
  console.log(`same model: ${trl.parameters.toLocaleString('en')} parameters; node-llama-cpp tokenizes a rendered prompt ${same ? 'to the same' : 'to DIFFERENT'} ${ids.length} ids as transformers; the log-probabilities of its last ${k} tokens differ by at most ${gap.toExponential(1)}; the app renders its own prompt ${appSame ? 'to the same' : 'to DIFFERENT'} ${appIds.length} ids the warm-up fitted`)
  if (!same || !(gap <= 1e-3) || !appSame) throw new Error('The GGUF is not the same model as the one TRL trains, or the app does not read the prompts it was warmed up on: stopping')
}

// The app: the GGUF learner from the same weights, same questions, group size and steps.
const config: TrainConfigInput = { environment: 'graph-menu', steps: STEPS, groupSize: GROUP, questionsPerStep: QUESTIONS, evalInterval: STEPS, train, heldOut, seed: SEED, reward: REWARD, credit: { scheme: 'outcome', lambda: 0 }, estimator: 'grpo' }
const reward = trainConfigSchema.parse(config).reward
const heldOutReward = (r: HeldOutResult) => mean(Object.values(r.perQuestion).map((m) => computeReward(m, reward).total))
const appSteps: number[] = []
const appRollouts: number[] = []
const appTurns: number[] = []
const appTokens: number[] = []
/** No KL term, as TRL's beta 0: klCoef 0 skips the base forward, klTarget 0 the KL probe after each update. */
// Its context holds its whole prompt (as TRL's budget holds a whole episode), not a prompt cut in the middle to fit.
const appGguf = GgufTrainSchema.parse({ modelPath: gguf, klCoef: 0, klTarget: 0, contextSize: Math.ceil((trl.app_prompt_tokens + 16) / 256) * 256 })
const t0 = performance.now()
const app = await runTraining(raw, { ...config, gguf: appGguf }, {
  answerer: new LexicalAnswerer(),
  appVersion: 'bench',
  jobId: null,
  progress: () => {},
  throwIfCancelled: () => {},
  ggufDir: out.dir,
  llm: getSharedRuntime,
  onStep: (step, d) => {
    if (!isGgufStep(d)) throw new Error('bench:trl-vs-app trains the GGUF policy: a step without its diagnostics')
    console.log(`app step ${step}: ${fmt(d.seconds, 2)} s${d.heldOut ? ' (with a held-out evaluation)' : ''} (update ${fmt(d.secondsPerUpdate, 2)} s), ${fmt(d.rolloutsPerSecond, 2)} rollouts/s in its rollouts, ${fmt(d.turns, 1)} turns per rollout, ${d.tokensTrained} trained tokens, train reward ${fmt(d.reward)}`)
    if (!d.heldOut) appSteps.push(d.seconds)
    appRollouts.push(d.rolloutsPerSecond)
    appTurns.push(d.turns)
    appTokens.push(d.tokensTrained ?? 0)
  },
})
const appSeconds = (performance.now() - t0) / 1000
trl.step_seconds.forEach((s, i) => console.log(`trl step ${i}: ${fmt(s, 2)} s, ${fmt(trl.tool_calls_per_rollout[i], 2)} tool calls per rollout (${fmt(100 * trl.tool_failures[i]!, 0)}% failed), ${fmt(trl.trained_tokens[i], 0)} trained tokens, loss ${fmt(trl.loss[i], 4)}, train reward ${fmt(trl.rewards[i])}`))

const trlStep = median(trl.step_seconds)
const appStep = median(appSteps)
const trlRollouts = trl.rollouts_per_step / trlStep
const appRolloutsPerSecond = (GROUP * QUESTIONS) / appStep
const appBefore = heldOutReward(app.before!)
const appAfter = heldOutReward(app.after!)
const turnsOf = (phase: string) => mean(trl.rollouts.filter((r) => r.phase === phase).map((r) => r.turns))
const trlTurns = turnsOf('train')
const appTurnsPerRollout = mean(appTurns)
// Each app turn is one action (a menu id under the grammar): its tool calls per rollout are its turns.
console.log(`trl: TRL ${trl.versions.trl} / transformers ${trl.versions.transformers} / torch ${trl.versions.torch}; warm-up ${trl.warmup.steps} steps on ${trl.warmup.turns} turns (${fmt(trl.warmup.seconds, 1)} s, parseable calls ${fmt(100 * trl.warmup.valid_before, 0)}% -> ${fmt(100 * trl.warmup.valid_after, 0)}%); completion budget ${trl.max_completion} tokens, at most ${trl.max_tool_calls} tool calls, beta 0`)
console.log(`trl: median ${fmt(trlStep, 2)} s/step, ${fmt(trlRollouts, 2)} rollouts/s (${trl.rollouts_per_step} per step), ${fmt(trlTurns, 2)} turns per rollout (${fmt(turnsOf('held-out after'), 2)} held out), ${fmt(median(trl.tool_calls_per_rollout), 2)} tool calls per rollout, ${fmt(median(trl.trained_tokens), 0)} trained tokens per step; held-out reward ${fmt(trl.held_out.before)} -> ${fmt(trl.held_out.after)}; python ${fmt(trl.total_s, 0)} s`)
console.log(`app: median ${fmt(appStep, 2)} s/step over ${appSteps.length} steps without a held-out evaluation, ${fmt(appRolloutsPerSecond, 2)} rollouts/s (${fmt(median(appRollouts), 2)} in its rollouts), ${fmt(appTurnsPerRollout, 2)} turns and tool calls per rollout, ${fmt(median(appTokens), 0)} trained tokens per step, klCoef 0, klTarget 0, context ${appGguf.contextSize}; held-out reward ${fmt(appBefore)} -> ${fmt(appAfter)}; run #${app.runId} ${fmt(appSeconds, 0)} s`)
console.log(`trl-vs-app: step ${fmt(trlStep / appStep, 2)}x rollouts ${fmt(appRolloutsPerSecond / trlRollouts, 2)}x held-out reward app ${fmt(appAfter)} trl ${fmt(trl.held_out.after)} trl turns/rollout ${fmt(trlTurns, 2)} app turns/rollout ${fmt(appTurnsPerRollout, 2)}`)
console.log(`goal: app >= 3x TRL's step throughput at an equal or better held-out reward: ${trlStep / appStep >= 3 && appAfter >= trl.held_out.after ? 'met' : 'NOT MET'}`)
await demo.close()
out.cleanup()
