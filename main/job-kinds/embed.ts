import { EmbedParams, type JobResult } from '../../preload/contract'
import { computeEntityLinks } from '../graph/links'
import { defineJobKind } from '../jobs/define-job-kind'
import type { JobContext, JobOutcome } from '../jobs/protocol'
import { writeEmbeddingModel } from '../models/embedding-model'
import { createGgufEmbedder } from '../llm/embedder'
import type { LlamaRuntime } from '../llm/llama-runtime'
import { embeddedChunkCount } from '../retrieval/statements'
import { embedMissingChunks } from '../retrieval/vectors'

export { EmbedParams }
export type EmbedJobResult = JobResult<'corpus.embed'>

/**
 * Embed every chunk that lacks a vector from the chosen GGUF model. Each batch is stored in its own
 * transaction, so a cancelled or killed run keeps whole batches only and a rerun picks up the rest.
 * `deps.runtime` lets a caller share an already loaded llama.cpp binding (tests, a long-lived worker).
 */
export const embedJob = (deps: { runtime?: LlamaRuntime } = {}) =>
  defineJobKind({
    kind: 'corpus.embed',
    run: async (ctx, { params, db, own }) => {
      ctx.progress(0, 'load', `Loading ${params.modelPath}`)
      const embedder = own(await createGgufEmbedder(params.modelPath, { runtime: deps.runtime }), params.modelPath)
      const raw = db.raw
      const skipped = embeddedChunkCount(raw, embedder.model)
      // Recorded before the first batch: chunk_vectors holds one vector per chunk, so from then on
      // the stored set belongs (at least partly) to this model and readers must query with it.
      writeEmbeddingModel(raw, { path: params.modelPath, model: embedder.model, dimension: embedder.dimension })

      ctx.throwIfCancelled()
      ctx.progress(0, 'embed', `Embedding chunks with ${embedder.model}`)
      const started = performance.now()
      // embedMissingChunks takes an AbortSignal, but a job only exposes a polled flag; its onProgress
      // runs after each batch is committed, so checking there cancels between whole batches.
      const embedded = await embedMissingChunks(raw, embedder, {
        batchSize: params.batchSize,
        onProgress: (done, total) => {
          ctx.progress(total === 0 ? 0.95 : (done / total) * 0.95, 'embed', `${done}/${total} chunks`)
          ctx.throwIfCancelled()
        },
      })
      // With a model set, Harness-G's entity neighbour links use cosine over name embeddings instead of the trigram fallback.
      ctx.progress(0.99, 'entity links', 'Linking entities by name embeddings')
      const links = await computeEntityLinks(raw, { embed: (texts) => embedder.embed(texts), model: embedder.model, checkpoint: () => ctx.throwIfCancelled() })
      const seconds = (performance.now() - started) / 1000
      const result: EmbedJobResult = {
        entityLinks: { method: links.method, links: links.links, entities: links.entities },
        model: embedder.model,
        dimension: embedder.dimension,
        embedded,
        skipped,
        truncated: embedder.stats.truncated,
        seconds,
        chunksPerSecond: seconds > 0 ? embedded / seconds : 0,
      }
      ctx.progress(1, 'done', 'Finished')
      const rate = embedded > 0 ? ` (${result.chunksPerSecond.toFixed(1)} chunks/s)` : ''
      const message = `${embedded} chunks embedded, ${skipped} already had vectors, with ${embedder.model} (${embedder.dimension} dims) in ${seconds.toFixed(1)} s${rate}`
      return { result, message }
    },
  })

export const runEmbedJob = (ctx: JobContext, deps: { runtime?: LlamaRuntime } = {}): Promise<JobOutcome<EmbedJobResult>> => embedJob(deps)(ctx)
