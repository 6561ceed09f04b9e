import { createHash } from 'node:crypto'
import { LlamaGrammar, type Token } from 'node-llama-cpp'
import type { Answerer } from '../../harness'
import { PolicyError } from '../../llm/errors'
import { generateWithGrammar } from '../llm-policy/generate'
import type { PolicyModel } from '../llm-policy/llm-policy-base'
import { LruCache } from '../../llm/lru-cache'
import { ANSWER_CUE, ANSWER_SYSTEM_PROMPT, answerUserMessage, PromptRenderer, type RenderedPrompt, type TemplateChoice } from '../prompt'
import { LogprobScorer } from '../../llm/scoring'
import { tokenizePrompt } from '../../llm/tokens'

export interface GgufAnswererOptions {
  template?: TemplateChoice
  systemPrompt?: string
  /** Most tokens of a generated answer (default 16). */
  maxAnswerTokens?: number
  /** Scores and answers kept in memory (default 8192). */
  cacheSize?: number
  /**
   * 'set' (default): evidence is deduplicated and put in a canonical order, so a score depends on
   * which sentences were gathered, not on the path that gathered them (two rollouts reaching the
   * same evidence get the same score, and re-surfacing a sentence changes nothing). 'given' keeps
   * the caller's order and duplicates.
   */
  evidenceOrder?: 'set' | 'given'
}

export interface AnswerScoreDetail {
  /** Mean log-probability of the answer tokens: what score() returns. */
  mean: number
  sum: number
  tokenLogprobs: number[]
  promptTokens: Token[]
  targetTokens: Token[]
  /** Evidence sentences in the prompt (after deduplication, and after dropping what did not fit). */
  evidenceUsed: number
  cached: boolean
}

export interface AnswerDetail {
  /** The answer, trimmed: what answer() returns. */
  text: string
  promptTokens: Token[]
  /** The generated tokens (before the stop string was cut from the text). */
  tokens: Token[]
}

export interface AnswererStats {
  /** score() calls answered by a model pass. */
  scored: number
  /** score() calls answered from the cache (including calls joining a pass already in flight). */
  cacheHits: number
  answered: number
  /** Evidence sentences left out because the prompt would not fit the context. */
  evidenceDropped: number
}

export interface ScoreItem {
  question: string
  evidence: readonly string[]
  answer: string
}

/** One line, starting with a visible character: the shape of a short answer. */
const ANSWER_GRAMMAR = 'root ::= [ ]? [^ \\t\\n\\r] [^\\n\\r]*'

/**
 * The frozen answerer over a GGUF model. score() is the mean teacher-forced log-probability of the
 * gold answer's tokens after a prompt holding the question and the evidence (the model's full
 * next-token distribution, no sampling truncation), cached by (question, evidence set, answer);
 * answer() writes a greedy one-line answer of at most a few tokens for EM/F1.
 */
export class GgufAnswerer implements Answerer {
  readonly name: string
  readonly lexical = false
  private readonly renderer: PromptRenderer
  private readonly scorer: LogprobScorer
  private readonly scores: LruCache<string, Omit<AnswerScoreDetail, 'cached'>>
  private readonly answers: LruCache<string, string>
  private readonly inflight = new Map<string, Promise<Omit<AnswerScoreDetail, 'cached'>>>()
  private readonly counters: AnswererStats = { scored: 0, cacheHits: 0, answered: 0, evidenceDropped: 0 }
  private readonly maxAnswerTokens: number
  private disposed = false

  constructor(private readonly model: PolicyModel, private readonly options: GgufAnswererOptions = {}) {
    this.name = model.modelId
    this.renderer = new PromptRenderer(model.pool.model, options.template ?? 'auto')
    // The answerer keeps its own cache keyed by text; the scorer's token-keyed one would duplicate it.
    this.scorer = new LogprobScorer(model.pool, { cacheSize: 0 })
    this.scores = new LruCache(options.cacheSize ?? 8192)
    this.answers = new LruCache(Math.max(1, Math.floor((options.cacheSize ?? 8192) / 8)))
    this.maxAnswerTokens = Math.max(1, Math.floor(options.maxAnswerTokens ?? 16))
  }

  get template(): string {
    return this.renderer.template
  }

  get stats(): Readonly<AnswererStats> {
    return { ...this.counters }
  }

  async score(question: string, evidence: string[], answer: string): Promise<number> {
    return (await this.scoreDetailed(question, evidence, answer)).mean
  }

  /** Several scores at once: up to the pool's sequence count share each llama.cpp batch. */
  scoreBatch(items: readonly ScoreItem[]): Promise<number[]> {
    return Promise.all(items.map((item) => this.score(item.question, [...item.evidence], item.answer)))
  }

