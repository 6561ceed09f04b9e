import { IngestParams } from '../../preload/contract'
import { workspaceMigrations } from '../db/migrations'
import { openDatabase } from '../db/open'
import { runIngest } from '../ingest/run'
import { createGgufEmbedder } from '../policy/embedder'
import { readEmbeddingModel } from './embed'
import type { JobContext, JobOutcome } from '../jobs/protocol'

/** Corpus ingest in a worker thread, on the thread's own connection to the workspace database. */
export async function runIngestJob(ctx: JobContext<unknown>): Promise<JobOutcome> {
  const params = IngestParams.parse(ctx.params)
  if (!ctx.workspaceDbFile) throw new Error('corpus.ingest needs a workspace')
  const opened = await openDatabase(ctx.workspaceDbFile, workspaceMigrations)
  const record = readEmbeddingModel(opened.raw)
  // An unloadable model (moved, deleted) must not stop the ingest: links fall back to name trigrams, and the result says so.
  const embedder = record ? await createGgufEmbedder(record.path).catch((err: unknown) => ({ error: err instanceof Error ? err.message : String(err) })) : undefined
  const linkEmbedder = embedder && !('error' in embedder) ? embedder : undefined
  try {
    const summary = await runIngest(
      opened.raw,
      params.source,
      {
        chunking: { chunkTokens: params.chunkTokens, overlapTokens: params.overlapTokens },
        maxFileBytes: Math.round(params.maxFileMiB * 1024 * 1024),
        ...(params.json ? { json: params.json } : {}),
        ...(linkEmbedder ? { linkEmbedder } : {}),
      },
      { progress: (p, stage, message) => ctx.progress(p, stage, message), throwIfCancelled: () => ctx.throwIfCancelled() },
    )
    const message =
      `${summary.ingested} ingested, ${summary.unchanged} unchanged, ${summary.failed} failed: ` +
      `${summary.documents} documents, ${summary.chunks} chunks, ${summary.sentences} sentences, ${summary.mentions} mentions, ${summary.questions} questions ` +
      `in ${summary.seconds.total.toFixed(1)} s`
    // Keep the stored result small: per-file outcomes live in source_files; failures are listed (capped).
    const failures = summary.outcomes.filter((o) => o.status === 'failed').slice(0, 200)
    const embedderError = embedder && 'error' in embedder ? `embedding model unavailable (${embedder.error}); entity links used name trigrams` : undefined
    return { result: { ...summary, outcomes: undefined, failures, ...(embedderError ? { embedderError } : {}) }, message: embedderError ? `${message}; ${embedderError}` : message }
  } finally {
    await linkEmbedder?.dispose()
    await opened.close()
  }
}
