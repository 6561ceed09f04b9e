/**
 * LLM policy and frozen answerer benchmark: menu choices per second (MenuLlmPolicy), tool calls per
 * second (ToolLlmPolicy) and answerer scorings per second (GgufAnswerer), with one sequence against
 * several rollouts sharing one context, on a tiny written model and on
 * ../shared/models/stories260K.gguf when present. Prints the backend node-llama-cpp actually used,
 * the thread setting and the layers offloaded; medians over repetitions after one warm-up.
 *
 *   npx tsx bench/policy.ts [--threads N] [--reps N] [--parallel N] [--steps N] [--gpu auto|cpu|cuda|vulkan|metal]
 */
import { availableParallelism } from 'node:os'
import { join } from 'node:path'
import type { ActionSpace, Observation, ToolSchema } from '../main/harness/types'
import { createAnswerer, type GgufAnswerer } from '../main/policy/answerer'
import { LlamaRuntime, type LlamaBackend } from '../main/llm/llama-runtime'
import { createPolicy, disposeModelCache, modelCacheFor, type LlmPolicy } from '../main/policy/llm-policy'
import { fixtureDir, STORIES_260K, storiesAvailable, writeTinyLlama } from './support/gguf'

function flag(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`)
  return i >= 0 ? process.argv[i + 1] : undefined
}
const reps = Number(flag('reps') ?? 5)
const parallel = Number(flag('parallel') ?? 4)
const steps = Number(flag('steps') ?? 16)
const threads = flag('threads') === undefined ? undefined : Number(flag('threads'))
const gpu = (flag('gpu') ?? 'auto') as 'auto' | LlamaBackend

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b)
  const mid = Math.floor(s.length / 2)
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2
}

const WORDS = ['the', 'little', 'girl', 'saw', 'a', 'big', 'dog', 'in', 'park', 'and', 'she', 'was', 'happy', 'with', 'her', 'ball']
const sentence = (seed: number, length: number): string =>
  Array.from({ length }, (_, i) => WORDS[(seed * 7 + i * 3 + ((seed * i) % 5)) % WORDS.length]).join(' ')

const MENU_IDS = ['S1', 'S2', 'S3', 'S4', 'L1', 'L2', 'L3', 'W1', 'A']
const MENU: ActionSpace = { kind: 'menu', items: MENU_IDS.map((id, i) => ({ id, type: id[0]!, label: sentence(i, 6) })) }
/** A Harness-G-shaped observation: question and committed evidence fixed, the visible part changing per step. */
function menuObservation(step: number): Observation {
  const visible = MENU_IDS.map((id, i) => `${id} ${sentence(step * 13 + i, 8)}`).join('\n')
  return { text: `Question: what did the little girl see in the park?\nCommitted evidence:\n${sentence(1, 12)}.\nMenu:\n${visible}`, data: {} }
}

const TOOLS: ToolSchema[] = [
  { name: 'search_corpus', description: 'Search the corpus.', parameters: { type: 'object', properties: { query: { type: 'string', minLength: 1, maxLength: 24 } }, required: ['query'] } },
  { name: 'curate', description: 'Curate documents.', parameters: { type: 'object', properties: { add_ids: { type: 'array', items: { type: 'integer', minimum: 0, maximum: 20 }, maxItems: 3 }, importance: { enum: ['high', 'fair', 'low'] } }, required: ['add_ids', 'importance'] } },
  { name: 'end_search', description: 'Stop.', parameters: { type: 'object', properties: {} } },
]

const scoreItems = Array.from({ length: 16 }, (_, i) => ({
  question: `What did the girl see on day ${i}?`,
  evidence: [sentence(i, 10), sentence(i + 50, 10), sentence(i + 90, 10)],
  answer: sentence(i + 200, 3),
}))

/** Steps per second for `rollouts` policies sharing one context, each acting `steps / rollouts` times concurrently. */
async function policyRate(runtime: LlamaRuntime, spec: Parameters<typeof createPolicy>[0], rollouts: number, space: ActionSpace, observe: (step: number) => Observation): Promise<number[]> {
  const policies: LlmPolicy[] = await Promise.all(Array.from({ length: rollouts }, () => createPolicy({ ...spec, sequences: rollouts }, runtime)))
  const rates: number[] = []
  for (let rep = 0; rep <= reps; rep++) {
    const started = performance.now()
    await Promise.all(policies.map(async (policy, r) => {
      policy.reset({ seed: rep * 1000 + r, question: { id: 'b', question: 'q', answers: [], supportingFacts: [], supportingDocs: [] } })
      for (let s = r; s < steps; s += rollouts) await policy.act(observe(s), space)
    }))
    if (rep > 0) rates.push(steps / ((performance.now() - started) / 1000)) // rep 0 warms up
  }
  for (const p of policies) await p.dispose()
  return rates
}

async function scoreRate(runtime: LlamaRuntime, modelPath: string, sequences: number): Promise<number[]> {
  const answerer = (await createAnswerer({ kind: 'gguf', modelPath, sequences, contextSize: 512 }, runtime)) as GgufAnswerer
  const rates: number[] = []
  for (let rep = 0; rep <= reps; rep++) {
    answerer.clearCache()
    const started = performance.now()
    await answerer.scoreBatch(scoreItems)
    if (rep > 0) rates.push(scoreItems.length / ((performance.now() - started) / 1000))
  }
  await answerer.dispose()
  return rates
}

async function benchModel(runtime: LlamaRuntime, label: string, path: string): Promise<void> {
  const probe = await modelCacheFor(runtime).lease(path, { sequences: 1, contextSize: 512 })
  console.log(`\n${label} (${probe.modelId}): ${probe.loaded.gpuLayers}/${probe.loaded.totalLayers} layers offloaded, load ${probe.loaded.loadMs.toFixed(0)} ms`)
  for (const rollouts of [1, parallel]) {
    const mode = rollouts === 1 ? 'sequential   ' : `parallel x${rollouts}`.padEnd(13)
    const menu = await policyRate(runtime, { kind: 'llm-menu', modelPath: path, sampling: { temperature: 1, seed: 1 }, contextSize: 1024 }, rollouts, MENU, menuObservation)
    const tools = await policyRate(runtime, { kind: 'llm-tools', modelPath: path, sampling: { temperature: 0.7, seed: 1 }, contextSize: 2048, maxTokens: 96 }, rollouts, { kind: 'tools', tools: TOOLS }, (s) => ({ text: `Question: what did the girl see?\nHistory: ${sentence(s, 10)}`, data: {} }))
    const scores = await scoreRate(runtime, path, rollouts)
    console.log(`  ${mode} menu choices ${median(menu).toFixed(1)}/s   tool calls ${median(tools).toFixed(1)}/s   answerer scorings ${median(scores).toFixed(1)}/s`)
  }
  await probe.release()
}

const tmp = fixtureDir('harness-lab-bench-policy-')
try {
  const runtime = await LlamaRuntime.create({ gpu, threads })
  const info = await runtime.info()
  console.log(`backend ${info.backend}${info.gpuDevices.length ? ` (${info.gpuDevices.join(', ')})` : ''}, threads ${info.threads} of ${availableParallelism()} cores, llama.cpp ${info.llamaCppRelease} (${info.buildType})`)
  console.log(`${steps} policy steps and ${scoreItems.length} scorings per repetition, median of ${reps} after one warm-up; flash attention off (exact log-probs)`)
  const tiny = writeTinyLlama(join(tmp.dir, 'tiny.gguf'), { vocab: 'spm', embeddingLength: 64, layers: 2, contextLength: 2048 })
  await benchModel(runtime, `tiny spm 64x2 (${(tiny.bytes / 1e6).toFixed(2)} MB)`, tiny.file)
  if (storiesAvailable) await benchModel(runtime, 'stories260K', STORIES_260K)
  else console.log(`\nstories260K.gguf not found at ${STORIES_260K}: skipped`)
  await disposeModelCache(runtime)
  await runtime.dispose()
} finally {
  tmp.cleanup()
}
