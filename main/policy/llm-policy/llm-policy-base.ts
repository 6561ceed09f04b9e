import type { Token } from 'node-llama-cpp'
import { systemPrompt, type ActionSpace, type EnvQuestion, type PromptParams, type Protocol } from '../../harness'
import type { PolicyDecision } from '../../harness'
import { PolicyError } from '../../llm/errors'
import type { SequencePool } from '../../llm/sequence-pool'
import { tokenizePrompt } from '../../llm/tokens'
import { fitBody, PromptRenderer, type RenderedPrompt, type TemplateChoice } from '../prompt'
import { EpisodeSeeds, resolveSampling, type ResolvedSampling, type SamplingSettings } from './sampling'

/** The model a policy runs on: a pool of sequences (usually leased from the ModelCache) and its id. */
export interface PolicyModel {
  pool: SequencePool
  /** "<file name>@<short hash>", recorded with every run. */
  modelId: string
  /** Called by dispose(): gives a cache lease back. */
  release?: () => Promise<void>
}

export interface LlmPolicyOptions {
  /** The protocol it speaks: its system prompt is the protocol's (main/harness/protocols.ts). */
  protocol: Protocol
  /** What the system prompt reads of the environment's config (the run's own, e.g. the free query's maxQueryChars). */
  promptParams?: PromptParams
  sampling?: SamplingSettings
  /** 'auto' (default): the model's chat template when it has one, else the plain layout. */
  template?: TemplateChoice
  /** Replaces the protocol's instructions in the system prompt (the tools block still follows). */
  systemPrompt?: string
  /** Tool kinds: list each tool in the system prompt as a compact signature with its descriptions (default true). */
  describeTools?: boolean
  /** Keep the prompt and chosen token ids in each decision (for training the model's own weights). */
  recordTokens?: boolean
  /**
   * Repeat the question at the end of the prompt, right before the reply. A small model copies words from
   * nearby tokens far better than from the top of a long prompt: stories260K (512-token training length)
   * never learned to copy a question 400 tokens back into its query, and does from 10 tokens back.
   */
  restateQuestion?: boolean
}

/** What an LLM policy records per step, beyond the shared PolicyDecision fields (all of which it fills). */
export interface LlmDecision extends PolicyDecision {
  logprob: number
  raw: string
  /** Generated tokens, the end token included when it was sampled. */
  tokens: number
  ms: number
  tokenLogprobs: number[]
  promptTokens: number
  /** The sampling seed of this step (derived from the run seed, the episode seed and the step). */
  seed: number
  step: number
  /** 'plain' or the chat wrapper that rendered the prompt. */
  template: string
  /** Characters cut from the middle of the observation to fit the context (0 normally). */
  cutChars: number
  /** Why model output became a text action (the environment then records a format error). */
  formatError?: string
  /** Free-query mode: the query was longer than the cap and was cut (only where the grammar could not cap it). */
  queryCut?: boolean
  /** Teacher forcing: the policy whose choice this decision records (nothing was sampled; logprob is 0). */
  imitated?: string
  /** With recordTokens: the prompt's token ids and the chosen reply's (the end token excluded). */
  tokenIds?: { prompt: number[]; chosen: number[] }
}

/** Sampling, seeding, prompt rendering and model ownership shared by the menu and tool policies. */
export abstract class LlmPolicyBase {
  abstract readonly name: string
  protected readonly sampling: ResolvedSampling
  protected readonly renderer: PromptRenderer
  private readonly seeds: EpisodeSeeds
  private disposed = false
  private question: string | null = null

  constructor(protected readonly model: PolicyModel, protected readonly options: LlmPolicyOptions) {
    this.sampling = resolveSampling(options.sampling)
    this.seeds = new EpisodeSeeds(this.sampling.seed)
    this.renderer = new PromptRenderer(model.pool.model, options.template ?? 'auto')
  }

  get template(): string {
    return this.renderer.template
  }

  get contextSize(): number {
    return this.model.pool.context.contextSize
  }

  reset(episode: { seed: number; question: EnvQuestion }): void {
    // The question's gold fields are deliberately not read: the policy sees only observations.
    this.seeds.reset(episode.seed)
    this.question = episode.question.question
  }

  /** The user message for an observation: its text, then the question again where restateQuestion asks for it. */
  protected bodyOf(observationText: string): string {
    if (!this.options.restateQuestion) return observationText
    if (this.question === null) throw new PolicyError('invalid-input', `${this.name}: restateQuestion needs reset() with the episode's question first`)
    return `${observationText}\n\nQuestion (again): ${this.question}`
  }

  protected nextStep(): { seed: number; step: number } {
    if (this.disposed) throw new PolicyError('disposed', `${this.name} has been disposed`)
    return this.seeds.next(this.name)
  }

  /** The system prompt act() sends in this action space: the protocol's with the run's parameters, as the environment server and the SFT export give it. */
  systemPromptAt(actions: ActionSpace): string {
    const tools = actions.kind === 'tools' ? actions.tools : []
    return systemPrompt(this.options.protocol, this.options.promptParams ?? {}, tools, { instructions: this.options.systemPrompt, describeTools: this.options.describeTools })
  }

  /** Renders system + observation, cutting the observation's middle if the prompt and `reserve` generated tokens would not fit. */
  protected renderFitted(system: string, body: string, cue: string, reserve: number): { prompt: RenderedPrompt; tokens: Token[]; cutChars: number } {
    const model = this.model.pool.model
    const budget = this.contextSize - reserve
    const fitted = fitBody(body, budget - 1, (text) => this.renderer.render({ system, user: text, cue }))
    return { prompt: fitted.prompt, tokens: tokenizePrompt(model, fitted.prompt.tokens), cutChars: fitted.cutChars }
  }

  async dispose(): Promise<void> {
    if (this.disposed) return
    this.disposed = true
    await this.model.release?.()
  }
}
