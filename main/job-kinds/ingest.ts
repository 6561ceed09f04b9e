import type { JobResult } from '../../preload/contract'
import { runIngest } from '../ingest/run'
import { defineJobKind } from '../jobs/define-job-kind'
import { readEmbeddingModel } from '../models/embedding-model'
import { createGgufEmbedder } from '../policy/embedder'

const errorText = (err: unknown): string => (err instanceof Error ? err.message : String(err))

/** Corpus ingest in a worker thread, on the thread's own connection to the workspace database. */
export const ingestJob = defineJobKind({
  kind: 'corpus.ingest',
  run: async (ctx, { params, db, own }) => {
    const record = readEmbeddingModel(db.raw)
    // An unloadable model (moved, deleted) must not stop the ingest: links fall back to name trigrams, and the result says so.
    let embedderError: string | undefined
    const linkEmbedder = record
      ? await createGgufEmbedder(record.path).then(
          (embedder) => own(embedder, record.path),
          (err: unknown) => void (embedderError = `embedding model unavailable (${errorText(err)}); entity links used name trigrams`),
        )
      : undefined
    const summary = await runIngest(
      db.raw,
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
    const { outcomes, ...counts } = summary
    const result: JobResult<'corpus.ingest'> = {
      ...counts,
      failures: outcomes.filter((o) => o.status === 'failed').slice(0, 200),
      ...(embedderError ? { embedderError } : {}),
    }
    return { result, message: embedderError ? `${message}; ${embedderError}` : message }
  },
})
