import { reportModelHold } from '../jobs/model-hold-reporter'
import { availableParallelism } from 'node:os'
import {
  getLlama, GgufInsights, LlamaLogLevel, readGgufFileInfo,
  type Llama, type LlamaContext, type LlamaGpuType, type LlamaModel,
} from 'node-llama-cpp'
import { PolicyError } from './errors'
import { readGgufHeader } from './gguf-header'
import { SequencePool } from './sequence-pool'

export type LlamaBackend = 'cpu' | 'cuda' | 'vulkan' | 'metal'
export type RuntimeLogLevel = 'error' | 'warn' | 'info' | 'debug'

export interface LlamaRuntimeOptions {
  /** 'auto' picks the best GPU backend whose binary is installed and falls back to CPU. */
  gpu?: 'auto' | LlamaBackend
  /** Math threads; defaults to defaultThreadCount(). */
  threads?: number
  /** Lowest level forwarded to onLog; warnings and errors are always kept for error messages. */
  logLevel?: RuntimeLogLevel
  onLog?: (level: RuntimeLogLevel, message: string) => void
}

export interface RuntimeInfo {
  backend: LlamaBackend
  threads: number
  gpuDevices: string[]
  /** The llama.cpp release tag node-llama-cpp reports for its binaries. */
  llamaCppRelease: string
  buildType: 'localBuild' | 'prebuilt'
}

export interface ModelLoadOptions {
  /** Layers to offload: 'auto' fits what the GPU holds, 'max' all, or a number; ignored on CPU. */
  gpuLayers?: 'auto' | 'max' | number
  signal?: AbortSignal
}

export interface ContextOptions {
  /** Parallel sequences in the context; each gets its own contextSize of KV cache. */
  sequences?: number
  /** Tokens per sequence; defaults to min(2048, the model's training context). */
  contextSize?: number
  batchSize?: number
  /** LoRA adapters applied to this context. */
  lora?: Array<{ path: string; scale?: number }>
}

/**
 * One less than the real core count, at least one. node-llama-cpp's CPU default of max(4, cores)
 * oversubscribes small machines, and ggml's threads meet at a spinning barrier after every op, so
 * when any other process (the UI, an ingest worker) takes a core the whole decode waits on a
 * descheduled thread: measured on a 2-core machine under load, 2 threads decoded a tiny model
 * 200-1000x slower than 1 thread. Leaving one core free keeps that from happening.
 */
export function defaultThreadCount(cores = availableParallelism()): number {
  return Math.max(1, cores - 1)
}

const LEVEL_ORDER: Record<RuntimeLogLevel, number> = { error: 0, warn: 1, info: 2, debug: 3 }

function toBackend(gpu: LlamaGpuType): LlamaBackend {
  return gpu === false ? 'cpu' : gpu
}

function toRuntimeLevel(level: LlamaLogLevel): RuntimeLogLevel {
  if (level === LlamaLogLevel.fatal || level === LlamaLogLevel.error) return 'error'
  if (level === LlamaLogLevel.warn) return 'warn'
  if (level === LlamaLogLevel.info) return 'info'
  return 'debug'
}

/** One loaded llama.cpp binding: picks the backend, sets threads, loads models with readable errors. */
export class LlamaRuntime {
  /** Recent warnings and errors from llama.cpp, numbered so a load can pick out its own. */
  private readonly recentLog: Array<{ n: number; line: string }> = []
  private logCount = 0
  private readonly models = new Set<LoadedModel>()

  private constructor(readonly llama: Llama, readonly threads: number, readonly backend: LlamaBackend) {}

  static async create(options: LlamaRuntimeOptions = {}): Promise<LlamaRuntime> {
    const threads = Math.max(1, Math.floor(options.threads ?? defaultThreadCount()))
    const forwardUpTo = LEVEL_ORDER[options.logLevel ?? 'warn']
    let runtime: LlamaRuntime | null = null
    const logger = (level: LlamaLogLevel, message: string): void => {
      const runtimeLevel = toRuntimeLevel(level)
      if (runtimeLevel === 'error' || runtimeLevel === 'warn') runtime?.remember(message)
      if (LEVEL_ORDER[runtimeLevel] <= forwardUpTo) options.onLog?.(runtimeLevel, message)
    }
    let llama: Llama
    try {
      llama = await getLlama({
        gpu: options.gpu === undefined || options.gpu === 'auto' ? 'auto' : options.gpu === 'cpu' ? false : options.gpu,
        maxThreads: threads,
        // Never compile llama.cpp behind the user's back: prebuilt binaries or a clear error.
        build: 'never',
        progressLogs: false,
        // Warnings are always captured for error messages; more only when the caller asks for it.
        logLevel: options.logLevel === 'info' ? LlamaLogLevel.info : options.logLevel === 'debug' ? LlamaLogLevel.debug : LlamaLogLevel.warn,
        logger,
      })
    } catch (error) {
      throw new PolicyError('runtime-unavailable', `llama.cpp could not start with gpu=${options.gpu ?? 'auto'}: ${(error as Error).message}`, { cause: error })
    }
    runtime = new LlamaRuntime(llama, threads, toBackend(llama.gpu))
    return runtime
  }

  private remember(message: string): void {
    const line = message.trim()
    if (line.length === 0) return
    this.recentLog.push({ n: this.logCount++, line })
    if (this.recentLog.length > 40) this.recentLog.shift()
  }

