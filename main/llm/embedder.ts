import { basename } from 'node:path'
import type { LlamaEmbeddingContext, Token } from 'node-llama-cpp'
import type { Embedder } from '../retrieval/types'
import { normalized } from '../retrieval/vectors'
import { PolicyError } from './errors'
import { LlamaRuntime, type LoadedModel } from './llama-runtime'
import { inspectModelFile, type ModelFileInfo } from './model-file'

export interface GgufEmbedderOptions {
  /** Runtime to load into; when absent the embedder creates its own (gpu 'auto') and disposes it with itself. */
  runtime?: LlamaRuntime
  /** Math threads for the embedding context; defaults to the runtime's thread count (and never exceeds it). */
  threads?: number
  /**
   * Tokens llama.cpp evaluates per step. Defaults to contextSize: encoders with non-causal attention
   * (BERT-style embedding models) must see a whole input in one step.
   */
  batchSize?: number
  /** Tokens per input, specials included (at least 16); defaults to min(2048, the model's training context). */
  contextSize?: number
  /**
   * A model already loaded on `runtime` (the model cache's copy): the embedder adds its context to it and,
   * when disposed, calls `release` instead of disposing the model.
   */
  loaded?: { model: LoadedModel; release(): Promise<void> }
}

export interface EmbedderStats {
  texts: number
  /** Inputs cut to fit the context (see GgufEmbedder.embed). */
  truncated: number
  /** Tokens evaluated, specials included. */
  tokens: number
}

export interface GgufEmbedder extends Embedder {
  /** "<file name>@<first 12 hex of its SHA-256>": stable across paths and renames of the folder, not of the file. */
  readonly model: string
  readonly dimension: number
  readonly path: string
  /** Usable tokens per input, specials included. */
  readonly contextSize: number
  readonly file: ModelFileInfo
  readonly stats: Readonly<EmbedderStats>
  /**
   * One L2-normalised vector per text, in order. Texts longer than the context keep their first
   * tokens (a chunk's title and opening usually name its subject) and count in stats.truncated.
   * Text with no tokens at all gets a zero vector, which is cosine 0 to everything.
   */
  embed(texts: string[]): Promise<Float32Array[]>
  dispose(): Promise<void>
}

/** Stable vector-model id: the same bytes give the same id wherever the file lives. */
export function embeddingModelId(path: string, sha256: string): string {
  return `${basename(path)}@${sha256.slice(0, 12)}`
}

/**
 * Load a GGUF model for embeddings. Bad files fail with a ModelFileError before llama.cpp sees
 * them; a model that loads but cannot embed (encoder-decoder, rerankers) fails here rather than
 * in the middle of a long job, because creation embeds a short probe to learn the real dimension.
 */
export async function createGgufEmbedder(modelPath: string, options: GgufEmbedderOptions = {}): Promise<GgufEmbedder> {
  const file = await inspectModelFile(modelPath)
  if (file.isLoraAdapter) {
    throw new PolicyError('not-a-model', `${modelPath} is a LoRA adapter, not a model: pick an embedding or base model`, { path: modelPath })
  }
  if (options.loaded && options.loaded.model.runtime !== options.runtime) throw new PolicyError('invalid-input', 'a shared model must come with the runtime that loaded it')
  const ownRuntime = options.runtime ? null : await LlamaRuntime.create({ threads: options.threads })
  const runtime = options.runtime ?? ownRuntime!
  let loaded: LoadedModel | null = options.loaded?.model ?? null
  const release = options.loaded ? options.loaded.release : () => loaded!.dispose()
  let context: LlamaEmbeddingContext | null = null
  try {
    loaded ??= await runtime.loadModel(modelPath)
    const contextSize = Math.max(16, Math.floor(options.contextSize ?? Math.min(2048, loaded.model.trainContextSize || 2048)))
    const threads = Math.max(1, Math.min(runtime.threads, Math.floor(options.threads ?? runtime.threads)))
    try {
      // Threads must be explicit: node-llama-cpp's embedding context otherwise asks for 6.
      context = await loaded.model.createEmbeddingContext({ contextSize, batchSize: options.batchSize ?? contextSize, threads })
    } catch (error) {
      throw new PolicyError('context-failed', `could not create an embedding context (${contextSize} tokens) for ${modelPath}: ${(error as Error).message}`, { path: modelPath, cause: error })
    }
    const embedder = new LlamaEmbedder(modelPath, file, loaded, context, contextSize, ownRuntime, release)
    await embedder.probe()
    return embedder
  } catch (error) {
    // A shared model outlives this embedder: its context goes here, the model with the release.
    await context?.dispose().catch(() => undefined)
    if (loaded) await release().catch(() => undefined)
    await ownRuntime?.dispose().catch(() => undefined)
    throw error
  }
}

