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
