import type { EvalParams } from '../../preload/contract'
import { environmentFactory, type Answerer, type Policy } from '../harness'
import { createAnswerer } from '../policy/answerer'
import { getSharedRuntime } from '../llm/llama-runtime'
import { createPolicy, LLM_KIND_FOR_PROTOCOL } from '../policy/llm-policy'
import { createScriptedPolicy } from '../policy/scripted'

type PolicySpec = EvalParams['policy']
type AnswererSpec = EvalParams['answerer']

export interface Disposable<T> {
  value: T
  dispose(): Promise<void>
}

/** The policy a spec names, speaking the protocol the environment declares. */
export async function policyFor(spec: PolicySpec, environment: string): Promise<Disposable<Policy>> {
  const { protocol } = environmentFactory(environment)
  if (spec.kind === 'scripted') return { value: createScriptedPolicy(spec.name, protocol), dispose: async () => undefined }
  const policy = await createPolicy(
    { kind: LLM_KIND_FOR_PROTOCOL[protocol], modelPath: spec.modelPath, sampling: { temperature: spec.temperature, topK: spec.topK, topP: spec.topP }, lora: spec.lora },
    await getSharedRuntime(),
  )
  return { value: policy, dispose: () => policy.dispose() }
}

export async function answererFor(spec: AnswererSpec): Promise<Disposable<Answerer>> {
  const answerer = await createAnswerer(spec)
  return { value: answerer, dispose: () => answerer.dispose() }
}
