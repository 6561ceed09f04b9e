/**
 * Policy-core benchmark: model load time, teacher-forced scoring and grammar-constrained choices,
 * sequential (one sequence) against parallel (several sequences in one context), on a tiny written
 * model and on ../shared/models/stories260K.gguf when present. Medians over repetitions.
 *
 *   npx tsx bench/policy-core.ts [--threads N] [--reps N] [--parallel N]
 */
import { availableParallelism } from 'node:os'
import { join } from 'node:path'
import { ConstrainedChooser, type ChoiceRequest } from '../main/llm/choice'
import { LlamaRuntime, type LoadedModel } from '../main/llm/llama-runtime'
import { LogprobScorer, type ScoreRequest } from '../main/llm/scoring'
import { fixtureDir, STORIES_260K, storiesAvailable, writeTinyLlama } from './support/gguf'

function flag(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`)
  return i >= 0 ? Number(process.argv[i + 1]) : fallback
}

const reps = flag('reps', 5)
const parallel = flag('parallel', 4)
const threadsFlag = process.argv.includes('--threads') ? flag('threads', 1) : undefined

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b)
  const mid = Math.floor(s.length / 2)
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2
}

const WORDS = ['the', 'little', 'girl', 'saw', 'a', 'big', 'day', 'and', 'she', 'was', 'happy', 'with', 'her', 'dog', 'in', 'park']
function sentence(seed: number, length: number): string {
  return Array.from({ length }, (_, i) => WORDS[(seed * 7 + i * 3 + ((seed * i) % 5)) % WORDS.length]).join(' ')
}

const scoreRequests: ScoreRequest[] = Array.from({ length: 16 }, (_, i) => ({
  prompt: `Once upon a time, ${sentence(i, 8)}.`,
  target: ` ${sentence(i + 100, 16)}.`,
}))
const MENU = ['A1', 'A2', 'S3', 'S12', 'S17', 'L4', 'L9', 'ANSWER']
const choiceRequests: ChoiceRequest[] = Array.from({ length: 16 }, (_, i) => ({
  prompt: `Step ${i}. ${sentence(i, 10)}. Next action:`,
  allowed: MENU,
  temperature: 0.8,
  seed: i,
}))

async function timeIt<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const start = performance.now()
  const value = await fn()
  return { ms: performance.now() - start, value }
}

async function benchModel(runtime: LlamaRuntime, label: string, path: string): Promise<void> {
  const loadTimes: number[] = []
  for (let i = 0; i < reps; i++) {
    const loaded = await runtime.loadModel(path)
    loadTimes.push(loaded.loadMs)
    await loaded.dispose()
  }
  const loaded: LoadedModel = await runtime.loadModel(path)
  console.log(`\n${label}: load ${median(loadTimes).toFixed(1)} ms (median of ${reps}), ${loaded.gpuLayers}/${loaded.totalLayers} layers offloaded`)

  for (const sequences of [1, parallel]) {
    const pool = await loaded.createSequencePool({ sequences, contextSize: 256 })
    const scoreRates: number[] = []
    const choiceRates: number[] = []
    const choiceTokenRates: number[] = []
    for (let rep = 0; rep < reps + 1; rep++) {
      // A fresh scorer per repetition: nothing comes from the result cache.
      const scorer = new LogprobScorer(pool, { cacheSize: 0 })
      const scored = await timeIt(() => scorer.scoreBatch(scoreRequests))
      const tokens = scored.value.reduce((n, s) => n + s.targetTokens.length, 0)
      const chooser = new ConstrainedChooser(pool)
      const chosen = await timeIt(() => chooser.chooseBatch(choiceRequests))
      const generated = chosen.value.reduce((n, c) => n + c.tokenLogprobs.length, 0)
      if (rep === 0) continue // warm-up
      scoreRates.push(tokens / (scored.ms / 1000))
      choiceRates.push(choiceRequests.length / (chosen.ms / 1000))
      choiceTokenRates.push(generated / (chosen.ms / 1000))
    }
    console.log(
      `  ${sequences === 1 ? 'sequential' : `parallel x${sequences}`}: scoring ${median(scoreRates).toFixed(0)} target tokens/s;`
      + ` choices ${median(choiceRates).toFixed(1)}/s (${median(choiceTokenRates).toFixed(0)} generated tokens/s)`,
    )
    await pool.dispose()
  }
  await loaded.dispose()
}

const tmp = fixtureDir('harness-lab-bench-')
try {
  const created = await timeIt(() => LlamaRuntime.create({ gpu: 'auto', threads: threadsFlag }))
  const runtime = created.value
  const info = await runtime.info()
  console.log(`backend ${info.backend}${info.gpuDevices.length ? ` (${info.gpuDevices.join(', ')})` : ''}, threads ${info.threads} of ${availableParallelism()} cores, llama.cpp release ${info.llamaCppRelease}, runtime start ${created.ms.toFixed(0)} ms`)
  console.log(`${scoreRequests.length} scoring requests and ${choiceRequests.length} choices per repetition, ${reps} repetitions after one warm-up`)
  const tiny = writeTinyLlama(join(tmp.dir, 'tiny.gguf'), { vocab: 'spm', embeddingLength: 64, layers: 2 })
  await benchModel(runtime, `tiny spm 64x2 (${(tiny.bytes / 1e6).toFixed(2)} MB)`, tiny.file)
  if (storiesAvailable) await benchModel(runtime, 'stories260K', STORIES_260K)
  else console.log(`\nstories260K.gguf not found at ${STORIES_260K}: skipped`)
  await runtime.dispose()
} finally {
  tmp.cleanup()
}
