/**
 * Failures of the storage under the data folder (a full disk, a read-only folder, a failing disk), as
 * SQLite and Node report them, told apart from every other error so that a job, the job queue and the
 * command line can end cleanly with one line that says what to do, instead of a stack trace.
 */
import { accessSync, constants, existsSync, statfsSync } from 'node:fs'
import { dirname } from 'node:path'
import { formatBytes } from '../../common'

export type StorageFailureKind = 'full' | 'read-only' | 'io'

/** By error code: SQLite's (extended codes share the primary's prefix) and the operating system's. */
const BY_CODE: Array<[RegExp, StorageFailureKind]> = [
  [/^(SQLITE_FULL|ENOSPC|EDQUOT)$/, 'full'],
  [/^(SQLITE_READONLY(_.*)?|EROFS)$/, 'read-only'],
  [/^(SQLITE_IOERR(_.*)?|EIO)$/, 'io'],
]

/** By message, for failures that crossed a thread boundary as text (a job worker's error): SQLite's and Node's wording for those codes. */
const BY_TEXT: Array<[RegExp, StorageFailureKind]> = [
  [/database or disk is full|ENOSPC|no space left on device|EDQUOT|disk quota exceeded|is full \(/i, 'full'],
  [/attempt to write a readonly database|EROFS|read-only file system|is not writable/i, 'read-only'],
  [/disk I\/O error|EIO\b/i, 'io'],
]

/** The kind of storage failure `err` is (by its code, else its message), or null for any other error. */
export function storageFailureOf(err: unknown): StorageFailureKind | null {
  const code = (err as { code?: unknown } | null)?.code
  if (typeof code === 'string') for (const [re, kind] of BY_CODE) if (re.test(code)) return kind
  const message = err instanceof Error ? err.message : typeof err === 'string' ? err : null
  if (message !== null) for (const [re, kind] of BY_TEXT) if (re.test(message)) return kind
  return null
}

/** Bytes free for this process on the filesystem holding `path` (its nearest existing ancestor), or null when it cannot be asked. */
export function freeBytes(path: string): number | null {
  let at = path
  while (!existsSync(at) && dirname(at) !== at) at = dirname(at)
  try {
    const s = statfsSync(at)
    return Number(s.bavail) * Number(s.bsize)
  } catch {
    return null
  }
}

/** Why `folder` cannot be written ('read-only file system', 'permission denied'), or null when it can. */
export function notWritable(folder: string): string | null {
  let at = folder
  while (!existsSync(at) && dirname(at) !== at) at = dirname(at)
  try {
    accessSync(at, constants.W_OK)
    return null
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    return code === 'EROFS' ? 'read-only file system' : code === 'EACCES' || code === 'EPERM' ? 'permission denied' : (code ?? 'not writable')
  }
}

/**
 * What happened to the storage under `folder`, in one clause: "the disk holding /data is full (12.0 KiB
 * free)", "/data is not writable (read-only file system)", "the disk holding /data failed a write (1.2 GiB free)".
 */
export function storageClause(kind: StorageFailureKind, folder: string): string {
  const free = freeBytes(folder)
  const left = free === null ? 'free space unknown' : `${formatBytes(free)} free`
  if (kind === 'full') return `the disk holding ${folder} is full (${left})`
  if (kind === 'read-only') return `${folder} is not writable (${notWritable(folder) ?? 'the write was refused'})`
  return `the disk holding ${folder} failed a write (${left})`
}

/** What to do before running `command` again, by kind. */
export function storageRemedy(kind: StorageFailureKind, command: string): string {
  if (kind === 'full') return `free some space, then continue with: ${command}`
  if (kind === 'read-only') return `make it writable (or give another --data-dir), then run: ${command}`
  return `check the disk, then continue with: ${command}`
}
