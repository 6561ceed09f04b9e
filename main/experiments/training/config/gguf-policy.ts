/**
 * The GGUF policy a run trains and evaluates, and the checks before a GGUF run starts: the LLM policy
 * kind that plays the environment's protocol (every decision records its prompt and sampled tokens),
 * the trainer's backend, and whether the native trainer can train the model at all.
 */
import { existsSync } from 'node:fs'
import { environmentFactory, promptParams, resolvedConfig, type Protocol } from '../../../harness'
import { checkGgufFile } from '../../../llm/gguf-check'
import { defaultThreadCount, runtimeFrom, type LlmHome } from '../../../llm/llama-runtime'
import { GgufTrainer, memoryShortfall, type LoadRequest, type ProbeItem, type TrainerBackend, type TrainItem, type TrainRequest } from '../../../llm/training'
import { createPolicy, type LlmPolicy, type LlmPolicyKind } from '../../../policy/llm-policy'
import { policySide } from '../../../policy/protocols'
import { GGUF_ADAMW, type GgufTrainConfig } from '../../../../preload/contract'

/** The LLM policy kind that plays `environment` and whose decisions train: the one evaluation runs use for its protocol. */
export function ggufPolicyKind(environment: string, protocol: Protocol): LlmPolicyKind {
  const kind = (policySide(protocol) as ReturnType<typeof policySide> | undefined)?.llmKind
  if (!kind) throw new Error(`Training the GGUF weights needs an LLM policy for the environment's protocol; ${environment} speaks "${protocol}", which no LLM policy kind plays`)
  return kind
}

/** The trainer's backend for a config: the runtime's GPU backend when layers are offloaded, else the CPU. */
export async function trainerBackend(gguf: GgufTrainConfig, llm: LlmHome | undefined): Promise<TrainerBackend> {
  const runtime = await runtimeFrom(llm, `Training ${gguf.modelPath}`)
  return gguf.gpuLayers !== 0 && (runtime.backend === 'cuda' || runtime.backend === 'vulkan') ? runtime.backend : 'cpu'
}

export const untrainable = (modelPath: string, reason: string): Error => new Error(`${modelPath} cannot be trained: ${reason}`)

/**
 * Refuses a GGUF training config before any run row or file exists, with the messages a run gives: the
 * native trainer cannot be built or started here, or the model cannot be trained (a quantised or F16 tensor).
 */
export async function checkGgufTrainable(gguf: GgufTrainConfig, llm: LlmHome | undefined): Promise<void> {
  if (!existsSync(gguf.modelPath)) throw new Error(`No GGUF model file at ${gguf.modelPath}`)
  // The file itself (header, every tensor's bytes and type, F32), with the reason model add and model trainable give.
  try {
    await checkGgufFile(gguf.modelPath, { forTraining: true })
  } catch (err) {
    throw untrainable(gguf.modelPath, err instanceof Error ? err.message : String(err))
  }
  const trainer = await GgufTrainer.start({ backend: await trainerBackend(gguf, llm) })
  try {
    const estimate = await trainer.estimate({ model: gguf.modelPath, optimizer: gguf.optimizer, contextSize: gguf.contextSize, lastBlocks: gguf.lastBlocks ?? -1, withBase: needsBase(gguf) })
    if (!estimate.trainable) throw untrainable(gguf.modelPath, estimate.reason)
    const short = memoryShortfall(estimate, gguf.gpuLayers)
    if (short) throw untrainable(gguf.modelPath, short)
  } finally {
    await trainer.close().catch(() => trainer.kill())
  }
}

/** The policy a run's held-out evaluation plays: the weights at `path`, in the environment's protocol (its system prompt reading `envConfig`, the run's), with the run's context and token limits. */
export async function ggufPolicyOn(gguf: GgufTrainConfig, environment: string, envConfig: Record<string, unknown>, path: string, sampling: { temperature: number; seed: number }, llm: LlmHome | undefined, recordTokens = false): Promise<LlmPolicy> {
  const { protocol } = environmentFactory(environment)
  const kind = ggufPolicyKind(environment, protocol)
  return createPolicy({ kind, modelPath: path, contextSize: gguf.contextSize, sequences: 1, recordTokens, maxTokens: gguf.maxTokens, restateQuestion: gguf.restateQuestion, extractiveQueries: gguf.extractiveQueries, sampling, ...promptParams(protocol, resolvedConfig(environment, envConfig)) }, await runtimeFrom(llm, `The GGUF policy ${path}`))
}

/**
 * Whether a run loads the frozen base beside the policy: for the KL term (klCoef) or the KL guard's probe
 * (klTarget). Neither asked for: no base, no base forward, no probe.
 */
export const needsBase = (gguf: GgufTrainConfig): boolean => gguf.klCoef > 0 || gguf.klTarget > 0

/**
 * The trainer's math threads: the cores less one, as for generation. Every core was measured faster on an
 * idle machine and 4-5x slower on a busy one (ggml's threads spin at each op's barrier while the OS runs
 * something else on their core: 31 CPU-s against 6 for the same update at load 15 on 2 cores).
 */
export const trainerThreadCount = (): number => defaultThreadCount()

/** The trainer's load request for a config: every option from the config (the trainer has no defaults). */
export function loadRequestFor(gguf: GgufTrainConfig, model: string, options: { baseModel: string | null; optimizerState: string | null; threads: number }): LoadRequest {
  return { model, ...options, optimizer: gguf.optimizer, weightDecay: gguf.weightDecay, ...GGUF_ADAMW, lastBlocks: gguf.lastBlocks ?? -1, contextSize: gguf.contextSize, gpuLayers: gguf.gpuLayers, memoryLimitBytes: 0 }
}

/** One update's request: the config's clipping and KL guard at the run's current learning rate. */
export function trainRequestFor(gguf: GgufTrainConfig, items: TrainItem[], lr: number, probe: ProbeItem[], pack = true): TrainRequest {
  return { items, lr, maxGradNorm: gguf.maxGradNorm, klTarget: gguf.klTarget, maxBacktracks: gguf.maxBacktracks, probe, pack }
}
