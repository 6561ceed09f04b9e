/**
 * Exports of runs and question sets as files, one small file per format (formats/), registered by name
 * (registry.ts). writeExport() writes through a `.partial` file renamed into place when it is complete.
 */
import { existsSync, lstatSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { exportStem, type ExportParams, type ExportResult } from '../../preload/contract'
import type { WorkspaceHandle } from '../corpus/repository'
import { FileSink } from './file-sink'
import type { ExportFormatDef } from './format'
import { exportFormats } from './registry'

export { exportFormatCatalog, exportFormats } from './registry'
export { csvField, csvRecord, type CsvValue } from './csv'
export { sweepPartials } from './file-sink'
export { questionSplits } from './question-rows'
export { runSplits } from './run-episodes'

export interface ExportHooks {
  progress?(done: number, total: number): void
  checkpoint?(): void
}

/** The default file name of an export: `<source>-<id>-<format>-<stamp>.<ext>`. */
export function exportFileName(params: ExportParams, stamp = new Date().toISOString().replace(/[:.]/g, '-')): string {
  const def = exportFormats[params.format]
  const id = params.source === 'run' ? `run-${params.runId}` : `questions-${params.questionSetId}`
  const split = params.split !== undefined ? `-${params.split.replace(/[^A-Za-z0-9._-]+/g, '_')}` : ''
  const base = `${id}-${exportStem(params.format)}${split}-${stamp}`
  return def.folder ? base : `${base}.${def.extension}`
}

export async function writeExport(raw: WorkspaceHandle, params: ExportParams, file: string, hooks: ExportHooks = {}): Promise<ExportResult> {
  const t0 = performance.now()
  const def = exportFormats[params.format] as ExportFormatDef
  // A folder format writes `file` as a folder of files, each whole or not at all; its parent must exist.
  if (def.folder) {
    if (existsSync(file) && !lstatSync(file).isDirectory()) throw new Error(`${file} exists and is not a folder: ${def.label} writes a folder of files`)
    if (!existsSync(file)) mkdirSync(file)
  }
  const sinks = new Map<string, FileSink>()
  const fileIn = (name: string): FileSink => {
    if (!def.folder) throw new Error(`${def.label} writes one file`)
    let sink = sinks.get(name)
    if (!sink) sinks.set(name, (sink = new FileSink(join(file, name))))
    return sink
  }
  const out = def.folder ? null : new FileSink(file)
  try {
    const rows = await def.write({ raw, out: out!, fileIn, progress: hooks.progress ?? (() => {}), checkpoint: hooks.checkpoint ?? (() => {}) }, params as never)
    out?.commit()
    for (const sink of sinks.values()) sink.commit()
    const bytes = (out?.bytes ?? 0) + [...sinks.values()].reduce((sum, s) => sum + s.bytes, 0)
    return { file, format: params.format, rows, bytes, ms: performance.now() - t0 }
  } catch (err) {
    out?.abort()
    for (const sink of sinks.values()) sink.abort()
    throw err
  }
}

/** The content type a finished export's file is downloaded with (octet-stream for an unknown format). */
export function exportContentType(format: string | undefined): string {
  return format !== undefined && Object.hasOwn(exportFormats, format) ? exportFormats[format as keyof typeof exportFormats].contentType : 'application/octet-stream'
}
