import { stat } from 'node:fs/promises'
import { resolve } from 'node:path'
import { createGgufEmbedder, embeddingModelId, type GgufEmbedder } from './embedder'
import { PolicyError } from './errors'
import type { LlamaRuntime, LoadedModel } from './llama-runtime'
import { inspectModelFile, type ModelFileInfo } from './model-file'
import { SequencePool } from './sequence-pool'
import { checkLoraFit } from './lora-check'

export interface PoolOptions {
  /** Parallel sequences in the shared context (default 4). */
  sequences?: number
  /** Tokens per sequence (default min(4096, the model's training context)). */
  contextSize?: number
  /** Layers to offload; the lease that loads the model decides (default 'auto'; ignored on CPU). */
  gpuLayers?: 'auto' | 'max' | number
  /**
   * llama.cpp flash attention (default false). With it on, a token's log-probability depends on
   * where its context sits in the KV cache: scoring the same text after a reused prefix, or beside
   * other sequences, moved results by ~1e-3 on CPU in our tests; with it off they are identical.
   * Exact, path-independent log-probabilities matter more here (importance ratios, credit as score
   * differences) than its memory savings; turn it on for long contexts on a GPU if needed.
   */
  flashAttention?: boolean
  /**
   * A GGUF LoRA adapter applied to the shared context (node-llama-cpp's `lora` context option). Policies
   * with and without it, or with another scale, get different contexts on the one loaded base model.
   * Its fit to the base is checked from the headers first (lora-check.ts), so a mismatch names the tensor.
   */
  lora?: { path: string; scale?: number }
}

/** A borrowed context: several policies or answerers with the same path and pool options share one. */
export interface PoolLease {
  readonly loaded: LoadedModel
  readonly pool: SequencePool
  /** "<file name>@<first 12 hex of SHA-256>", as in run records. */
  readonly modelId: string
  readonly file: ModelFileInfo
  /** Gives the lease back; the context and then the model are disposed when nobody holds them. */
  release(): Promise<void>
}

interface ModelEntry {
  loading: Promise<LoadedModel>
  /** The model once loaded (what the Models page shows), null while loading. */
  ready: LoadedModel | null
  pools: Map<string, { creating: Promise<SequencePool>; leases: number }>
  /** Held loaded by the Models page's "load" until unpinned, with or without a context on it. */
  pinned: boolean
  /** The query embedder on this model (dense search), shared by every workspace that uses the file. */
  embedder: Promise<GgufEmbedder> | null
}

export interface CacheEntryInfo {
  path: string
  pinned: boolean
  embedder: boolean
  contexts: Array<{ sequences: number; contextSize: number; flashAttention: boolean; leases: number; lora?: string }>
}

const DEFAULT_SEQUENCES = 4

/**
 * The per-process cache of loaded models, keyed by absolute path: one model in memory per file,
 * and one context per (sequences, context size, flash attention) on it, lent to every policy and answerer that asks
 * with the same options. Concurrent rollouts then decode in the same llama.cpp batch. The Models page's
 * loads (pin) and dense search's query embedders sit on the same entries, so no file is loaded twice.
 */
export class ModelCache {
  private readonly models = new Map<string, ModelEntry>()
  private disposed = false

  constructor(readonly runtime: LlamaRuntime) {}

