import type { Policy } from '../../harness'
import { protocolDeclaration, SEARCH_TOOL, toolCallForMenuId, type Action, type ActionSpace, type Observation, type ToolSchema } from '../../harness'
import { LlamaGrammar } from 'node-llama-cpp'
import { PolicyError } from '../../llm/errors'
import { LruCache } from '../../llm/lru-cache'
import { TOOLS_CUE } from '../prompt'
import { policySide } from '../protocols'
import { extractiveQuery, extractiveSearchTools, observedWords } from './extractive-query'
import { assertSearchTool, capQueryInAction, capQueryInGrammar } from './free-query'
import { generateWithGrammar } from './generate'
import { completedJsonEnd } from './json-scan'
import { LlmPolicyBase, type LlmDecision, type LlmPolicyOptions, type PolicyModel } from './llm-policy-base'
import { buildToolCallGrammar, parseToolCall, type ToolCallGrammar } from './tool-call'

export interface ToolPolicyOptions extends LlmPolicyOptions {
  /** Most tokens a call may take before it is given up as a format error (default 256). */
  maxTokens?: number
  /** Cap for strings whose schema has no maxLength (default 512 characters). */
  maxStringLength?: number
  /** Free query: decode the query as words of the observation (extractive-query.ts), not any characters. */
  extractiveQueries?: boolean
}

/** Free query: the query cap when the caller gives no environment config (promptParams.maxQueryChars). */
export const DEFAULT_MAX_QUERY_CHARS = 96

/**
 * An LLM calling tools (Harness-1, and the free-query baseline): the reply is a JSON tool call
 * constrained by a grammar built from the tools' schemas, then validated against the full schemas.
 * A call that does not finish or does not validate is passed on as text, so the environment records
 * the format error the way it would for any malformed reply.
 */
export class ToolLlmPolicy extends LlmPolicyBase implements Policy {
  readonly name: string
  private readonly grammars = new LruCache<string, Promise<ToolCallGrammar>>(32)
  private readonly maxTokens: number
  private readonly maxQueryChars: number | null

  constructor(model: PolicyModel, private readonly toolOptions: ToolPolicyOptions) {
    // Where the protocol lets the policy write its own queries (free query), they are capped: the prompt says so.
    const maxQueryChars = protocolDeclaration(toolOptions.protocol).queryTool === null ? null : Math.max(1, Math.floor(toolOptions.promptParams?.maxQueryChars ?? DEFAULT_MAX_QUERY_CHARS))
    super(model, maxQueryChars === null ? toolOptions : { ...toolOptions, promptParams: { ...toolOptions.promptParams, maxQueryChars } })
    this.maxQueryChars = maxQueryChars
    this.name = `${policySide(toolOptions.protocol).llmKind}:${model.modelId}`
    this.maxTokens = Math.max(8, Math.floor(toolOptions.maxTokens ?? 256))
  }

  /** The grammar and validators for a tool set (built once per distinct set). */
  grammarFor(tools: readonly ToolSchema[]): Promise<ToolCallGrammar> {
    const key = JSON.stringify(tools.map((t) => [t.name, t.parameters]))
    let grammar = this.grammars.get(key)
    if (!grammar) {
      grammar = buildToolCallGrammar(this.model.pool.model.llama, tools, {
        defaultMaxStringLength: this.toolOptions.maxStringLength,
        adjust: this.maxQueryChars === null ? undefined : capQueryInGrammar(this.maxQueryChars),
      })
      this.grammars.set(key, grammar)
    }
    return grammar
  }

  /** The tools the reply's grammar admits here: the environment's, with an extractive query when asked for (the prompt still lists the environment's). */
  private grammarTools(observation: Observation, tools: readonly ToolSchema[]): { tools: readonly ToolSchema[]; words: ReadonlySet<string> | null } {
    if (!this.toolOptions.extractiveQueries || this.maxQueryChars === null) return { tools, words: null }
    const words = observedWords(this.bodyOf(observation.text))
    return { tools: extractiveSearchTools(tools, words), words: new Set(words) }
  }

  /** The prompt act() sends for this state (system prompt with the tools, room for `maxTokens` of reply). */
  private promptFor(observation: Observation, actions: ActionSpace & { kind: 'tools' }) {
    if (actions.tools.length === 0) throw new PolicyError('invalid-input', `${this.name}: no tools are available (the episode is over)`)
    if (this.maxQueryChars !== null) assertSearchTool(actions.tools, this.name)
    const system = this.systemPromptAt(actions)
    const maxTokens = Math.min(this.maxTokens, Math.max(8, Math.floor(this.contextSize / 2)))
    return { maxTokens, ...this.renderFitted(system, this.bodyOf(observation.text), TOOLS_CUE, maxTokens) }
  }

