import type { JobResult } from '../../preload/contract'
import { SplitUsageRepository } from '../experiments/runs/split-usage-store'
import { runIngest } from '../ingest/run'
import { defineJobKind } from '../jobs/define-job-kind'
import { readEmbeddingModel } from '../models/embedding-model'
import { createGgufEmbedder } from '../llm/embedder'
import { splitNewDemoSets } from '../questions'

const errorText = (err: unknown): string => (err instanceof Error ? err.message : String(err))

/** Up to five names, then how many more (the result lists up to 200 with where each link points). */
const named = (labels: string[]): string => `${labels.slice(0, 5).join(', ')}${labels.length > 5 ? ` and ${labels.length - 5} more` : ''}`

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
        strictJsonl: params.strictJsonl,
        retryFailed: params.retryFailed,
        limits: {
          timeoutS: params.fileTimeoutS,
          timeoutSPerMiB: params.fileTimeoutSPerMiB,
          memoryMiB: params.fileMemoryMiB,
          maxDecompressedBytes: Math.round(params.maxDecompressedMiB * 1024 * 1024),
          htmlReadabilityMaxDepth: params.htmlReadabilityMaxDepth,
          htmlMaxDepth: params.htmlMaxDepth,
        },
        ...(linkEmbedder ? { linkEmbedder } : {}),
      },
      { progress: (p, stage, message) => ctx.progress(p, stage, message), throwIfCancelled: () => ctx.throwIfCancelled() },
    )
    // The demo arrives split, so its test and held-out sets are large enough for informative CIs.
    if (params.source.kind === 'demo') splitNewDemoSets(db.raw, new SplitUsageRepository(db.raw))
    const skippedBefore = summary.outcomes.filter((o) => o.status === 'skipped' && o.reason !== 'symlink' && o.reason !== 'special-file').length
    const linkLabels = summary.outcomes.filter((o) => o.reason === 'symlink').map((o) => o.label)
    const links = linkLabels.length
    const special = summary.outcomes.filter((o) => o.reason === 'special-file').length
    const noted = summary.outcomes.filter((o) => o.notes && o.notes.length > 0).length
    const skipped = [
      skippedBefore > 0 ? `${skippedBefore} skipped: failed before with the same content` : '',
      links > 0 ? `${links} symbolic link${links === 1 ? '' : 's'} skipped (links are never followed): ${named(linkLabels)}` : '',
      special > 0 ? `${special} special file${special === 1 ? '' : 's'} skipped` : '',
      noted > 0 ? `${noted} ingested with notes (see the file list)` : '',
      summary.isolation.note ?? '',
    ].filter(Boolean)
    const message =
      `${summary.ingested} ingested, ${summary.unchanged} unchanged, ${summary.failed} failed: ` +
      `${summary.documents} documents, ${summary.chunks} chunks, ${summary.sentences} sentences, ${summary.mentions} mentions, ${summary.questions} questions ` +
      `in ${summary.seconds.total.toFixed(1)} s` +
      (skipped.length > 0 ? `; ${skipped.join('; ')}` : '')
    // Keep the stored result small: per-file outcomes live in source_files; failures are listed (capped),
    // files skipped because they failed before with the same content among them (their record is a failure).
    const { outcomes, skipped: _skipped, isolation: _isolation, ...counts } = summary
    const failures = outcomes
      .filter((o) => o.status === 'failed' || (o.status === 'skipped' && o.reason !== 'symlink' && o.reason !== 'special-file'))
      .slice(0, 200)
      .map((o) => ({ label: o.label, status: 'failed' as const, ...(o.reason ? { reason: o.reason } : {}), ...(o.error ? { error: o.error } : {}) }))
    const left = outcomes
      .filter((o) => o.reason === 'symlink' || o.reason === 'special-file')
      .slice(0, 200)
      .map((o) => ({ label: o.label, reason: o.reason as 'symlink' | 'special-file', error: o.error ?? '' }))
    const result: JobResult<'corpus.ingest'> = {
      ...counts,
      failures,
      ...(left.length > 0 ? { skipped: left } : {}),
      ...(embedderError ? { embedderError } : {}),
    }
    return { result, message: embedderError ? `${message}; ${embedderError}` : message }
  },
})
