import { randomInt } from 'node:crypto'
import { LlamaGrammar, LlamaGrammarEvaluationState, type LlamaContextSequence, type LlamaModel, type Token } from 'node-llama-cpp'
import { PolicyError } from './errors'
import { LruCache } from './lru-cache'
import { reusePrefix, type SequencePool } from './sequence-pool'
import { tokenizePrompt, type TextOrTokens, type TokenizeOptions } from './tokens'

export interface SamplingOptions {
  /** 0 (default) is greedy. */
  temperature?: number
  /** 0 (default) keeps the whole vocabulary. */
  topK?: number
  /** 1 (default) keeps the whole distribution. */
  topP?: number
  minP?: number
  /** Sampling seed; a random one is drawn (and reported) when absent. */
  seed?: number
}

export interface ChoiceRequest extends SamplingOptions {
  prompt: TextOrTokens
  /** Allowed ids such as "A1", "S12"; the model must produce exactly one of them. */
  allowed: readonly string[]
}

export interface ChoiceResult {
  id: string
  /**
   * Sum of the log-probabilities of the generated tokens, including the end-of-generation token when
   * another allowed id extends this one, under the distribution actually sampled from: the grammar
   * mask, then top-k/top-p/min-p and temperature. At temperature 0 it is the grammar-masked softmax.
   */
  logprob: number
  tokens: Token[]
  tokenLogprobs: number[]
  seed: number
}

const ESCAPES: Record<string, string> = { '"': '\\"', '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' }

/** A GBNF string literal for arbitrary text: quotes, backslashes and control characters escaped. */
export function gbnfLiteral(text: string): string {
  let out = '"'
  for (const ch of text) {
    const code = ch.codePointAt(0)!
    if (ESCAPES[ch]) out += ESCAPES[ch]
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, '0')}`
    else out += ch
  }
  return `${out}"`
}

/** GBNF admitting exactly one of the ids and nothing else. */
export function choiceGrammar(ids: readonly string[]): string {
  return `root ::= ${normalizeIds(ids).map(gbnfLiteral).join(' | ')}`
}

function normalizeIds(ids: readonly string[]): string[] {
  const unique = [...new Set(ids)]
  if (unique.length === 0) throw new PolicyError('invalid-input', 'a choice needs at least one allowed id')
  if (unique.some((id) => id.length === 0)) throw new PolicyError('invalid-input', 'allowed ids must be non-empty strings')
  return unique
}

/**
 * Grammar-constrained choice among a finite menu of ids: the model writes one id, token by token,
 * with a GBNF grammar masking everything else, and the log-probability of what it wrote is recorded
 * for the learner.
 */
export class ConstrainedChooser {
  /**
   * Idle grammars by menu. A LlamaGrammar is never shared by two generations at once: under load,
   * concurrent sequences sampling with one grammar object were seen to swap tokens between them
   * (test/unit/answerer.test.ts caught it), so each in-flight choice takes its own and returns it.
   */
  private readonly idle = new LruCache<string, LlamaGrammar[]>(256)

  constructor(private readonly pool: SequencePool, private readonly options: TokenizeOptions = {}) {}

  async choose(request: ChoiceRequest): Promise<ChoiceResult> {
    const ids = normalizeIds(request.allowed)
    const model = this.pool.model
    const prompt = tokenizePrompt(model, request.prompt, this.options)
    const key = JSON.stringify(ids)
    const free = this.idle.get(key)
    const grammar = free?.pop() ?? new LlamaGrammar(model.llama, { grammar: choiceGrammar(ids) })
    try {
      return await this.pool.use((sequence) => generateChoice(sequence, model, prompt, ids, grammar, request))
    } finally {
      const back = this.idle.get(key) ?? []
      back.push(grammar)
      this.idle.set(key, back)
    }
  }

  /** Several choices at once, spread over the pool's sequences. */
  chooseBatch(requests: readonly ChoiceRequest[]): Promise<ChoiceResult[]> {
    return Promise.all(requests.map((r) => this.choose(r)))
  }
}

async function generateChoice(
  sequence: LlamaContextSequence,
  model: LlamaModel,
  prompt: Token[],
  ids: string[],
  grammar: LlamaGrammar,
  sampling: SamplingOptions,
): Promise<ChoiceResult> {
  const longest = Math.max(...ids.map((id) => Buffer.byteLength(id)))
  // Every token carries at least one byte; one more step for the end token.
  const maxSteps = longest + 1
  if (prompt.length + maxSteps > sequence.contextSize) {
    throw new PolicyError('invalid-input', `prompt (${prompt.length} tokens) leaves no room for a choice in context size ${sequence.contextSize}`)
  }
  const allowed = new Set(ids)
  const seed = sampling.seed ?? randomInt(2 ** 31)
  const toEvaluate = await reusePrefix(sequence, prompt)
  const state = new LlamaGrammarEvaluationState({ model, grammar })
  const tokens: Token[] = []
  const tokenLogprobs: number[] = []
  const context = prompt.slice(-8)
  let text = ''
  let finished = false

  const steps = sequence.evaluateWithMetadata(toEvaluate, { confidence: true }, {
    temperature: sampling.temperature ?? 0,
    topK: sampling.topK ?? 0,
    topP: sampling.topP ?? 1,
    minP: sampling.minP ?? 0,
    seed,
    grammarEvaluationState: state,
    yieldEogToken: true,
  })
  for await (const step of steps) {
    const logprob = Math.log(step.confidence)
    if (model.isEogToken(step.token)) {
      tokenLogprobs.push(logprob)
      finished = true
      break
    }
    tokens.push(step.token)
    tokenLogprobs.push(logprob)
    text = model.detokenize(tokens, false, context)
    // When no other id extends this one the grammar only admits the end token (probability 1): stop early.
    if (allowed.has(text) && !ids.some((id) => id !== text && id.startsWith(text))) {
      finished = true
      break
    }
    if (tokens.length >= maxSteps) break
  }
  if (!finished || !allowed.has(text)) {
    throw new PolicyError('generation-failed', `constrained generation produced ${JSON.stringify(text)}, which is not one of ${ids.length} allowed ids`)
  }
  return { id: text, logprob: tokenLogprobs.reduce((a, b) => a + b, 0), tokens, tokenLogprobs, seed }
}
