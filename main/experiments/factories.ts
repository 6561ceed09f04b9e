import type { EvalParams } from '../../preload/contract'
import type { Answerer } from '../harness/answerer'
import type { Policy } from '../harness/policy'
import { createScriptedPolicy, SCRIPTED_ENVIRONMENTS } from '../harness/scripted'
import { ScriptedToolPolicy } from '../harness/scripted-tools'
import { createAnswerer } from '../policy/answerer'
import { getSharedRuntime } from '../policy/llama-runtime'
import { createPolicy, type LlmPolicyKind } from '../policy/llm-policy'

type PolicySpec = EvalParams['policy']
type AnswererSpec = EvalParams['answerer']

export interface Disposable<T> {
  value: T
  dispose(): Promise<void>
}

/** The LLM policy kind an environment needs: a menu, free queries, or Harness-1 tool calls. */
function llmKindFor(environment: string): LlmPolicyKind {
  if (environment === 'graph-menu') return 'llm-menu'
  if (environment === 'free-query') return 'llm-free-query'
  return 'llm-tools'
}

export async function policyFor(spec: PolicySpec, environment: string): Promise<Disposable<Policy>> {
  if (spec.kind === 'scripted') {
    if (spec.name === 'scripted-tools') {
      if ((SCRIPTED_ENVIRONMENTS as readonly string[]).includes(environment)) throw new Error('scripted-tools drives Harness-1 environments (stateful, transcript); use greedy, random or oracle here')
      return { value: new ScriptedToolPolicy(), dispose: async () => undefined }
    }
    return { value: createScriptedPolicy(spec.name, environment), dispose: async () => undefined }
  }
  const policy = await createPolicy(
    { kind: llmKindFor(environment), modelPath: spec.modelPath, sampling: { temperature: spec.temperature, topK: spec.topK, topP: spec.topP } },
    await getSharedRuntime(),
  )
  return { value: policy, dispose: () => policy.dispose() }
}

export async function answererFor(spec: AnswererSpec): Promise<Disposable<Answerer>> {
  const answerer = await createAnswerer(spec)
  return { value: answerer, dispose: () => answerer.dispose() }
}
