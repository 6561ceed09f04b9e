import type SQLite from 'better-sqlite3'
import { DEFAULT_CHUNKING, type ChunkingOptions } from '../corpus/chunker'
import type { ParseOptions } from '../corpus/parsers'
import { CHUNK_TOKENIZER } from '../corpus/tokens'
import { IngestFileError } from '../corpus/types'
import { writeMeta } from '../db/meta'
import { storageFailureOf } from '../db/storage-error'
import { computeEntityLinks } from '../graph/links'
import { FileWorkerPool, FileWorkerUnavailable, type WorkerStartOptions } from './isolation'
import { DEFAULT_FILE_LIMITS, FileBudgetError, limitsSignature, type FileLimits } from './limits'
import { processUnit, type ProcessedUnit, type ProcessOptions, type ProcessStage } from './process'
import { resolveSource, type IngestSource, type IngestUnit, type UnitOptions } from './sources'
import { CorpusWriter, type FileFailureReason, type WriteCounts } from './writer'

export interface IngestOptions extends UnitOptions {
  chunking: ChunkingOptions
  /** The workspace's embedding model, when one is set: entity links then use name embeddings. */
  linkEmbedder?: { model: string; embed(texts: string[]): Promise<Float32Array[]> }
  /** Per-file time and memory budgets and parser limits (DEFAULT_FILE_LIMITS when absent). */
  limits?: FileLimits
  /** Parse files again that failed before with the same content, settings and limits (default: skip them). */
  retryFailed?: boolean
  /**
   * 'worker' (default): files and benchmark imports are parsed and prepared in a worker thread that
   * is stopped when a file runs past its budget; when no worker can start, the ingest stops with the
   * reason (it never falls back to parsing without limits). 'inline': in this thread, with no time
   * limit (tests and benches that measure the parsers alone). Generated sources (the demo world)
   * always run inline.
   */
  isolation?: 'worker' | 'inline'
  /** How long the file worker's start is waited for, and how often tried (DEFAULT_WORKER_START). */
  workerStart?: Partial<WorkerStartOptions>
}

export const DEFAULT_MAX_FILE_BYTES = 64 * 1024 * 1024

export interface IngestReporter {
  progress(progress: number, stage: string, message?: string): void
  throwIfCancelled(): void
}

export interface FileOutcome {
  label: string
  /** 'skipped': a symbolic link or special file, or a file that failed before with the same content. */
  status: 'ingested' | 'unchanged' | 'failed' | 'skipped'
  reason?: string
  error?: string
  /** What the file's record says about an ingested file (bad JSONL lines skipped, HTML read by the plain extractor). */
  notes?: string[]
}

export interface IngestSummary extends WriteCounts {
  files: number
  ingested: number
  unchanged: number
  failed: number
  /** Folder entries not ingested (links, special files) and files that failed before with the same content. */
  skipped: number
  orphanEntitiesDropped: number
  /** Entity neighbour links, rebuilt when the corpus changed. */
  links: { method: string; links: number; entities: number } | null
  tokenizer: string
  seconds: { total: number; parse: number; nlp: number; write: number; links: number }
  /**
   * Where files were parsed: in the file worker (under their budget; `workers` processes started, the
   * largest peak resident size one reported, `failedStarts` starts that timed out or died and were
   * tried again; `note` says so), or in this thread (asked for with `isolation: 'inline'`).
   */
  isolation: { mode: 'worker' | 'inline'; workers: number; workerPeakRssBytes: number; failedStarts: number; note?: string }
  outcomes: FileOutcome[]
}

const settingsSignature = (o: IngestOptions): string => `${CHUNK_TOKENIZER}:${o.chunking.chunkTokens}:${o.chunking.overlapTokens}`

/**
 * The signature a failure is remembered under: the content and chunk settings (as for success) plus
 * everything else that decides whether the file fails, so raising a limit or changing the JSON field
 * names tries the file again.
 */
const failureSignature = (signature: string, o: IngestOptions, limits: FileLimits): string =>
  `failed|${signature}|${limitsSignature(limits)}|max${o.maxFileBytes}|${o.strictJsonl ? 'strict' : 'lenient'}|${JSON.stringify(o.json ?? {})}`

/** Failures that may pass next time with the same content (a write error, permissions): not remembered. */
const TRANSIENT: ReadonlySet<string> = new Set(['internal', 'unreadable'])

