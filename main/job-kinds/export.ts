import { existsSync, mkdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { exportFileName, exportFormats, writeExport } from '../exports'
import { defineJobKind } from '../jobs/define-job-kind'
import { formatBytes } from '../../common'
import { checkOutputFile } from '../jobs/output-paths'

/**
 * A run or question set exported as a file, off the main thread, with progress and cancel (the file is
 * written through `<file>.partial` and only renamed into place when complete). Without a path it goes
 * to the workspace's exports folder; in browser mode it is downloaded from `/api/download/<job id>`.
 * A path the caller named was confined when the job was queued, as the GraphML export's is.
 */
export const dataExportJob = defineJobKind({
  kind: 'data.export',
  run: async (ctx, { params, db, workspaceDbFile }) => {
    let file: string
    if (params.path !== undefined) {
      file = params.path
      if (!existsSync(dirname(file))) throw new Error(`The folder ${dirname(file)} no longer exists: choose an existing folder`)
    } else {
      file = join(dirname(workspaceDbFile), 'exports', exportFileName(params))
      mkdirSync(dirname(file), { recursive: true })
    }
    // A folder format writes files inside `file`; writeExport refuses an existing non-folder there.
    if (!exportFormats[params.format].folder) checkOutputFile(file)
    const label = exportFormats[params.format].label
    const r = await writeExport(db.raw, params, file, {
      progress: (done, total) => ctx.progress(total > 0 ? Math.min(1, done / total) : 0, 'writing', `${done.toLocaleString()} / ${total.toLocaleString()}`),
      checkpoint: () => ctx.throwIfCancelled(),
    })
    return { result: r, message: `${label}: ${r.rows.toLocaleString()} rows, ${formatBytes(r.bytes)} → ${r.file}` }
  },
})
