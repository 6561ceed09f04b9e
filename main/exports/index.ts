/**
 * Exports of runs and question sets as files, one small file per format (formats/), registered by name
 * (registry.ts). writeExport() writes through a `.partial` file renamed into place when it is complete.
 */
import type { ExportParams, ExportResult } from '../../preload/contract'
import type { WorkspaceHandle } from '../corpus/repository'
import { FileSink } from './file-sink'
import type { ExportFormatDef } from './format'
import { exportFormats } from './registry'

export { exportFormatCatalog, exportFormats } from './registry'
export { csvField, csvRecord, type CsvValue } from './csv'
export { sweepPartials } from './file-sink'

export interface ExportHooks {
  progress?(done: number, total: number): void
  checkpoint?(): void
}

/** The default file name of an export: `<source>-<id>-<format>-<stamp>.<ext>`. */
export function exportFileName(params: ExportParams, stamp = new Date().toISOString().replace(/[:.]/g, '-')): string {
  const def = exportFormats[params.format]
  const id = params.source === 'run' ? `run-${params.runId}` : `questions-${params.questionSetId}`
  return `${id}-${params.format.replace(/-(csv|jsonl|parquet)$/, '')}-${stamp}.${def.extension}`
}

export async function writeExport(raw: WorkspaceHandle, params: ExportParams, file: string, hooks: ExportHooks = {}): Promise<ExportResult> {
  const t0 = performance.now()
  const def = exportFormats[params.format] as ExportFormatDef
  const out = new FileSink(file)
  try {
    const rows = await def.write({ raw, out, progress: hooks.progress ?? (() => {}), checkpoint: hooks.checkpoint ?? (() => {}) }, params as never)
    out.commit()
    return { file, format: params.format, rows, bytes: out.bytes, ms: performance.now() - t0 }
  } catch (err) {
    out.abort()
    throw err
  }
}

/** The content type a finished export's file is downloaded with (octet-stream for an unknown format). */
export function exportContentType(format: string | undefined): string {
  return format !== undefined && Object.hasOwn(exportFormats, format) ? exportFormats[format as keyof typeof exportFormats].contentType : 'application/octet-stream'
}