  async lease(modelPath: string, options: PoolOptions = {}): Promise<PoolLease> {
    if (this.disposed) throw new PolicyError('disposed', 'the model cache has been disposed')
    const path = resolve(modelPath)
    // Bad files fail here with a ModelFileError, before llama.cpp sees them.
    const file = await describeModel(path)
    if (file.isLoraAdapter) throw new PolicyError('not-a-model', `${path} is a LoRA adapter, not a model`, { path })

    const entry = this.entryFor(path, options.gpuLayers)
    const loaded = await entry.loading
    // The last holder may have released the model while it was loading for us: start again.
    if (this.models.get(path) !== entry) return this.lease(modelPath, options)
    const sequences = Math.max(1, Math.floor(options.sequences ?? DEFAULT_SEQUENCES))
    const contextSize = Math.max(32, Math.floor(options.contextSize ?? Math.min(4096, loaded.model.trainContextSize || 4096)))
    const flashAttention = options.flashAttention ?? false
    const lora = options.lora ? await describeLora(options.lora, path) : null
    const key = `${sequences}x${contextSize}${flashAttention ? 'fa' : ''}${lora ? `+lora:${lora.path}*${lora.scale}` : ''}`
    let slot = entry.pools.get(key)
    if (!slot) {
      const creating = createPool(loaded, sequences, contextSize, flashAttention, lora)
      slot = { creating, leases: 0 }
      entry.pools.set(key, slot)
      creating.catch(() => entry!.pools.delete(key))
    }
    slot.leases++
    let pool: SequencePool
    try {
      pool = await slot.creating
    } catch (error) {
      slot.leases--
      await this.collect(path)
      throw error
    }
    let released = false
    return {
      loaded,
      pool,
      // A run records the adapter with the base: "<base>@<hash>+lora:<adapter>@<hash>*<scale>".
      modelId: embeddingModelId(path, file.sha256!) + (lora ? `+lora:${embeddingModelId(lora.path, lora.sha256)}*${lora.scale}` : ''),
      file,
      release: async () => {
        if (released) return
        released = true
        slot.leases--
        if (slot.leases === 0 && entry.pools.get(key) === slot) {
          entry.pools.delete(key)
          await pool.dispose()
        }
        await this.collect(path)
      },
    }
  }

  /** The entry for an absolute path, starting its load when there is none. */
  private entryFor(path: string, gpuLayers?: PoolOptions['gpuLayers']): ModelEntry {
    let entry = this.models.get(path)
    if (!entry) {
      const loading = this.runtime.loadModel(path, { gpuLayers })
      const created: ModelEntry = { loading, ready: null, pools: new Map(), pinned: false, embedder: null }
      loading.then(
        (loaded) => (created.ready = loaded),
        () => this.models.get(path) === created && this.models.delete(path),
      )
      this.models.set(path, (entry = created))
    }
    return entry
  }

  /** Keeps the model at `modelPath` loaded until unpin (the Models page's load); a second pin is a no-op. */
  async pin(modelPath: string): Promise<LoadedModel> {
    if (this.disposed) throw new PolicyError('disposed', 'the model cache has been disposed')
    const path = resolve(modelPath)
    const entry = this.entryFor(path)
    entry.pinned = true
    try {
      return await entry.loading
    } catch (error) {
      entry.pinned = false
      throw error
    }
  }

  /** Lets the model go once nothing else holds it. */
  async unpin(modelPath: string): Promise<void> {
    const path = resolve(modelPath)
    const entry = this.models.get(path)
    if (!entry) return
    entry.pinned = false
    await this.collect(path)
  }

  /** The model at `modelPath` when pinned and loaded, else undefined. */
  pinned(modelPath: string): LoadedModel | undefined {
    const entry = this.models.get(resolve(modelPath))
    return entry?.pinned ? (entry.ready ?? undefined) : undefined
  }

  /** Whether the query embedder for `modelPath` is loaded (dense search serves from it). */
  hasEmbedder(modelPath: string): boolean {
    const entry = this.models.get(resolve(modelPath))
    return entry?.embedder != null && entry.ready != null
  }

  /**
   * The query embedder on the model at `modelPath`, created once and kept until dispose: the embedding
   * context sits on the cache's one copy of the model, beside any policy contexts on the same file.
   */
  embedder(modelPath: string): Promise<GgufEmbedder> {
    if (this.disposed) return Promise.reject(new PolicyError('disposed', 'the model cache has been disposed'))
    const path = resolve(modelPath)
    const entry = this.entryFor(path)
    if (!entry.embedder) {
      // Disposing the embedder (or failing to create it) gives the model back to the cache.
      const release = async (): Promise<void> => {
        if (entry.embedder === creating) entry.embedder = null
        await this.collect(path)
      }
      const creating: Promise<GgufEmbedder> = entry.loading.then((loaded) => createGgufEmbedder(path, { runtime: this.runtime, loaded: { model: loaded, release } }))
      entry.embedder = creating
      creating.catch(release)
    }
    return entry.embedder
  }

  /** Disposes the model at `path` once nothing holds it: no context, no pin, no embedder. */
  private async collect(path: string): Promise<void> {
    const entry = this.models.get(path)
    if (!entry || entry.pools.size > 0 || entry.pinned || entry.embedder) return
    this.models.delete(path)
    const loaded = await entry.loading.catch(() => null)
    await loaded?.dispose()
  }

