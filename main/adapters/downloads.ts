import { lstatSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs'
import { basename, join } from 'node:path'
import JSZip from 'jszip'
import type { AppInfo, Job } from '../../preload/contract'
import { dispatch, type Handlers } from '../api/dispatch'
import type { EventBus } from '../events/bus'
import { isInside } from '../jobs/output-paths'
import { exportContentType } from '../exports'

/**
 * Files the browser-mode server hands to the user as downloads. In browser mode the backend may run
 * on another machine (a GPU box behind an ssh tunnel), so a file a job wrote on the server's disk
 * reaches the user only this way: `GET /api/download/<job id>?token=…` (or with the bearer header).
 */

export const DOWNLOAD_PATH = '/api/download/'

export interface Download {
  /** Absolute path on the server. */
  file: string
  /** File name offered to the browser. */
  name: string
  contentType: string
}

export interface DownloadSource {
  /** The download of a job id, or null when there is none (unknown job, not finished, not a file kind). */
  find(id: string): Promise<Download | null>
  /** Folders a downloaded file must lie in (the data folder). */
  roots(): Promise<string[]>
  start?(): void
  stop?(): void
}

/** Job ids are UUIDs; anything else is not looked up. */
export const isDownloadId = (id: string): boolean => /^[A-Za-z0-9-]{1,64}$/.test(id)

const GRAPHML = 'application/graphml+xml; charset=utf-8'
const MAX_REMEMBERED = 1000

/** The content type of a finished export job's file: GraphML, or the data export format's own. */
function contentTypeOf(job: Job): string | null {
  if (job.kind === 'graph.export') return GRAPHML
  if (job.kind === 'data.export') return exportContentType(job.result?.format)
  return null
}

/**
 * The finished `graph.export` and `data.export` jobs as downloads, keyed by job id: remembered from `job.status` events
 * while the server runs, else looked up through the `job.list` handler (the latest 500 jobs).
 */
export function exportDownloads(handlers: Handlers, events: EventBus): DownloadSource {
  const known = new Map<string, { file: string; contentType: string }>()
  let off: (() => void) | undefined
  const remember = (job: Job): void => {
    const contentType = contentTypeOf(job)
    if (!contentType || job.status !== 'done' || !job.result || !('file' in job.result)) return
    known.set(job.id, { file: job.result.file, contentType })
    if (known.size > MAX_REMEMBERED) known.delete(known.keys().next().value!)
  }
  return {
    start() {
      off ??= events.subscribe((name, payload) => {
        if (name === 'job.status') remember(payload as Job)
      })
    },
    stop() {
      off?.()
      off = undefined
    },
    async find(id) {
      if (!known.has(id)) {
        const env = await dispatch(handlers, 'job.list', { limit: 500 })
        if (env.ok) for (const job of env.data as Job[]) if (job.id === id) remember(job)
      }
      const found = known.get(id)
      return found ? { file: found.file, name: basename(found.file), contentType: found.contentType } : null
    },
    async roots() {
      const env = await dispatch(handlers, 'app.info', {})
      return env.ok ? [(env.data as AppInfo).dataDir] : []
    },
  }
}

/** Whether a real path lies inside one of `roots` (each resolved through its symlinks; a missing root holds nothing). */
function insideRoots(real: string, roots: readonly string[]): boolean {
  return roots.some((root) => {
    try {
      return isInside(real, realpathSync(root))
    } catch {
      return false
    }
  })
}

/** The file to stream when it is a regular file whose real path (symlinks followed) lies inside one of `roots`; null otherwise. */
export function downloadableFile(file: string, roots: readonly string[]): { path: string; size: number } | null {
  try {
    const real = realpathSync(file)
    if (!insideRoots(real, roots)) return null
    const stat = statSync(real)
    return stat.isFile() ? { path: real, size: stat.size } : null
  } catch {
    return null
  }
}

/** `attachment` with an ASCII fallback name and the exact name in RFC 5987 form. */
export function contentDisposition(name: string): string {
  const ascii = name.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 200) || 'download'
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`
}

/**
 * A folder export (FlashRAG's `<split>.jsonl` per split) as one ZIP to download: the regular files
 * directly in the folder (no symlinks, no subfolders), stored uncompressed. Null unless the folder's
 * real path lies inside one of `roots`.
 */
export async function zippedFolder(folder: string, roots: readonly string[]): Promise<{ name: string; bytes: Buffer } | null> {
  let real: string
  try {
    real = realpathSync(folder)
    if (!statSync(real).isDirectory()) return null
  } catch {
    return null
  }
  if (!insideRoots(real, roots)) return null
  const zip = new JSZip()
  for (const name of readdirSync(real).sort()) {
    const path = join(real, name)
    if (lstatSync(path).isFile()) zip.file(name, readFileSync(path))
  }
  return { name: `${basename(real)}.zip`, bytes: await zip.generateAsync({ type: 'nodebuffer', compression: 'STORE' }) }
}
