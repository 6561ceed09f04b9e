import { mkdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { GraphExportParams } from '../../preload/contract'
import { workspaceMigrations } from '../db/migrations'
import { openDatabase } from '../db/open'
import { exportGraphML } from '../graph/store'
import type { JobContext, JobOutcome } from '../jobs/protocol'

/** GraphML export off the main thread: streamed, with progress, cancellable (a partial file never remains). */
export async function runGraphExportJob(ctx: JobContext<unknown>): Promise<JobOutcome> {
  const params = GraphExportParams.parse(ctx.params ?? {})
  if (!ctx.workspaceDbFile) throw new Error('graph.export needs a workspace')
  const stamp = new Date().toISOString().replace(/[:.]/g, '-')
  const file = params.path ?? join(dirname(ctx.workspaceDbFile), 'exports', `graph-${params.center ? `${params.center.replace(':', '')}-` : ''}${stamp}.graphml`)
  mkdirSync(dirname(file), { recursive: true })
  const opened = await openDatabase(ctx.workspaceDbFile, workspaceMigrations)
  try {
    const r = exportGraphML(opened.raw, file, {
      ...(params.center ? { center: params.center, depth: 2 as const } : {}),
      onProgress: (done, total, stage) => ctx.progress(total > 0 ? done / total : 0, stage, `${done.toLocaleString()} / ${total.toLocaleString()}`),
      checkpoint: () => ctx.throwIfCancelled(),
    })
    const mib = (r.bytes / 2 ** 20).toFixed(1)
    return { result: r, message: `${r.nodes.toLocaleString()} nodes, ${r.edges.toLocaleString()} edges, ${mib} MiB → ${r.file}` }
  } finally {
    await opened.close()
  }
}
