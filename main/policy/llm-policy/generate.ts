import { LlamaGrammarEvaluationState, type LlamaContextSequence, type LlamaGrammar, type LlamaModel, type Token } from 'node-llama-cpp'
import { PolicyError } from '../../llm/errors'
import { reusePrefix } from '../../llm/sequence-pool'

export interface StepSampling {
  temperature: number
  topK: number
  topP: number
  minP: number
  seed: number
}

export interface GenerateRequest {
  prompt: readonly Token[]
  grammar: LlamaGrammar
  sampling: StepSampling
  maxTokens: number
  /**
   * Called with the text so far after every token: the length of the finished output when it is
   * complete (generation stops there), else null. Lets a JSON call stop at its closing brace
   * instead of sampling the whitespace the grammar still allows after it.
   */
  complete?: (text: string) => number | null
  /** Text that ends the output (not included), e.g. the chat template's end-of-turn string. */
  stopStrings?: readonly string[]
}

export type StopReason = 'eog' | 'complete' | 'stop-string' | 'max-tokens'

export interface Generated {
  /** The output, cut at the completion point or stop string. */
  text: string
  tokens: Token[]
  /**
   * Log-probability of each generated token (the end token included when it was sampled) under the
   * distribution actually sampled from: grammar mask, then top-k/top-p/min-p and temperature.
   */
  tokenLogprobs: number[]
  logprob: number
  reason: StopReason
}

/** Grammar-constrained sampling on one sequence, recording what a learner needs about each token. */
export async function generateWithGrammar(sequence: LlamaContextSequence, model: LlamaModel, request: GenerateRequest): Promise<Generated> {
  const maxTokens = Math.max(1, Math.floor(request.maxTokens))
  if (request.prompt.length + maxTokens > sequence.contextSize) {
    throw new PolicyError('invalid-input', `prompt (${request.prompt.length} tokens) + ${maxTokens} generated tokens exceed the context size ${sequence.contextSize}`)
  }
  const toEvaluate = await reusePrefix(sequence, request.prompt)
  const state = new LlamaGrammarEvaluationState({ model, grammar: request.grammar })
  const context = request.prompt.slice(-8)
  const tokens: Token[] = []
  const tokenLogprobs: number[] = []
  let text = ''
  let reason: StopReason = 'max-tokens'

  const steps = sequence.evaluateWithMetadata(toEvaluate, { confidence: true }, {
    ...request.sampling,
    grammarEvaluationState: state,
    yieldEogToken: true,
  })
  try {
    for await (const step of steps) {
      tokenLogprobs.push(Math.log(step.confidence))
      if (model.isEogToken(step.token)) {
        reason = 'eog'
        break
      }
      tokens.push(step.token)
      text = model.detokenize(tokens, false, context)
      const end = request.complete?.(text) ?? null
      if (end !== null) {
        text = text.slice(0, end)
        reason = 'complete'
        break
      }
      const stop = firstStop(text, request.stopStrings)
      if (stop !== null) {
        text = text.slice(0, stop)
        reason = 'stop-string'
        break
      }
      if (tokens.length >= maxTokens) break
    }
  } catch (error) {
    throw new PolicyError('generation-failed', `constrained generation failed after ${tokens.length} tokens: ${(error as Error).message}`, { cause: error })
  }
  return { text, tokens, tokenLogprobs, logprob: tokenLogprobs.reduce((a, b) => a + b, 0), reason }
}

function firstStop(text: string, stops: readonly string[] | undefined): number | null {
  let first: number | null = null
  for (const stop of stops ?? []) {
    const at = text.indexOf(stop)
    if (at >= 0 && (first === null || at < first)) first = at
  }
  return first
}