const parseOptionsOf = (o: IngestOptions, limits: FileLimits): ParseOptions => ({
  maxFileBytes: o.maxFileBytes,
  ...(o.json ? { json: o.json } : {}),
  ...(o.strictJsonl ? { strictJsonl: true } : {}),
  maxDecompressedBytes: limits.maxDecompressedBytes,
  html: { readabilityMaxDepth: limits.htmlReadabilityMaxDepth, maxDepth: limits.htmlMaxDepth },
})

/** Where each stage sits inside a unit's share of the progress bar. */
const STAGE_AT: Record<ProcessStage, [number, number]> = {
  parse: [0.1, 0],
  readability: [0.15, 0],
  plain: [0.15, 0],
  'sentences & entities': [0.3, 0.5],
}

/**
 * Ingests every unit of a source into a workspace database. Units are independent: each one is
 * skipped when unchanged (or when it failed before with the same content), or parsed, prepared and
 * written in its own transaction, or recorded as failed with its reason. Parsing and preparing run in
 * the file worker under the file's time and memory budget, so no file can stall the batch. Cancelling
 * stops between units (or stops the file's worker); running again resumes (finished units are unchanged),
 * and since a document's sentences and mentions depend on that document alone, a resumed ingest ends
 * with the same graph as an uninterrupted one.
 */