  entries(): CacheEntryInfo[] {
    return [...this.models.entries()].map(([path, entry]) => ({
      path,
      pinned: entry.pinned,
      embedder: entry.embedder !== null,
      contexts: [...entry.pools.entries()].map(([key, slot]) => {
        const [shape, loraPart] = key.split('+lora:')
        const [sequences, contextSize] = shape!.replace('fa', '').split('x').map(Number)
        return { sequences: sequences!, contextSize: contextSize!, flashAttention: shape!.endsWith('fa'), leases: slot.leases, ...(loraPart ? { lora: loraPart.slice(0, loraPart.lastIndexOf('*')) } : {}) }
      }),
    }))
  }

  /** Disposes every context and model, held or not; later leases fail with 'disposed'. */
  async dispose(): Promise<void> {
    this.disposed = true
    const entries = [...this.models.values()]
    this.models.clear()
    for (const entry of entries) {
      await (await entry.embedder?.catch(() => null))?.dispose()
      for (const slot of entry.pools.values()) await (await slot.creating.catch(() => null))?.dispose()
      await (await entry.loading.catch(() => null))?.dispose()
    }
  }
}

/**
 * A context with the runtime's thread count, like LoadedModel.createContext, but with the flash
 * attention setting explicit (see PoolOptions.flashAttention).
 */
async function createPool(loaded: LoadedModel, sequences: number, contextSize: number, flashAttention: boolean, lora: ResolvedLora | null): Promise<SequencePool> {
  try {
    return new SequencePool(
      await loaded.model.createContext({
        sequences,
        contextSize,
        threads: loaded.runtime.threads,
        flashAttention,
        lora: lora ? { adapters: [{ filePath: lora.path, scale: lora.scale }] } : undefined,
      }),
    )
  } catch (error) {
    throw new PolicyError('context-failed', `could not create a context (${sequences} x ${contextSize} tokens): ${(error as Error).message}`, { path: loaded.path, cause: error })
  }
}

interface ResolvedLora {
  path: string
  scale: number
  sha256: string
}

/** The adapter's absolute path, scale and hash, after checking from the headers that it fits the base. */
async function describeLora(lora: { path: string; scale?: number }, basePath: string): Promise<ResolvedLora> {
  const scale = lora.scale ?? 1
  if (!Number.isFinite(scale)) throw new PolicyError('invalid-input', `LoRA scale must be a finite number, got ${scale}`)
  const path = resolve(lora.path)
  await checkLoraFit(path, basePath)
  const file = await describeModel(path)
  return { path, scale, sha256: file.sha256! }
}

const caches = new WeakMap<LlamaRuntime, ModelCache>()

/** The cache for a runtime (models belong to the llama.cpp binding that loaded them). */
export function modelCacheFor(runtime: LlamaRuntime): ModelCache {
  let cache = caches.get(runtime)
  if (!cache) {
    cache = new ModelCache(runtime)
    caches.set(runtime, cache)
  }
  return cache
}

/** Disposes a runtime's cached models; the next lease starts a fresh cache. */
export async function disposeModelCache(runtime: LlamaRuntime): Promise<void> {
  const cache = caches.get(runtime)
  caches.delete(runtime)
  await cache?.dispose()
}

const described = new Map<string, { size: number; mtimeMs: number; info: Promise<ModelFileInfo> }>()

/**
 * inspectModelFile with the hash remembered per (path, size, mtime): hashing a multi-gigabyte model
 * takes seconds, and every policy and answerer names its model by that hash.
 */
export async function describeModel(path: string): Promise<ModelFileInfo> {
  const absolute = resolve(path)
  const stats = await stat(absolute).catch(() => null)
  const known = described.get(absolute)
  if (stats && known && known.size === stats.size && known.mtimeMs === stats.mtimeMs) return known.info
  // Missing and unreadable files get their typed error from inspectModelFile.
  const info = inspectModelFile(absolute)
  if (stats) {
    described.set(absolute, { size: stats.size, mtimeMs: stats.mtimeMs, info })
    info.catch(() => described.delete(absolute))
  }
  return info
}
