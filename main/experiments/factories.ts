import { existsSync, readFileSync } from 'node:fs'
import type SQLite from 'better-sqlite3'
import type { EvalParams } from '../../preload/contract'
import { HeadPolicy, readHeadWeights } from '../policy/head-policy'
import { candidateBuilder, policySide } from '../policy/protocols'
import { trainedGguf, trainedHeadFor } from './training/trained-head'
import { ggufPolicyOn } from './training/config/gguf-policy'
import { checkpointOf } from './training/store'
import { trainedPolicyLabel } from '../../preload/contract'
import { environmentFactory, promptParams, resolvedConfig, type Answerer, type Policy } from '../harness'
import { createAnswerer } from '../policy/answerer'
import { runtimeFrom, type LlmHome } from '../llm/llama-runtime'
import { createPolicy } from '../policy/llm-policy'
import { scriptedPolicyFor } from './scripted-policy'

type PolicySpec = EvalParams['policy']
type AnswererSpec = EvalParams['answerer']

export interface Disposable<T> {
  value: T
  dispose(): Promise<void>
}

/**
 * The policy a spec names, speaking the protocol the environment declares. A trained head (a training
 * run's checkpoint, or a weights file) plays greedily, as the held-out evaluation of its run does; it
 * needs the workspace database to read the run. Given the database, the oracle plans ahead through a
 * twin of the environment (built with `envConfig`, the episodes' own settings), and a GGUF policy's
 * system prompt reads it. A GGUF policy loads through `llm`, the LLM home the composition root hands down.
 */
export async function policyFor(spec: PolicySpec, environment: string, raw?: SQLite.Database, envConfig: Record<string, unknown> = {}, llm?: LlmHome): Promise<Disposable<Policy>> {
  const { protocol } = environmentFactory(environment)
  if (spec.kind === 'scripted') return { value: scriptedPolicyFor(spec.name, environment, raw, envConfig), dispose: async () => undefined }
  if (spec.kind === 'head') {
    if (!raw) throw new Error('A trained head is read from the workspace database, which this caller did not give')
    const trained = trainedHeadFor(raw, spec.trainingRun, spec.step, environment)
    return { value: new HeadPolicy(trained.head, candidateBuilder(protocol), { mode: 'greedy' }), dispose: async () => undefined }
  }
  if (spec.kind === 'gguf-run') {
    if (!raw) throw new Error("A training run's GGUF weights are read from the workspace database, which this caller did not give")
    // As the run's held-out evaluation plays them: greedy, with the run's context and token limits.
    const trained = trainedGguf(raw, spec.trainingRun, spec.step)
    const policy = await ggufPolicyOn(trained.gguf, environment, envConfig, trained.path, { temperature: 0, seed: trained.seed }, llm)
    return { value: policy, dispose: () => policy.dispose() }
  }
  if (spec.kind === 'head-file') {
    if (!existsSync(spec.path)) throw new Error(`No head weights file at ${spec.path}`)
    const { head } = readHeadWeights(readFileSync(spec.path, 'utf8'), protocol, spec.path)
    return { value: new HeadPolicy(head, candidateBuilder(protocol), { mode: 'greedy' }), dispose: async () => undefined }
  }
  const policy = await createPolicy(
    {
      kind: policySide(protocol).llmKind,
      modelPath: spec.modelPath,
      sampling: { temperature: spec.temperature, topK: spec.topK, topP: spec.topP },
      lora: spec.lora,
      restateQuestion: spec.restateQuestion,
      extractiveQueries: spec.extractiveQueries,
      contextSize: spec.contextSize,
      maxTokens: spec.maxTokens,
      // The system prompt reads the episodes' own config, as the environment server and the SFT export do.
      ...promptParams(protocol, resolvedConfig(environment, envConfig)),
    },
    await runtimeFrom(llm, `The GGUF policy ${spec.modelPath}`),
  )
  return { value: policy, dispose: () => policy.dispose() }
}

/**
 * The spec as an evaluation records it: a trained policy (head or GGUF weights of a training run) with
 * the step it resolved to, so the run names exactly what it played; other specs as given.
 */
export function resolvedPolicySpec(spec: PolicySpec, raw: SQLite.Database): PolicySpec {
  if (spec.kind === 'head') return { ...spec, step: trainedHeadStep(raw, spec.trainingRun, spec.step) }
  if (spec.kind === 'gguf-run') return { ...spec, step: trainedGguf(raw, spec.trainingRun, spec.step).step }
  return spec
}

const trainedHeadStep = (raw: SQLite.Database, runId: number, step?: number): number => checkpointOf(raw, runId, step).step

/** The policy's name in a run's default name: "greedy", "head · training run 3 · step 20", the model's file. */
export function policyLabel(spec: PolicySpec): string {
  if (spec.kind === 'scripted') return spec.name
  if (spec.kind === 'head') return trainedPolicyLabel('head', spec.trainingRun, spec.step)
  if (spec.kind === 'gguf-run') return trainedPolicyLabel('gguf', spec.trainingRun, spec.step)
  if (spec.kind === 'head-file') return `head ${spec.path.split('/').pop()}`
  return spec.modelPath.split('/').pop() ?? spec.modelPath
}

export async function answererFor(spec: AnswererSpec, llm?: LlmHome): Promise<Disposable<Answerer>> {
  const answerer = await createAnswerer(spec, spec.kind === 'gguf' ? await runtimeFrom(llm, `The GGUF answerer ${spec.modelPath}`) : undefined)
  return { value: answerer, dispose: () => answerer.dispose() }
}
