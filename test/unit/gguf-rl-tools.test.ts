/**
 * RL on stories260K's own weights in the two tool-calling environments: Harness-1 (the stateful harness,
 * JSON tool calls under the schema grammar) and free-query (search queries the model writes). One step
 * of G sampled rollouts per question goes through train.run's runner; the token batch the trainer gets
 * holds each decision's prompt (weight 0) and the tokens that were sampled, and after the update the
 * chosen tokens' log-probabilities (teacher-forced in node-llama-cpp, saved GGUF vs base) moved in the
 * direction of their advantages: the advantage-weighted sum of the changes is positive (the objective the
 * update climbs) and positively advantaged calls fared better than negatively advantaged ones. (A tool
 * call is tens of tokens, so tokens shared by every call, the JSON syntax, move with the batch's balance
 * of signs; a single call's own change need not carry its advantage's sign.)
 */
import { describe, expect, it } from 'vitest'
import type { Token } from 'node-llama-cpp'
import { runTraining } from '../../main/experiments/training'
import { evaluateTarget } from '../../main/llm/scoring'
import { LexicalAnswerer } from '../../main/policy/answerer/lexical-answerer'
import type { TokenBatch } from '../../main/rl/trainer'
import { useGgufTrainingFixture } from '../helpers/gguf-training'
import { STORIES_260K, storiesAvailable, storiesTitle } from '../helpers/gguf'
import { useRuntimeFixture } from '../helpers/gguf/runtime'
import { getSharedRuntime } from '../../main/llm/llama-runtime'

describe.skipIf(!storiesAvailable)(storiesTitle('RL on the GGUF weights through tool calls (stories260K)'), () => {
  const fixture = useRuntimeFixture()
  const f = useGgufTrainingFixture('harness-gguf-tools-')

  /** Sum of log p(chosen tokens | prompt) per sequence of the batch (the weighted positions), under `modelPath`. */
  async function chosenLogprobs(modelPath: string, batch: TokenBatch): Promise<number[]> {
    const loaded = await fixture.runtime().loadModel(modelPath)
    try {
      const context = await loaded.createContext({ contextSize: 2048 })
      const sequence = context.getSequence()
      const sums: number[] = []
      // One sequence for every item: each evaluation reuses the cached prefix it shares with the last (the system
      // prompt), as the app's own scoring does, the same way for both models.
      for (const item of batch.items) {
        const cut = item.weights.findIndex((w, i) => w !== 0 || item.klWeights[i] !== 0)
        sums.push((await evaluateTarget(sequence, item.tokens.slice(0, cut) as Token[], item.tokens.slice(cut) as Token[])).sum)
      }
      await context.dispose()
      return sums
    } finally {
      await loaded.dispose()
    }
  }

  for (const [environment, contextSize, maxTokens, questionsPerStep, extra] of [
    // Harness-1's system prompt lists its tools: about 1,600 of stories260K's tokens.
    // Calls need room to finish (cut calls are format errors, which all score alike).
    // One question: its group's rewards differ (a second question's group, all alike, added only KL-only decisions).
    ['stateful', 2048, 128, 1, { envConfig: { maxTurns: 2 }, reward: { weights: { harness1: 1 } } }],
    // stories260K rarely commits gold sentences: a per-turn cost makes its groups differ (answering early pays).
    ['free-query', 1024, 48, 2, { envConfig: { turnLimit: 3 }, reward: { weights: { 'sp.f1': 1, 'cost.turn': 1 } } }],
  ] as const) {
    it(`trains on the ${environment} environment's sampled tool calls in the direction of their advantages`, async (ctx) => {
      if (f.unavailable) return ctx.skip(`GGUF trainer f.unavailable: ${f.unavailable}`)
      let batch: TokenBatch | null = null
      const result = await runTraining(
        f.demo.db.raw,
        {
          environment,
          steps: 1,
          groupSize: 3,
          questionsPerStep,
          evalInterval: 1,
          seed: 5,
          temperature: 1,
          credit: { scheme: 'outcome', lambda: 0 },
          dropZeroVariance: false,
          train: { questionSetId: 1, offset: 0, limit: f.total - 1 },
          heldOut: { questionSetId: 1, offset: f.total - 1, limit: 1 },
          gguf: { modelPath: STORIES_260K, learningRate: 0.0002, contextSize, maxTokens },
          ...extra,
        },
        { answerer: new LexicalAnswerer(), appVersion: 'test', jobId: null, progress: () => {}, throwIfCancelled: () => {}, ggufDir: f.dir, llm: getSharedRuntime, onBatch: (_s, b) => (batch = b) },
      )
      expect(f.demo.db.raw.prepare('select status from runs where id = ?').pluck().get(result.runId)).toBe('done')
      const b = batch as TokenBatch | null
      expect(b).not.toBeNull()
      expect(b!.decisions).toBeGreaterThan(0)
      // The decisions with an advantage (the KL term also sends the others, whose gradient is 0 at the base).
      const trained = { ...b!, items: b!.items.filter((item) => item.weights.some((w) => w !== 0)) }
      const advantages = trained.items.map((item) => item.weights.find((w) => w !== 0)!)
      const before = await chosenLogprobs(STORIES_260K, trained)
      const after = await chosenLogprobs(result.model!.path, trained)
      const moved = after.map((x, i) => x - before[i]!)
      // The first-order effect of the update: sum of advantage x change of log p is positive.
      expect(moved.reduce((s, d, i) => s + d * advantages[i]!, 0)).toBeGreaterThan(0)
      const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / Math.max(1, xs.length)
      const up = moved.filter((_, i) => advantages[i]! > 0)
      const down = moved.filter((_, i) => advantages[i]! < 0)
      expect(up.length).toBeGreaterThan(0)
      expect(down.length).toBeGreaterThan(0)
      expect(mean(up)).toBeGreaterThan(mean(down))
    }, 900_000)
  }
})
