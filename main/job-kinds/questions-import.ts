import { readFile } from 'node:fs/promises'
import { defineJobKind } from '../jobs/define-job-kind'
import { questionImportSteps, removeUpload, uploadPath, type ImportOutcome } from '../questions'

/** Rows between cancellation checks and progress reports: both are cheap, a row costs microseconds. */
const CHECK_EVERY = 256
const PROGRESS_MS = 100

function lineCount(text: string): number {
  let n = 1
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++
  return n
}

/**
 * Question import as a job: the staged file is read, parsed and its gold resolved in this worker
 * thread, on the job's own connection, so the thread that answers requests never parses a row. A
 * cancel stops it at its next row, or terminates the thread after the grace period; either way the
 * set is written in one transaction at the end, so a stopped import leaves the database as it was.
 */
export const questionsImportJob = defineJobKind({
  kind: 'questions.import',
  run: async (ctx, { params, db }) => {
    const file = uploadPath(ctx.dataDir, params.upload)
    try {
      const started = performance.now()
      const text = await readFile(file, 'utf8').catch((err: NodeJS.ErrnoException) => {
        throw new Error(err.code === 'ENOENT' ? 'The staged question file is gone (the import was cleaned up); import the file again' : `Cannot read the staged question file: ${err.message}`)
      })
      const lines = lineCount(text)
      ctx.progress(0, 'reading', `${lines.toLocaleString('en-US')} lines`)
      const steps = questionImportSteps(db.raw, { name: params.name, text, ...(params.format ? { format: params.format } : {}), ...(params.fileName ? { fileName: params.fileName } : {}) })
      let outcome: ImportOutcome | undefined
      let n = 0
      // Rows are resolved in batches after they are read, so the lines steps report move back a little at times.
      let furthest = 0
      let reported = performance.now()
      for (let s = steps.next(); ; s = steps.next()) {
        if (s.done) {
          outcome = s.value
          break
        }
        const step = s.value
        if (step.stage === 'writing') {
          ctx.throwIfCancelled()
          ctx.progress(0.99, 'writing', 'writing the set')
          continue
        }
        furthest = Math.max(furthest, step.line)
        if (++n % CHECK_EVERY !== 0) continue
        ctx.throwIfCancelled()
        if (performance.now() - reported >= PROGRESS_MS) {
          reported = performance.now()
          ctx.progress((0.98 * furthest) / lines, 'reading', `line ${furthest.toLocaleString('en-US')} of ${lines.toLocaleString('en-US')}`)
        }
      }
      const { setId, report } = outcome
      const seconds = (performance.now() - started) / 1000
      return {
        result: { setId, format: report.format, rows: report.rows, imported: report.imported, badRows: report.rows - report.imported, unresolved: report.unresolved.length, seconds },
        message: `Question set #${setId} "${params.name}": ${report.imported} of ${report.rows} rows imported (${report.format}); ${report.rows - report.imported} bad rows, ${report.unresolved.length} unresolved gold items`,
      }
    } finally {
      await removeUpload(ctx.dataDir, params.upload)
    }
  },
})
