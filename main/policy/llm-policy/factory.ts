import type { Protocol } from '../../harness'
import { PolicyError } from '../../llm/errors'
import type { LlamaRuntime } from '../../llm/llama-runtime'
import type { TemplateChoice } from '../prompt'
import { MenuLlmPolicy } from './menu-policy'
import { modelCacheFor, type PoolOptions } from '../../llm/model-cache'
import type { SamplingSettings } from './sampling'
import { ToolLlmPolicy } from './tool-policy'

export const LLM_POLICY_KINDS = ['llm-menu', 'llm-tools', 'llm-free-query'] as const
export type LlmPolicyKind = (typeof LLM_POLICY_KINDS)[number]

/** The LLM policy kind that speaks an environment's protocol: menu ids, free queries, or Harness-1 tool calls. */
export const LLM_KIND_FOR_PROTOCOL: Record<Protocol, LlmPolicyKind> = {
  'sentence-menu': 'llm-menu',
  'sentence-search': 'llm-free-query',
  'harness1-tools': 'llm-tools',
}

export interface LlmPolicySpec extends PoolOptions {
  kind: LlmPolicyKind
  modelPath: string
  sampling?: SamplingSettings
  template?: TemplateChoice
  systemPrompt?: string
  /** Tool kinds: most tokens per call (default 256). */
  maxTokens?: number
  /** Tool kinds: cap for strings whose schema has none (default 512 characters). */
  maxStringLength?: number
  /** Free query: most characters per query (default 96). */
  maxQueryChars?: number
  /** Keep prompt and chosen token ids in each decision (training the GGUF weights). */
  recordTokens?: boolean
}

export type LlmPolicy = MenuLlmPolicy | ToolLlmPolicy

/**
 * An LLM policy on a model from the runtime's model cache: policies (and answerers) naming the same
 * file and pool options share one model and one context, each act() borrowing a sequence. Call
 * dispose() on the policy to give its share back.
 */
export async function createPolicy(spec: LlmPolicySpec, runtime: LlamaRuntime): Promise<LlmPolicy> {
  if (!LLM_POLICY_KINDS.includes(spec.kind)) {
    throw new PolicyError('invalid-input', `unknown LLM policy kind "${String(spec.kind)}"; known: ${LLM_POLICY_KINDS.join(', ')}`)
  }
  const lease = await modelCacheFor(runtime).lease(spec.modelPath, spec)
  try {
    const common = { sampling: spec.sampling, template: spec.template, systemPrompt: spec.systemPrompt, recordTokens: spec.recordTokens }
    if (spec.kind === 'llm-menu') return new MenuLlmPolicy(lease, common)
    return new ToolLlmPolicy(lease, {
      ...common,
      maxTokens: spec.maxTokens,
      maxStringLength: spec.maxStringLength,
      freeQuery: spec.kind === 'llm-free-query' ? { maxQueryChars: spec.maxQueryChars } : undefined,
    })
  } catch (error) {
    await lease.release()
    throw error
  }
}
