import { z } from 'zod'
import { route } from './define'
import { JobKind } from './job'

/**
 * Where a model is loaded: in the app's own process (by the Models page, or for dense search), or in
 * the worker thread of a running job, which loads its own copy.
 */
export const ModelHolder = z.discriminatedUnion('where', [
  z.object({ where: z.literal('main'), uses: z.array(z.enum(['loaded', 'search'])).min(1) }),
  z.object({ where: z.literal('job'), jobId: z.string(), kind: JobKind }),
])
export type ModelHolder = z.infer<typeof ModelHolder>

/** A LoRA adapter registered against a base model it fits (checked from both files' GGUF headers). */
export const LoraPairing = z.object({
  adapterId: z.string(),
  adapterPath: z.string(),
  adapterName: z.string(),
  baseId: z.string(),
  basePath: z.string(),
  baseName: z.string(),
  /** The scale an evaluation applies by default (node-llama-cpp's LoRA scale). */
  scale: z.number(),
  rank: z.number(),
  alpha: z.number().nullable(),
  /** Base tensors the adapter changes. */
  targets: z.array(z.string()),
  addedAt: z.string(),
})
export type LoraPairing = z.infer<typeof LoraPairing>

export const ModelInfo = z.object({
  id: z.string(),
  path: z.string(),
  name: z.string(),
  sha256: z.string(),
  role: z.enum(['policy', 'embedding', 'adapter']),
  addedAt: z.string(),
  architecture: z.string().nullable(),
  parameterCount: z.number(),
  quantization: z.string().nullable(),
  contextLength: z.number().nullable(),
  embeddingLength: z.number().nullable(),
  layers: z.number().nullable(),
  hasChatTemplate: z.boolean(),
  sizeBytes: z.number(),
  /** Present while the model is loaded in the app's process by models.load. */
  loaded: z.object({ backend: z.string(), gpuLayers: z.number(), totalLayers: z.number(), loadMs: z.number() }).nullable(),
  /** Every process or thread holding this model file now; empty when it is loaded nowhere. */
  holders: z.array(ModelHolder),
  /** LoRA pairings this model is part of: as the base (its adapters) or as the adapter (its bases). */
  lora: z.array(LoraPairing),
  /** Weights trained in the app (a GGUF training run): the base file, its SHA-256, the run and step; null otherwise. */
  provenance: z.object({ baseModel: z.string(), baseSha256: z.string(), runId: z.number(), step: z.number() }).nullable().default(null),
})
export type ModelInfo = z.infer<typeof ModelInfo>

const Id = z.object({ id: z.string().min(1).max(64) }).strict()

export const modelRoutes = {
  'models.list': route('Registered GGUF models with their metadata and load state', z.object({}).strict(), z.array(ModelInfo)),
  'models.add': route(
    'Register a local GGUF file (inspected, not loaded)',
    z.object({ path: z.string().trim().min(1).max(4096), role: z.enum(['policy', 'embedding', 'adapter']).optional() }).strict(),
    ModelInfo,
  ),
  'models.remove': route('Forget a registered model (the file is left alone)', Id, z.object({ removed: z.literal(true) })),
  'models.load': route('Load a model (GPU when present, CPU otherwise)', Id, ModelInfo),
  'models.unload': route('Unload a model and free its memory', Id, ModelInfo),
  'models.registerLora': route(
    'Register a LoRA adapter against a base model (both registered); refused with the mismatching tensor when its shapes do not fit',
    z.object({ adapterId: z.string().min(1).max(64), baseId: z.string().min(1).max(64), scale: z.number().min(-10).max(10).default(1) }).strict(),
    LoraPairing,
  ),
  'models.unregisterLora': route(
    'Forget a LoRA pairing (the files and the models stay registered)',
    z.object({ adapterId: z.string().min(1).max(64), baseId: z.string().min(1).max(64) }).strict(),
    z.object({ removed: z.literal(true) }),
  ),
  'models.runtime': route(
    'The llama.cpp backend this process uses',
    z.object({}).strict(),
    z.object({
      backend: z.string(),
      threads: z.number(),
      gpuDevices: z.array(z.string()),
      cores: z.number(),
      /** GPU memory (bytes) when a GPU backend is in use. */
      vram: z.object({ total: z.number(), used: z.number() }).nullable(),
      /** Resident memory of the process holding the models (bytes). */
      processRss: z.number(),
    }),
  ),
}
