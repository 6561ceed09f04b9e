import type SQLite from 'better-sqlite3'
import { DEFAULT_CHUNKING, type ChunkingOptions } from '../corpus/chunker'
import { CHUNK_TOKENIZER } from '../corpus/tokens'
import { IngestFileError } from '../corpus/types'
import { computeEntityLinks } from '../graph/links'
import { prepareDocuments } from './prepare'
import { resolveUnits, type IngestSource, type UnitOptions } from './sources'
import { CorpusWriter, type WriteCounts } from './writer'

export interface IngestOptions extends UnitOptions {
  chunking: ChunkingOptions
  /** The workspace's embedding model, when one is set: entity links then use name embeddings. */
  linkEmbedder?: { model: string; embed(texts: string[]): Promise<Float32Array[]> }
}

export const DEFAULT_MAX_FILE_BYTES = 64 * 1024 * 1024

export interface IngestReporter {
  progress(progress: number, stage: string, message?: string): void
  throwIfCancelled(): void
}

export interface FileOutcome {
  label: string
  status: 'ingested' | 'unchanged' | 'failed'
  reason?: string
  error?: string
}

export interface IngestSummary extends WriteCounts {
  files: number
  ingested: number
  unchanged: number
  failed: number
  orphanEntitiesDropped: number
  /** Entity neighbour links, rebuilt when the corpus changed. */
  links: { method: string; links: number; entities: number } | null
  tokenizer: string
  seconds: { total: number; parse: number; nlp: number; write: number; links: number }
  outcomes: FileOutcome[]
}

const settingsSignature = (o: IngestOptions): string => `${CHUNK_TOKENIZER}:${o.chunking.chunkTokens}:${o.chunking.overlapTokens}`

/**
 * Ingests every unit of a source into a workspace database. Units are independent: each one is
 * skipped when unchanged, or parsed, prepared and written in its own transaction, or recorded as failed
 * with its reason. Cancelling stops between units; running again resumes (finished units are unchanged).
 */
export async function runIngest(raw: SQLite.Database, source: IngestSource, options: IngestOptions, report: IngestReporter): Promise<IngestSummary> {
  const t0 = performance.now()
  const seconds = { total: 0, parse: 0, nlp: 0, write: 0, links: 0 }
  const writer = new CorpusWriter(raw)
  report.progress(0, 'scan', 'Listing sources')
  const units = await resolveUnits(source, options)
  const summary: IngestSummary = {
    files: units.length, ingested: 0, unchanged: 0, failed: 0, documents: 0, chunks: 0, sentences: 0, mentions: 0, questions: 0,
    orphanEntitiesDropped: 0, links: null, tokenizer: CHUNK_TOKENIZER, seconds, outcomes: [],
  }
  const settings = settingsSignature(options)
  const share = 0.97 / Math.max(1, units.length)

  for (const [i, unit] of units.entries()) {
    report.throwIfCancelled()
    const base = i * share
    const record = { path: unit.key, format: unit.format, sizeBytes: unit.sizeBytes }
    try {
      report.progress(base, 'hash', `${unit.label} (${i + 1}/${units.length})`)
      const signature = `${await unit.hash()}|${settings}`
      if (writer.isUnchanged(unit.key, signature)) {
        summary.unchanged++
        summary.outcomes.push({ label: unit.label, status: 'unchanged' })
        continue
      }
      report.progress(base + share * 0.1, 'parse', `${unit.label} (${i + 1}/${units.length})`)
      let t = performance.now()
      const parsed = await unit.load()
      seconds.parse += (performance.now() - t) / 1000
      if (parsed.documents.length === 0 && parsed.questions.length === 0) throw new IngestFileError('empty', `${unit.label}: no documents found`)
      report.throwIfCancelled()
      report.progress(base + share * 0.3, 'sentences & entities', `${unit.label}: ${parsed.documents.length} documents`)
      t = performance.now()
      const prepared = prepareDocuments(parsed.documents, options.chunking)
      seconds.nlp += (performance.now() - t) / 1000
      report.throwIfCancelled()
      report.progress(base + share * 0.8, 'write', `${unit.label}: writing`)
      t = performance.now()
      const counts = writer.writeFile({ ...record, signature }, prepared, parsed.questions, unit.questionSet)
      seconds.write += (performance.now() - t) / 1000
      for (const k of ['documents', 'chunks', 'sentences', 'mentions', 'questions'] as const) summary[k] += counts[k]
      summary.ingested++
      summary.outcomes.push({ label: unit.label, status: 'ingested' })
    } catch (err) {
      if (!(err instanceof Error) || err.name === 'JobCancelledError') throw err
      const reason = err instanceof IngestFileError ? err.reason : 'internal'
      writer.writeFailure(record, reason, err.message)
      summary.failed++
      summary.outcomes.push({ label: unit.label, status: 'failed', reason, error: err.message })
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
  raw.prepare(`insert into meta (key, value) values ('chunking', ?) on conflict(key) do update set value = excluded.value`).run(
    JSON.stringify({ ...options.chunking, tokenizer: CHUNK_TOKENIZER }),
  )
  seconds.total = (performance.now() - t0) / 1000
  report.progress(1, 'done', `${summary.ingested} ingested, ${summary.unchanged} unchanged, ${summary.failed} failed`)
  return summary
}

export const defaultIngestOptions = (): IngestOptions => ({ chunking: { ...DEFAULT_CHUNKING }, maxFileBytes: DEFAULT_MAX_FILE_BYTES })
