import { protocolDeclaration, type PromptParams } from '../../harness'
import { PolicyError } from '../../llm/errors'
import type { LlamaRuntime } from '../../llm/llama-runtime'
import type { TemplateChoice } from '../prompt'
import { MenuLlmPolicy } from './menu-policy'
import { modelCacheFor, type PoolOptions } from '../../llm/model-cache'
import type { SamplingSettings } from './sampling'
import { ToolLlmPolicy } from './tool-policy'
import { llmKindProtocol } from '../protocols'

/** The LLM policy kinds; which protocol each speaks is the policy side's table's (main/policy/protocols.ts). */
export const LLM_POLICY_KINDS = ['llm-menu', 'llm-tools', 'llm-free-query'] as const
export type LlmPolicyKind = (typeof LLM_POLICY_KINDS)[number]

/** A policy spec; its prompt parameters (PromptParams: the free query's maxQueryChars) are the run's environment config's (promptParams()). */
export interface LlmPolicySpec extends PoolOptions, PromptParams {
  kind: LlmPolicyKind
  modelPath: string
  sampling?: SamplingSettings
  template?: TemplateChoice
  systemPrompt?: string
  /** Tool kinds: most tokens per call (default 256). */
  maxTokens?: number
  /** Tool kinds: cap for strings whose schema has none (default 512 characters). */
  maxStringLength?: number
  /** Keep prompt and chosen token ids in each decision (training the GGUF weights). */
  recordTokens?: boolean
  /** Repeat the question right before the reply (LlmPolicyOptions.restateQuestion). */
  restateQuestion?: boolean
  /** Free query: the query decoded as words of the observation (ToolPolicyOptions.extractiveQueries). */
  extractiveQueries?: boolean
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
    const protocol = llmKindProtocol(spec.kind)
    const common = { protocol, promptParams: { maxQueryChars: spec.maxQueryChars }, sampling: spec.sampling, template: spec.template, systemPrompt: spec.systemPrompt, recordTokens: spec.recordTokens, restateQuestion: spec.restateQuestion }
    if (protocolDeclaration(protocol).actionKind === 'menu') return new MenuLlmPolicy(lease, common)
    return new ToolLlmPolicy(lease, { ...common, maxTokens: spec.maxTokens, maxStringLength: spec.maxStringLength, extractiveQueries: spec.extractiveQueries })
  } catch (error) {
    await lease.release()
    throw error
  }
}
