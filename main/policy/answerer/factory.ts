import type { Answerer } from '../../harness'
import { PolicyError } from '../../llm/errors'
import type { LlamaRuntime } from '../../llm/llama-runtime'
import { modelCacheFor, type PoolOptions } from '../../llm/model-cache'
import { GgufAnswerer, type GgufAnswererOptions } from './gguf-answerer'
import { LexicalAnswerer } from './lexical-answerer'

export type AnswererSpec =
  | { kind: 'lexical' }
  | ({ kind: 'gguf'; modelPath: string } & GgufAnswererOptions & PoolOptions)

/** An answerer that holds resources: dispose() gives its model share back (a no-op for the stand-in). */
export type DisposableAnswerer = Answerer & { dispose(): Promise<void> }

/**
 * The answerer a run names. A GGUF answerer shares the model cache with the policies on the same
 * runtime (handed by the caller), so a policy and an answerer on one file load it once.
 */
export async function createAnswerer(spec: AnswererSpec, runtime?: LlamaRuntime): Promise<DisposableAnswerer> {
  if (spec.kind === 'lexical') return new LexicalAnswerer()
  if (spec.kind !== 'gguf') throw new PolicyError('invalid-input', `unknown answerer kind "${String((spec as { kind: unknown }).kind)}"; known: lexical, gguf`)
  if (!runtime) throw new PolicyError('invalid-input', `a GGUF answerer (${spec.modelPath}) needs the runtime its caller holds, and none was given`)
  const lease = await modelCacheFor(runtime).lease(spec.modelPath, spec)
  return new GgufAnswerer(lease, spec)
}