  async scoreDetailed(question: string, evidence: readonly string[], answer: string): Promise<AnswerScoreDetail> {
    this.assertLive()
    const gold = answer.trim()
    if (gold.length === 0) throw new PolicyError('invalid-input', 'cannot score an empty answer')
    const items = this.canonical(evidence)
    const key = cacheKey('score', question, items, gold)
    const hit = this.scores.get(key)
    if (hit) {
      this.counters.cacheHits++
      return { ...hit, cached: true }
    }
    let pending = this.inflight.get(key)
    if (pending) this.counters.cacheHits++
    else {
      this.counters.scored++
      pending = this.evaluate(question, items, gold)
      this.inflight.set(key, pending)
      pending.then((detail) => this.scores.set(key, detail), () => {}).finally(() => this.inflight.delete(key))
    }
    return { ...(await pending), cached: false }
  }

  private async evaluate(question: string, items: string[], gold: string): Promise<Omit<AnswerScoreDetail, 'cached'>> {
    // A base model reads "Answer: Paris"; a chat template opens the assistant's turn and the answer follows directly.
    const continuation = this.renderer.usesChatTemplate ? gold : ` ${gold}`
    const { prompt, used } = this.fit(question, items, (rendered) => this.renderer.split(rendered, continuation).target.length)
    const split = this.renderer.split(prompt, continuation)
    const result = await this.scorer.score({ prompt: split.prompt, target: split.target })
    return {
      mean: result.mean,
      sum: result.sum,
      tokenLogprobs: result.tokenLogprobs,
      promptTokens: result.promptTokens,
      targetTokens: result.targetTokens,
      evidenceUsed: used,
    }
  }

  async answer(question: string, evidence: string[]): Promise<string> {
    this.assertLive()
    const items = this.canonical(evidence)
    const key = cacheKey('answer', question, items, '')
    const cached = this.answers.get(key)
    if (cached !== undefined) return cached
    const { text } = await this.generate(question, items)
    this.answers.set(key, text)
    return text
  }

  /** answer() without its cache, with the prompt and the generated tokens (for checks of the decoding itself). */
  async answerDetailed(question: string, evidence: readonly string[]): Promise<AnswerDetail> {
    this.assertLive()
    return this.generate(question, this.canonical(evidence))
  }

  private async generate(question: string, items: string[]): Promise<AnswerDetail> {
    // One grammar per generation: concurrent sequences sharing a LlamaGrammar were seen to swap tokens (llm/choice.ts).
    const grammar = new LlamaGrammar(this.model.pool.model.llama, { grammar: ANSWER_GRAMMAR })
    const { prompt } = this.fit(question, items, () => this.maxAnswerTokens)
    const tokens = tokenizePrompt(this.model.pool.model, prompt.tokens)
    const generated = await this.model.pool.use((sequence) => generateWithGrammar(sequence, this.model.pool.model, {
      prompt: tokens,
      grammar,
      sampling: { temperature: 0, topK: 0, topP: 1, minP: 0, seed: 0 },
      maxTokens: this.maxAnswerTokens,
      stopStrings: prompt.stopTriggers,
    }))
    this.counters.answered++
    return { text: generated.text.trim(), promptTokens: tokens, tokens: generated.tokens }
  }

  private canonical(evidence: readonly string[]): string[] {
    const trimmed = evidence.map((e) => e.trim()).filter((e) => e.length > 0)
    if ((this.options.evidenceOrder ?? 'set') === 'given') return trimmed
    // Code-unit order, not localeCompare: the same on every machine.
    return [...new Set(trimmed)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
  }

  /**
   * The prompt with as much evidence as fits next to `reserve(prompt)` more tokens. Later sentences
   * are dropped first and counted in stats.evidenceDropped.
   */
  private fit(question: string, items: string[], reserve: (prompt: RenderedPrompt) => number): { prompt: RenderedPrompt; used: number } {
    const room = this.model.pool.context.contextSize - 1
    const system = this.options.systemPrompt ?? ANSWER_SYSTEM_PROMPT
    const render = (n: number): RenderedPrompt => this.renderer.render({ system, user: answerUserMessage(question, items.slice(0, n)), cue: ANSWER_CUE })
    let n = items.length
    let prompt = render(n)
    while (prompt.tokens.length + reserve(prompt) > room) {
      if (n === 0) throw new PolicyError('invalid-input', `the question and answer alone take more than the context size ${room + 1}`)
      // Shrink in proportion to the overflow, at least one sentence per try.
      const over = prompt.tokens.length + reserve(prompt) - room
      const perItem = prompt.tokens.length / Math.max(1, n)
      n = Math.max(0, Math.min(n - 1, n - Math.ceil(over / Math.max(1, perItem))))
      prompt = render(n)
    }
    this.counters.evidenceDropped += items.length - n
    return { prompt, used: n }
  }

  clearCache(): void {
    this.scores.clear()
    this.answers.clear()
  }

  private assertLive(): void {
    if (this.disposed) throw new PolicyError('disposed', `the answerer ${this.name} has been disposed`)
  }

  async dispose(): Promise<void> {
    if (this.disposed) return
    this.disposed = true
    await this.model.release?.()
  }
}

function cacheKey(kind: string, question: string, evidence: readonly string[], answer: string): string {
  // Length-prefixed fields cannot run into each other; the digest keeps long evidence out of memory.
  const hash = createHash('sha256')
  for (const field of [kind, question.trim(), String(evidence.length), ...evidence, answer]) hash.update(`${field.length}:${field}`)
  return hash.digest('base64')
}
