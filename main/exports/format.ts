import type { EXPORT_EXTENSIONS, ExportFormat, ExportFormatInfo, ExportParams } from '../../preload/contract'
import type { WorkspaceHandle } from '../corpus/repository'
import type { FileSink } from './file-sink'

export interface ExportContext {
  raw: WorkspaceHandle
  /** The file of a one-file format. */
  out: FileSink
  /** A folder format's file `<name>` in its folder (opened on first use). */
  fileIn(name: string): FileSink
  /** Rows written so far of the expected total. */
  progress(done: number, total: number): void
  /** Throws when the job was cancelled. */
  checkpoint(): void
}

/** One export format: what it reads (a run or a question set) and how it writes a file. Returns the rows written. */
export interface ExportFormatDef<F extends ExportFormat = ExportFormat> extends Omit<ExportFormatInfo, 'name' | 'extension'> {
  name: F
  /** The extension the contract's table gives the format (EXPORT_EXTENSIONS): a different one is a type error. */
  extension: (typeof EXPORT_EXTENSIONS)[F]
  contentType: string
  /** Written as a folder of files (FlashRAG reads `<split>.jsonl` per split) rather than one file. */
  folder?: boolean
  write(ctx: ExportContext, params: Extract<ExportParams, { format: F }>): Promise<number> | number
}

export const defineFormat = <F extends ExportFormat>(def: ExportFormatDef<F>): ExportFormatDef<F> => def

export const jsonLine = (value: unknown): string => `${JSON.stringify(value)}\n`
