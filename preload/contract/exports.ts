import { z } from 'zod'
import { route } from './define'

/**
 * Exports of runs and question sets as files, each format registered by name in main/exports. They run
 * as `data.export` jobs (main/job-kinds/export.ts); in browser mode the finished file is downloaded
 * from `/api/download/<job id>`.
 */
export const RUN_EXPORT_FORMATS = ['run-results-csv', 'run-results-jsonl', 'run-episodes-jsonl', 'run-sft-jsonl'] as const
export const QUESTION_EXPORT_FORMATS = ['questions-flashrag-jsonl', 'questions-verl-jsonl', 'questions-verl-parquet', 'questions-searchr1-parquet'] as const
export const RunExportFormat = z.enum(RUN_EXPORT_FORMATS)
export const QuestionExportFormat = z.enum(QUESTION_EXPORT_FORMATS)
export const ExportFormat = z.enum([...RUN_EXPORT_FORMATS, ...QUESTION_EXPORT_FORMATS])
export type ExportFormat = z.infer<typeof ExportFormat>

/** An absolute path to write, confined like the GraphML export's (data folder, or a folder picked natively). */
const ExportPath = z
  .string()
  .trim()
  .min(1)
  .max(4096)
  .refine((p) => /^(\/|[A-Za-z]:[\\/])/.test(p), 'give an absolute path')
  .refine((p) => !/[\u0000-\u001f]/.test(p), 'the path must not contain control characters')
  .refine((p) => /[^\\/]\.(csv|jsonl|json|parquet)$/.test(p) || !/\.[^\\/]*$/.test(p), 'the file name must end in .csv, .jsonl, .json or .parquet (a folder format takes a folder name without an extension)')

export const ExportParams = z.discriminatedUnion('source', [
  z.object({ source: z.literal('run'), runId: z.number().int().min(1), format: RunExportFormat, path: ExportPath.optional() }).strict(),
  z
    .object({
      source: z.literal('questions'),
      questionSetId: z.number().int().min(1),
      format: QuestionExportFormat,
      path: ExportPath.optional(),
      /** Only the questions of this split label (a trainer's train or test file); every question when absent. */
      split: z.string().trim().min(1).max(200).optional(),
    })
    .strict(),
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
