import type { ControlledEvaluateInputItem, LlamaContextSequence, Token } from 'node-llama-cpp'
import { PolicyError } from './errors'
import { LruCache } from './lru-cache'
import { reusePrefix, type SequencePool } from './sequence-pool'
import { splitContinuation, type TextOrTokens, type TokenizeOptions } from './tokens'

export interface ScoreRequest {
  prompt: TextOrTokens
  target: TextOrTokens
  /** Cache key; defaults to the prompt and target token ids. */
  key?: string
}

export interface TargetScore {
  promptTokens: Token[]
  targetTokens: Token[]
  /** log p(target[i] | prompt, target[<i]) under the full softmax (no sampling truncation). */
  tokenLogprobs: number[]
  sum: number
  mean: number
  /** Tokens whose float32 probability underflowed to 0 and were floored at FLOOR_LOGPROB. */
  floored: number
  cached: boolean
}

/** log of the smallest positive float32: what a probability that rounded to zero is counted as. */
export const FLOOR_LOGPROB = Math.log(1.401298464324817e-45)

export interface ScorerOptions extends TokenizeOptions {
  /** Results kept in memory (default 4096). */
  cacheSize?: number
}

/**
 * Teacher-forced log-likelihood of continuations. Each target token is fed in order and the model's
 * full next-token distribution is read at every position (controlledEvaluate with
 * generateNext.probabilities and no sampling options), so the numbers are the model's, not a
 * sampler's. Requests run on the pool's sequences in parallel.
 */
export class LogprobScorer {
  private readonly cache: LruCache<string, Omit<TargetScore, 'cached'>>
  private readonly inflight = new Map<string, Promise<Omit<TargetScore, 'cached'>>>()

  constructor(private readonly pool: SequencePool, private readonly options: ScorerOptions = {}) {
    this.cache = new LruCache(options.cacheSize ?? 4096)
  }

  async score(request: ScoreRequest): Promise<TargetScore> {
    const model = this.pool.model
    const { prompt, target } = splitContinuation(model, request.prompt, request.target, this.options)
    const key = request.key ?? `${prompt.join(',')}|${target.join(',')}`
    const hit = this.cache.get(key)
    if (hit) return { ...hit, cached: true }
    let pending = this.inflight.get(key)
    if (!pending) {
      pending = this.pool.use((sequence) => evaluateTarget(sequence, prompt, target))
      this.inflight.set(key, pending)
      pending.then((result) => this.cache.set(key, result), () => {}).finally(() => this.inflight.delete(key))
    }
    return { ...(await pending), cached: false }
  }

  /** Score several requests concurrently: up to pool.size of them share each llama.cpp batch. */
  scoreBatch(requests: readonly ScoreRequest[]): Promise<TargetScore[]> {
    return Promise.all(requests.map((r) => this.score(r)))
  }

  clearCache(): void {
    this.cache.clear()
  }
}

/** One teacher-forced pass on a sequence: exported for callers that manage sequences themselves. */
export async function evaluateTarget(sequence: LlamaContextSequence, prompt: readonly Token[], target: readonly Token[]): Promise<Omit<TargetScore, 'cached'>> {
  if (prompt.length + target.length > sequence.contextSize) {
    throw new PolicyError('invalid-input', `prompt (${prompt.length}) + target (${target.length}) tokens exceed the context size ${sequence.contextSize}`)
  }
  const toEvaluate = await reusePrefix(sequence, prompt)
  // The distribution after position i predicts token i + 1: ask for it at the last prompt token and
  // every target token but the last.
  const input: ControlledEvaluateInputItem[] = toEvaluate.map((token, i) =>
    i === toEvaluate.length - 1 ? [token, { generateNext: { probabilities: true } }] : token)
  target.forEach((token, i) => {
    input.push(i < target.length - 1 ? [token, { generateNext: { probabilities: true } }] : token)
  })
  const output = await sequence.controlledEvaluate(input)
  const first = toEvaluate.length - 1
  const tokenLogprobs: number[] = []
  let floored = 0
  for (let i = 0; i < target.length; i++) {
    const probabilities = output[first + i]?.next.probabilities
    if (!probabilities) throw new PolicyError('generation-failed', `no next-token distribution at target position ${i}`)
    const p = probabilities.get(target[i]!) ?? 0
    if (p > 0) tokenLogprobs.push(Math.log(p))
    else {
      floored++
      tokenLogprobs.push(FLOOR_LOGPROB)
    }
  }
  const sum = tokenLogprobs.reduce((a, b) => a + b, 0)
  return { promptTokens: [...prompt], targetTokens: [...target], tokenLogprobs, sum, mean: sum / target.length, floored }
}