  /**
   * Teacher forcing: the decision this policy records had it made `action` (another policy's tool call)
   * at this state: the prompt act() sends and the call as the JSON reply the grammar admits
   * ({"name": ..., "arguments": ...}), validated like a sampled one; nothing is sampled.
   */
  async imitate(observation: Observation, actions: ActionSpace, action: Action, teacher: string): Promise<LlmDecision> {
    if (actions.kind !== 'tools') throw new PolicyError('invalid-input', `${this.name} needs a tools action space, got ${actions.kind}`)
    // Free query takes the menu ids S<n>, W<n> and A directly; a model writes them as select / answer calls.
    const call = action.kind === 'menu' && this.maxQueryChars !== null ? toolCallForMenuId(action.id) : action
    if (call?.kind !== 'tool') throw new PolicyError('invalid-input', `${teacher} replied ${JSON.stringify(action)}, not a tool call`)
    let capped = this.maxQueryChars === null ? call : capQueryInAction(call, this.maxQueryChars).action
    const allowed = this.grammarTools(observation, actions.tools)
    const written = capped.kind === 'tool' && capped.name === SEARCH_TOOL ? (capped.arguments as { query?: unknown } | undefined)?.query : undefined
    if (allowed.words && capped.kind === 'tool' && typeof written === 'string') {
      const query = extractiveQuery(written, allowed.words, this.maxQueryChars!)
      if (query === null) throw new PolicyError('invalid-input', `${teacher}'s query ${JSON.stringify(written)} has no word of the observation: it cannot be imitated as an extractive query`)
      capped = { ...capped, arguments: { ...(capped.arguments as Record<string, unknown>), query } }
    }
    const raw = JSON.stringify({ name: capped.kind === 'tool' ? capped.name : '', arguments: capped.kind === 'tool' ? capped.arguments : {} })
    const parsed = parseToolCall(raw, await this.grammarFor(allowed.tools))
    if (parsed.error) throw new PolicyError('invalid-input', `${teacher}'s call cannot be imitated: ${parsed.error}`)
    const { seed, step } = this.nextStep()
    const { tokens, cutChars, maxTokens } = this.promptFor(observation, actions)
    const chosen = this.model.pool.model.tokenize(raw, false)
    if (chosen.length > maxTokens) throw new PolicyError('invalid-input', `${teacher}'s call takes ${chosen.length} tokens, more than the ${maxTokens} a reply may: raise maxTokens`)
    return { action: parsed.action, logprob: 0, raw, tokens: chosen.length, ms: 0, tokenLogprobs: [], promptTokens: tokens.length, seed, step, template: this.template, cutChars, imitated: teacher, ...(this.options.recordTokens ? { tokenIds: { prompt: tokens.map(Number), chosen: chosen.map(Number) } } : {}) }
  }

  async act(observation: Observation, actions: ActionSpace): Promise<LlmDecision> {
    if (actions.kind !== 'tools') throw new PolicyError('invalid-input', `${this.name} needs a tools action space, got ${actions.kind}`)
    const started = performance.now()
    const { seed, step } = this.nextStep()
    const grammar = await this.grammarFor(this.grammarTools(observation, actions.tools).tools)
    const { tokens, cutChars, maxTokens } = this.promptFor(observation, actions)

    const generated = await this.model.pool.use((sequence) => generateWithGrammar(sequence, this.model.pool.model, {
      prompt: tokens,
      // A grammar object of its own: concurrent generations sharing one were seen to swap tokens (llm/choice.ts).
      grammar: new LlamaGrammar(this.model.pool.model.llama, { grammar: grammar.grammar.grammar }),
      sampling: { ...this.sampling, seed },
      maxTokens,
      complete: completedJsonEnd,
    }))

    let formatError: string | undefined
    let queryCut = false
    let action: LlmDecision['action']
    if (generated.reason !== 'complete') {
      formatError = generated.reason === 'max-tokens' ? `the tool call did not finish within ${maxTokens} tokens` : `generation ended (${generated.reason}) before the tool call was complete`
      action = { kind: 'text', text: generated.text.trim() }
    } else {
      const parsed = parseToolCall(generated.text, grammar)
      action = parsed.action
      formatError = parsed.error
      if (this.maxQueryChars !== null) {
        const capped = capQueryInAction(action, this.maxQueryChars)
        action = capped.action
        queryCut = capped.cut
      }
    }
    return {
      action,
      logprob: generated.logprob,
      raw: generated.text,
      tokens: generated.tokenLogprobs.length,
      ms: performance.now() - started,
      tokenLogprobs: generated.tokenLogprobs,
      promptTokens: tokens.length,
      seed,
      step,
      template: this.template,
      cutChars,
      ...(formatError === undefined ? {} : { formatError }),
      ...(queryCut ? { queryCut } : {}),
      // Exactly the sampled tokens (past a completion point too): the update trains on what was drawn.
      ...(this.options.recordTokens ? { tokenIds: { prompt: tokens.map(Number), chosen: generated.tokens.map(Number) } } : {}),
    }
  }
}