  async info(): Promise<RuntimeInfo> {
    return {
      backend: this.backend,
      threads: this.threads,
      gpuDevices: this.backend === 'cpu' ? [] : await this.llama.getGpuDeviceNames(),
      llamaCppRelease: this.llama.llamaCppRelease.release,
      buildType: this.llama.buildType,
    }
  }

  /**
   * Load a GGUF model. The header is validated first, so bad files, adapters and unknown
   * architectures fail with a PolicyError before llama.cpp sees them.
   */
  async loadModel(path: string, options: ModelLoadOptions = {}): Promise<LoadedModel> {
    const header = await readGgufHeader(path)
    const generalType = header.metadata.get('general.type')
    if (generalType === 'adapter' || header.tensors.some((t) => t.name.endsWith('.lora_a'))) {
      throw new PolicyError('not-a-model', `${path} is a LoRA adapter, not a model: load a base model and pass the adapter as a context LoRA`, { path })
    }
    const arch = header.metadata.get('general.architecture')
    if (typeof arch !== 'string') throw new PolicyError('corrupt', `${path} has no general.architecture key`, { path })
    const insights = await GgufInsights.from(await readGgufFileInfo(path, { readTensorInfo: false, logWarnings: false }), this.llama)
    if (!insights.isSupportedByLlamaCpp) {
      throw new PolicyError('unsupported-architecture', `architecture "${arch}" is not supported by this llama.cpp build (${this.llama.llamaCppRelease.release})`, { path })
    }

    const logStart = this.logCount
    const started = performance.now()
    let model: LlamaModel
    try {
      model = await this.llama.loadModel({
        modelPath: path,
        gpuLayers: this.backend === 'cpu' ? 0 : (options.gpuLayers ?? 'auto'),
        loadSignal: options.signal,
      })
    } catch (error) {
      const log = this.recentLog.filter((entry) => entry.n >= logStart).map((entry) => entry.line)
      const reason = log.find((line) => line.includes('error loading model')) ?? log.at(-1)
      throw new PolicyError('load-failed', `llama.cpp failed to load ${path}${reason ? `: ${reason}` : ''}`, { path, cause: error, log })
    }
    const loaded = new LoadedModel(this, model, path, performance.now() - started, insights.totalLayers)
    this.models.add(loaded)
    model.onDispose.createListener(() => this.models.delete(loaded))
    // A worker thread's loads are reported to the job manager, so the Models page can say which job holds which model.
    model.onDispose.createListener(reportModelHold(path))
    return loaded
  }

  /** The models loaded on this binding now, in load order (what holds memory; the model cache keeps it to one per file). */
  loadedModels(): readonly LoadedModel[] {
    return [...this.models]
  }

  async dispose(): Promise<void> {
    for (const m of [...this.models]) await m.dispose()
    await this.llama.dispose()
  }
}

/** A model plus what a run record wants to know about how it was loaded. */
export class LoadedModel {
  constructor(
    readonly runtime: LlamaRuntime,
    readonly model: LlamaModel,
    readonly path: string,
    readonly loadMs: number,
    /** Layers llama.cpp can offload (blocks plus the output layer). */
    readonly totalLayers: number,
  ) {}

  get backend(): LlamaBackend {
    return this.runtime.backend
  }

  /** Layers actually offloaded to the GPU (0 on CPU). */
  get gpuLayers(): number {
    return this.model.gpuLayers
  }

  async createContext(options: ContextOptions = {}): Promise<LlamaContext> {
    const sequences = Math.max(1, Math.floor(options.sequences ?? 1))
    const contextSize = options.contextSize ?? Math.min(2048, this.model.trainContextSize || 2048)
    try {
      return await this.model.createContext({
        sequences,
        contextSize,
        batchSize: options.batchSize,
        threads: this.runtime.threads,
        lora: options.lora?.length
          ? { adapters: options.lora.map((a) => ({ filePath: a.path, scale: a.scale ?? 1 })) }
          : undefined,
      })
    } catch (error) {
      throw new PolicyError('context-failed', `could not create a context (${sequences} x ${contextSize} tokens): ${(error as Error).message}`, { path: this.path, cause: error })
    }
  }

  /** A context wrapped in a pool that lends its sequences to concurrent callers. */
  async createSequencePool(options: ContextOptions = {}): Promise<SequencePool> {
    return new SequencePool(await this.createContext(options))
  }

  async dispose(): Promise<void> {
    await this.model.dispose()
  }
}

/**
 * How code that may need a model reaches the LLM home: handed down by a composition root (usually
 * `getSharedRuntime` itself), and called only when a model is really needed, since loading the binding takes seconds.
 */
export type LlmHome = () => Promise<LlamaRuntime>

/** The runtime from an LLM home a caller may not have been handed, with a clear error when it was not. */
export function runtimeFrom(llm: LlmHome | undefined, what: string): Promise<LlamaRuntime> {
  if (!llm) return Promise.reject(new Error(`${what} needs a GGUF model, and its caller was not handed the LLM home`))
  return llm()
}

let shared: Promise<LlamaRuntime> | null = null

/** The process-wide runtime: loading the binding takes seconds, so the app keeps one. */
export function getSharedRuntime(options: LlamaRuntimeOptions = {}): Promise<LlamaRuntime> {
  shared ??= LlamaRuntime.create(options).catch((error) => {
    shared = null
    throw error
  })
  return shared
}
