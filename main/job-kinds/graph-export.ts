import { existsSync, mkdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { exportGraphML } from '../graph/store'
import { defineJobKind } from '../jobs/define-job-kind'
import { checkOutputFile } from '../jobs/output-paths'

/**
 * GraphML export off the main thread: streamed, with progress, cancellable (a partial file never remains).
 * Without a path the file goes to the workspace's exports folder (created on first use); in browser
 * mode the finished file is then downloaded through the server's download route, by job id. A path
 * the caller named was confined when the job was queued (data folder, or a folder picked natively)
 * and stored resolved: its folder must exist here too, and nothing is written through a symlink.
 */
export const graphExportJob = defineJobKind({
  kind: 'graph.export',
  run: async (ctx, { params, db, workspaceDbFile }) => {
    const stamp = new Date().toISOString().replace(/[:.]/g, '-')
    let file: string
    if (params.path !== undefined) {
      file = params.path
      if (!existsSync(dirname(file))) throw new Error(`The folder ${dirname(file)} no longer exists: choose an existing folder`)
    } else {
      file = join(dirname(workspaceDbFile), 'exports', `graph-${params.center ? `${params.center.replace(':', '')}-` : ''}${stamp}.graphml`)
      mkdirSync(dirname(file), { recursive: true })
    }
    checkOutputFile(file)
    const r = exportGraphML(db.raw, file, {
      ...(params.center ? { center: params.center, depth: 2 as const } : {}),
      onProgress: (done, total, stage) => ctx.progress(total > 0 ? done / total : 0, stage, `${done.toLocaleString()} / ${total.toLocaleString()}`),
      checkpoint: () => ctx.throwIfCancelled(),
    })
    const mib = (r.bytes / 2 ** 20).toFixed(1)
    return { result: r, message: `${r.nodes.toLocaleString()} nodes, ${r.edges.toLocaleString()} edges, ${mib} MiB → ${r.file}` }
  },
})