export async function runIngest(raw: SQLite.Database, source: IngestSource, options: IngestOptions, report: IngestReporter): Promise<IngestSummary> {
  const t0 = performance.now()
  const seconds = { total: 0, parse: 0, nlp: 0, write: 0, links: 0 }
  const limits = options.limits ?? DEFAULT_FILE_LIMITS
  const writer = new CorpusWriter(raw)
  report.progress(0, 'scan', 'Listing sources')
  const { units, skipped: skippedEntries } = await resolveSource(source, options)
  const summary: IngestSummary = {
    files: units.length + skippedEntries.length, ingested: 0, unchanged: 0, failed: 0, skipped: 0, documents: 0, chunks: 0, sentences: 0, mentions: 0, questions: 0,
    orphanEntitiesDropped: 0, links: null, tokenizer: CHUNK_TOKENIZER, seconds,
    isolation: { mode: options.isolation ?? 'worker', workers: 0, workerPeakRssBytes: 0, failedStarts: 0 }, outcomes: [],
  }
  for (const entry of skippedEntries) {
    summary.skipped++
    summary.outcomes.push({ label: entry.label, status: 'skipped', reason: entry.reason, error: entry.message })
  }
  const settings = settingsSignature(options)
  const processOptions: ProcessOptions = { parse: parseOptionsOf(options, limits), chunking: options.chunking }
  const share = 0.97 / Math.max(1, units.length)
  const pool = summary.isolation.mode === 'worker' ? new FileWorkerPool(limits.memoryMiB, options.workerStart) : null

  const processInThread = (unit: IngestUnit, stage: (s: ProcessStage, f: number) => void): Promise<ProcessedUnit> =>
    processUnit(unit.task, processOptions, { stage })

  const processOne = async (unit: IngestUnit, stage: (s: ProcessStage, f: number) => void): Promise<ProcessedUnit> => {
    if (!pool || unit.task.kind === 'demo') return processInThread(unit, stage)
    try {
      return await pool.process(unit.task, processOptions, limits, unit.sizeBytes, { stage, checkpoint: () => report.throwIfCancelled() })
    } catch (error) {
      if (!(error instanceof FileWorkerUnavailable)) throw error
      // Never parse an untrusted file without its limits: the ingest stops here, keeping every file already written.
      throw new FileWorkerUnavailable(
        `The ingest stopped before ${unit.label}: ${error.message}. No file is parsed outside the worker's time and memory limits; ` +
          'run the ingest again when the machine is less busy (it resumes where it stopped)',
      )
    }
  }

  try {
    for (const [i, unit] of units.entries()) {
      report.throwIfCancelled()
      const base = i * share
      const where = `${unit.label} (${i + 1}/${units.length})`
      const record = { path: unit.key, format: unit.format, sizeBytes: unit.sizeBytes }
      let failedUnder = ''
      try {
        report.progress(base, 'hash', where)
        const signature = `${await unit.hash()}|${settings}`
        failedUnder = failureSignature(signature, options, limits)
        if (writer.isUnchanged(unit.key, signature)) {
          summary.unchanged++
          summary.outcomes.push({ label: unit.label, status: 'unchanged' })
          continue
        }
        const before = options.retryFailed ? null : writer.failedBefore(unit.key, failedUnder)
        if (before) {
          summary.skipped++
          summary.outcomes.push({ label: unit.label, status: 'skipped', reason: before.reason, error: `skipped: failed before with the same content (${before.error})` })
          continue
        }
        report.progress(base + share * 0.1, 'parse', where)
        const processed = await processOne(unit, (stage, fraction) => {
          const [at, span] = STAGE_AT[stage]
          const percent = stage === 'sentences & entities' ? ` ${Math.floor(fraction * 100)}%` : ''
          report.progress(base + share * (at + span * fraction), stage, `${where}${percent}`)
        })
        seconds.parse += processed.seconds.parse
        seconds.nlp += processed.seconds.nlp
        report.throwIfCancelled()
        report.progress(base + share * 0.8, 'write', `${unit.label}: writing`)
        const t = performance.now()
        const counts = writer.writeFile({ ...record, signature, notes: processed.notes }, processed.documents, processed.questions, unit.questionSet)
        seconds.write += (performance.now() - t) / 1000
        for (const k of ['documents', 'chunks', 'sentences', 'mentions', 'questions'] as const) summary[k] += counts[k]
        summary.ingested++
        summary.outcomes.push({ label: unit.label, status: 'ingested', ...(processed.notes.length > 0 ? { notes: processed.notes } : {}) })
      } catch (err) {
        if (!(err instanceof Error) || err.name === 'JobCancelledError' || err instanceof FileWorkerUnavailable) throw err
        // The database's disk full or read-only is not the file's fault: the ingest stops (and resumes here when run again).
        if (!(err instanceof IngestFileError) && !(err instanceof FileBudgetError) && storageFailureOf(err)) throw err
        const reason: FileFailureReason = err instanceof IngestFileError || err instanceof FileBudgetError ? err.reason : 'internal'
        const message = err instanceof FileBudgetError ? `${unit.label}: ${err.message}` : err.message
        writer.writeFailure({ ...record, signature: TRANSIENT.has(reason) ? '' : failedUnder }, reason, message)
        summary.failed++
        summary.outcomes.push({ label: unit.label, status: 'failed', reason, error: message })
      }
    }
  } finally {
    if (pool) {
      summary.isolation.workers = pool.started
      summary.isolation.workerPeakRssBytes = pool.peakRssBytes
      summary.isolation.failedStarts = pool.failedStarts
      if (pool.failedStarts > 0) summary.isolation.note = `the file worker was slow to start: ${pool.failedStarts} start${pool.failedStarts === 1 ? '' : 's'} timed out or died and ${pool.failedStarts === 1 ? 'was' : 'were'} tried again`
      await pool.close()
    }
  }

  report.progress(0.97, 'entities', 'Dropping entities no longer mentioned')
  summary.orphanEntitiesDropped = writer.dropOrphanEntities()
  if (writer.linksDirty() || summary.orphanEntitiesDropped > 0) {
    // Links are a whole-corpus relation: recomputed (sub-quadratically) whenever any file changed.
    report.progress(0.98, 'entity links', 'Linking entities to their nearest neighbours')
    const t = performance.now()
    const embedder = options.linkEmbedder
    const links = await computeEntityLinks(raw, {
      checkpoint: () => report.throwIfCancelled(),
      ...(embedder ? { embed: (texts: string[]) => embedder.embed(texts), model: embedder.model } : {}),
    })
    writer.markLinksClean()
    seconds.links = (performance.now() - t) / 1000
    summary.links = { method: links.method, links: links.links, entities: links.entities }
  }
  writeMeta(raw, 'chunking', JSON.stringify({ ...options.chunking, tokenizer: CHUNK_TOKENIZER }))
  seconds.total = (performance.now() - t0) / 1000
  const skipped = summary.skipped > 0 ? `, ${summary.skipped} skipped` : ''
  report.progress(1, 'done', `${summary.ingested} ingested, ${summary.unchanged} unchanged, ${summary.failed} failed${skipped}`)
  return summary
}

export const defaultIngestOptions = (): IngestOptions => ({ chunking: { ...DEFAULT_CHUNKING }, maxFileBytes: DEFAULT_MAX_FILE_BYTES, limits: { ...DEFAULT_FILE_LIMITS } })
