import { mkdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { exportGraphML } from '../graph/store'
import { defineJobKind } from '../jobs/define-job-kind'

/** GraphML export off the main thread: streamed, with progress, cancellable (a partial file never remains). */
export const graphExportJob = defineJobKind({
  kind: 'graph.export',
  run: async (ctx, { params, db, workspaceDbFile }) => {
    const stamp = new Date().toISOString().replace(/[:.]/g, '-')
    const file = params.path ?? join(dirname(workspaceDbFile), 'exports', `graph-${params.center ? `${params.center.replace(':', '')}-` : ''}${stamp}.graphml`)
    mkdirSync(dirname(file), { recursive: true })
    const r = exportGraphML(db.raw, file, {
      ...(params.center ? { center: params.center, depth: 2 as const } : {}),
      onProgress: (done, total, stage) => ctx.progress(total > 0 ? done / total : 0, stage, `${done.toLocaleString()} / ${total.toLocaleString()}`),
      checkpoint: () => ctx.throwIfCancelled(),
    })
    const mib = (r.bytes / 2 ** 20).toFixed(1)
    return { result: r, message: `${r.nodes.toLocaleString()} nodes, ${r.edges.toLocaleString()} edges, ${mib} MiB → ${r.file}` }
  },
})
