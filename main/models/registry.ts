import { createHash } from 'node:crypto'
import { availableParallelism } from 'node:os'
import { basename, resolve } from 'node:path'
import type { Kysely, Selectable } from 'kysely'
import { ApiError, type JobKind, type LoraPairing, type ModelHolder, type ModelInfo } from '../../preload/contract'
import type { AppDatabase, ModelTable } from '../db/schema'
import { LoraPairings } from './lora-pairings'
import { modelColumns, ModelStore } from './store'
import { PolicyError } from '../llm/errors'
import type { LlmHome } from '../llm/llama-runtime'
import type { GgufEmbedder } from '../llm/embedder'
import { disposeModelCache, modelCacheFor, type ModelCache } from '../llm/model-cache'
import { checkGgufFile } from '../llm/gguf-check'
import { describeGgufHeader, sha256File, type ModelFileInfo } from '../llm/model-file'
import { readProvenance } from './provenance'

export interface ModelRegistryOptions {
  /** The running jobs whose worker threads hold the model file at an absolute path (the job manager knows). */
  jobHolders?: (path: string) => Array<{ jobId: string; kind: JobKind }>
  /** The LLM home whose model cache loads, and serves dense search from, the registered files; without it the registry only registers. */
  llm?: LlmHome
}

/**
 * Registered GGUF files (app.db), shared by every workspace, and where each is loaded: in this
 * process (loaded here, or serving dense search) and in the worker threads of running jobs, which
 * load their own copies (llama.cpp models cannot cross threads).
 */
export class ModelRegistry {
  private readonly store: ModelStore
  /** The LLM home's model cache, once something has asked for it: it, not the registry, knows what is loaded. */
  private cache: ModelCache | null = null

  constructor(
    db: Kysely<AppDatabase>,
    private readonly options: ModelRegistryOptions = {},
  ) {
    this.store = new ModelStore(db)
    this.lora = new LoraPairings(this.store, (id) => this.row(id))
  }

  /** Every holder of a model file now: this process first, then jobs. */
  holdersOf(id: string, path: string): ModelHolder[] {
    const uses: Array<'loaded' | 'search'> = []
    if (this.cache?.pinned(path)) uses.push('loaded')
    if (this.cache?.hasEmbedder(path)) uses.push('search')
    const jobs = (this.options.jobHolders?.(path) ?? []).map((h): ModelHolder => ({ where: 'job', jobId: h.jobId, kind: h.kind }))
    return [...(uses.length ? [{ where: 'main' as const, uses }] : []), ...jobs]
  }

  /** LoRA adapters registered against base models (app.db lora_adapters). */
  readonly lora: LoraPairings

  private toDto(row: Selectable<ModelTable>, lora: LoraPairing[]): ModelInfo {
    const info = modelColumns.info.read(row.info_json)
    const live = this.cache?.pinned(row.path)
    return {
      id: row.id,
      path: row.path,
      name: row.name,
      sha256: row.sha256,
      role: row.role,
      addedAt: row.added_at,
      architecture: info.architecture,
      parameterCount: info.parameterCount,
      quantization: info.quantization,
      contextLength: info.contextLength,
      embeddingLength: info.embeddingLength,
      layers: info.layers,
      hasChatTemplate: info.hasChatTemplate,
      sizeBytes: info.sizeBytes,
      loaded: live ? { backend: live.backend, gpuLayers: live.gpuLayers, totalLayers: live.totalLayers, loadMs: live.loadMs } : null,
      holders: this.holdersOf(row.id, row.path),
      lora: lora.filter((p) => p.adapterId === row.id || p.baseId === row.id),
      provenance: info.provenance ?? null,
    }
  }

  private async row(id: string): Promise<Selectable<ModelTable>> {
    const row = await this.store.model(id)
    if (!row) throw new ApiError('NOT_FOUND', `No registered model with id ${id}`)
    return row
  }

  async list(): Promise<ModelInfo[]> {
    const lora = await this.lora.list()
    return (await this.store.models()).map((r) => this.toDto(r, lora))
  }

  /**
   * Checks the file (checkGgufFile: header, every tensor's type and bytes) and hashes it without
   * loading weights; a bad file is a validation error with its named reason, and nothing is registered.
   */
  async add(path: string, role?: ModelTable['role']): Promise<ModelInfo> {
    const abs = resolve(path)
    let info: ModelFileInfo
    try {
      const header = await checkGgufFile(abs, { forTraining: false })
      info = describeGgufHeader(abs, header, await sha256File(abs))
    } catch (err) {
      if (err instanceof PolicyError) throw new ApiError('VALIDATION', err.message)
      throw err
    }
    const sha256 = info.sha256 ?? ''
    const provenance = readProvenance(abs, sha256)
    if (provenance) info = { ...info, provenance } as ModelFileInfo
    const id = createHash('sha256').update(abs).digest('hex').slice(0, 16)
    const chosen = role ?? (info.isLoraAdapter ? 'adapter' : info.isEmbeddingModel ? 'embedding' : 'policy')
    // Named by its file: a GGUF header's general.name is often just the architecture ("llama") and tells two files apart poorly.
    await this.store.putModel({ id, path: abs, name: basename(abs), sha256, role: chosen, info_json: JSON.stringify(info), added_at: new Date().toISOString() })
    return this.toDto(await this.row(id), await this.lora.list())
  }

  async remove(id: string): Promise<void> {
    await this.row(id)
    await this.unload(id)
    await this.store.deleteModel(id)
  }

  async load(id: string): Promise<ModelInfo> {
    const row = await this.row(id)
    if (row.role === 'adapter') throw new ApiError('VALIDATION', 'A LoRA adapter is applied to a base model, not loaded on its own')
    try {
      // The cache loads each file once: a policy or dense search already on it shares that copy.
      await (await this.models()).pin(row.path)
    } catch (err) {
      if (err instanceof PolicyError) throw new ApiError('VALIDATION', err.message)
      throw err
    }
    return this.toDto(row, await this.lora.list())
  }

  async unload(id: string): Promise<ModelInfo> {
    const row = await this.row(id)
    await this.cache?.unpin(row.path)
    return this.toDto(row, await this.lora.list())
  }

  /** The model cache of the LLM home this registry was handed. */
  private async models(): Promise<ModelCache> {
    if (!this.options.llm) throw new Error('This model registry was built without the LLM home: it registers models but cannot load them')
    const cache = modelCacheFor(await this.options.llm())
    this.cache = cache
    return cache
  }

  async runtime(): Promise<{ backend: string; threads: number; gpuDevices: string[]; cores: number; vram: { total: number; used: number } | null; processRss: number }> {
    const { runtime } = await this.models()
    const info = await runtime.info()
    const vram = info.backend === 'cpu' ? null : await runtime.llama.getVramState().then((v) => ({ total: v.total, used: v.used })).catch(() => null)
    return { backend: info.backend, threads: info.threads, gpuDevices: info.gpuDevices, cores: availableParallelism(), vram, processRss: process.memoryUsage().rss }
  }

  /** The embedder for a model file, loaded once and shared by every workspace that uses it. */
  async embedderFor(path: string): Promise<GgufEmbedder> {
    return (await this.models()).embedder(path)
  }

  /** Disposes every model the cache holds in this process (the app is closing). */
  async closeAll(): Promise<void> {
    const cache = this.cache
    this.cache = null
    if (cache) await disposeModelCache(cache.runtime)
  }
}