class LlamaEmbedder implements GgufEmbedder {
  readonly model: string
  readonly contextSize: number
  readonly stats: EmbedderStats = { texts: 0, truncated: 0, tokens: 0 }
  /** BOS/EOS that node-llama-cpp adds around every input. */
  private readonly specials: number
  private width = 0
  private disposed = false

  constructor(
    readonly path: string,
    readonly file: ModelFileInfo,
    private readonly loaded: LoadedModel,
    private readonly context: LlamaEmbeddingContext,
    requestedContext: number,
    private readonly ownRuntime: LlamaRuntime | null,
    /** Gives the model back: disposes it, or returns the cache's shared copy. */
    private readonly release: () => Promise<void>,
  ) {
    this.model = embeddingModelId(path, file.sha256!)
    // getEmbeddingFor wants the input strictly shorter than the context; llama.cpp may round the
    // context up, never down, so the requested size is a safe bound.
    this.contextSize = requestedContext - 1
    this.specials = context.calculateInputLength([])
  }

  get dimension(): number {
    return this.width
  }

  /** Learns the output width from a real forward pass (it can differ from embedding_length, e.g. rerankers). */
  async probe(): Promise<void> {
    const vector = await this.embedOne('probe')
    if (vector.length === 0) throw new PolicyError('generation-failed', `${this.path} returned an empty embedding`, { path: this.path })
    this.width = vector.length
    Object.assign(this.stats, { texts: 0, truncated: 0, tokens: 0 })
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    const out: Float32Array[] = []
    // One sequence: inputs run one after another, each on a cleared cache, so a text's vector does not depend on its batch.
    for (const text of texts) out.push(await this.embedOne(text))
    return out
  }

  private async embedOne(text: string): Promise<Float32Array> {
    if (this.disposed) throw new PolicyError('disposed', `the embedder for ${this.path} was disposed`, { path: this.path })
    if (typeof text !== 'string') throw new PolicyError('invalid-input', `embed() takes strings, got ${typeof text}`, { path: this.path })
    let tokens: Token[] = this.loaded.model.tokenize(text, false)
    this.stats.texts++
    if (tokens.length === 0) return new Float32Array(this.width)
    const room = this.contextSize - this.specials
    if (tokens.length > room) {
      tokens = tokens.slice(0, room)
      this.stats.truncated++
    }
    this.stats.tokens += tokens.length + this.specials
    let values: readonly number[]
    try {
      values = (await this.context.getEmbeddingFor(tokens)).vector
    } catch (error) {
      throw new PolicyError('generation-failed', `embedding failed for a ${tokens.length}-token input: ${(error as Error).message}`, { path: this.path, cause: error })
    }
    if (this.width > 0 && values.length !== this.width) {
      throw new PolicyError('generation-failed', `embedding has ${values.length} dimensions, expected ${this.width}`, { path: this.path })
    }
    const raw = Float32Array.from(values)
    if (!raw.every(Number.isFinite)) throw new PolicyError('generation-failed', `${this.path} produced a non-finite embedding`, { path: this.path })
    return normalized(raw)
  }

  async dispose(): Promise<void> {
    if (this.disposed) return
    this.disposed = true
    await this.context.dispose()
    await this.release()
    await this.ownRuntime?.dispose()
  }
}
