import { z } from 'zod'
import { route } from './define'
import { OutputPath } from './output-path'

/**
 * Exports of runs and question sets as files, each format registered by name in main/exports. They run
 * as `data.export` jobs (main/job-kinds/export.ts); in browser mode the finished file is downloaded
 * from `/api/download/<job id>`.
 */

/**
 * Every export format by name, with the extension of the file it writes (a folder format: of its files).
 * Its declaration in main/exports/formats/ restates the extension, and the compiler checks they agree; the
 * path check below, the default file names (main/exports) and the renderer's are derived from this table.
 */
export const RUN_EXPORT_FILES = { 'run-results-csv': 'csv', 'run-results-jsonl': 'jsonl', 'run-episodes-jsonl': 'jsonl', 'run-sft-jsonl': 'jsonl' } as const
export const QUESTION_EXPORT_FILES = { 'questions-flashrag-jsonl': 'jsonl', 'questions-verl-jsonl': 'json', 'questions-verl-parquet': 'parquet', 'questions-searchr1-parquet': 'parquet' } as const
export const EXPORT_EXTENSIONS = { ...RUN_EXPORT_FILES, ...QUESTION_EXPORT_FILES }
const namesOf = <T extends object>(files: T) => Object.keys(files) as [keyof T & string, ...(keyof T & string)[]]
export const RUN_EXPORT_FORMATS = namesOf(RUN_EXPORT_FILES)
export const QUESTION_EXPORT_FORMATS = namesOf(QUESTION_EXPORT_FILES)
/** The extensions export files may have, each once. */
export const EXPORT_FILE_EXTENSIONS: readonly string[] = [...new Set(Object.values(EXPORT_EXTENSIONS))]
const fileKind = new RegExp(`-(${EXPORT_FILE_EXTENSIONS.join('|')})$`)
const fileEnding = new RegExp(`[^\\\\/]\\.(${EXPORT_FILE_EXTENSIONS.join('|')})$`)
/** A format's name without its file kind ("run-results-csv" -> "run-results"): the stem of its default file names. */
export const exportStem = (format: string): string => format.replace(fileKind, '')
export const RunExportFormat = z.enum(RUN_EXPORT_FORMATS)
export const QuestionExportFormat = z.enum(QUESTION_EXPORT_FORMATS)
export const ExportFormat = z.enum([...RUN_EXPORT_FORMATS, ...QUESTION_EXPORT_FORMATS])
export type ExportFormat = z.infer<typeof ExportFormat>

/** An absolute path to write, confined like the GraphML export's (data folder, or a folder picked natively). */
const ExportPath = OutputPath.refine(
  (p) => fileEnding.test(p) || !/\.[^\\/]*$/.test(p),
  `the file name must end in ${EXPORT_FILE_EXTENSIONS.map((e) => `.${e}`).join(', ')} (a folder format takes a folder name without an extension)`,
)

/**
 * Only the questions of this split label (a trainer's train or test file), or a run's episodes on them (SFT data from
 * train questions only); everything when absent.
 */
const ExportSplit = z.string().trim().min(1).max(200).optional()

export const ExportParams = z.discriminatedUnion('source', [
  z.object({ source: z.literal('run'), runId: z.number().int().min(1), format: RunExportFormat, path: ExportPath.optional(), split: ExportSplit }).strict(),
  z.object({ source: z.literal('questions'), questionSetId: z.number().int().min(1), format: QuestionExportFormat, path: ExportPath.optional(), split: ExportSplit }).strict(),
])
export type ExportParams = z.infer<typeof ExportParams>

export const ExportResult = z.object({ file: z.string(), format: z.string(), rows: z.number(), bytes: z.number(), ms: z.number() })
export type ExportResult = z.infer<typeof ExportResult>

export const ExportFormatInfo = z.object({
  name: ExportFormat,
  source: z.enum(['run', 'questions']),
  label: z.string(),
  description: z.string(),
  extension: z.string(),
  /** Written as a folder of files (e.g. FlashRAG's `<split>.jsonl` per split); `path` then names the folder. */
  folder: z.boolean().optional(),
})
export type ExportFormatInfo = z.infer<typeof ExportFormatInfo>

export const exportRoutes = {
  'exports.formats': route('Export formats of runs and question sets, by name, with what each writes', z.object({}).strict(), z.array(ExportFormatInfo)),
}
