/**
 * The one shape of a path a job writes to (an export, the GraphML export): absolute, without control
 * characters. Each route adds the file names it accepts; where the path may lie (the data folder, a
 * folder picked natively) is checked when the job is queued (main/jobs/output-paths.ts).
 */
import { z } from 'zod'

export const OutputPath = z
  .string()
  .trim()
  .min(1)
  .max(4096)
  .refine((p) => /^(\/|[A-Za-z]:[\\/])/.test(p), 'give an absolute path')
  .refine((p) => !/[\u0000-\u001f]/.test(p), 'the path must not contain control characters')
