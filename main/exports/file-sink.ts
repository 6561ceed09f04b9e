import { closeSync, constants, fsyncSync, lstatSync, openSync, readdirSync, renameSync, rmSync, writeSync } from 'node:fs'
import { join } from 'node:path'

/**
 * A file written whole or not at all: text goes to `<file>.partial`, which is renamed over `file` only
 * when the export finished; a failed or cancelled export removes it, so no half file is ever left
 * where a finished one is expected. A `.partial` left by a killed process is replaced by the next
 * export of the same file (and swept at start-up: sweepPartials); a symlink or folder there is refused,
 * and the file is created exclusively without following links, so nothing is written through one.
 */
export class FileSink {
  private fd: number | null
  private pending: string[] = []
  private pendingChars = 0
  bytes = 0

  constructor(readonly file: string) {
    const partial = `${file}.partial`
    let stat
    try {
      stat = lstatSync(partial)
    } catch {
      stat = null
    }
    if (stat?.isSymbolicLink()) throw new Error(`Refused to write ${partial}: it is a symbolic link`)
    if (stat && !stat.isFile()) throw new Error(`Refused to write ${partial}: it exists and is not a file`)
    // A regular file there is what a killed export left behind.
    if (stat) rmSync(partial, { force: true })
    this.fd = openSync(partial, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0), 0o644)
  }

  write(text: string): void {
    this.pending.push(text)
    this.pendingChars += text.length
    if (this.pendingChars > 1 << 20) this.flush()
  }

  writeBytes(bytes: Uint8Array): void {
    this.flush()
    this.bytes += writeSync(this.fd!, bytes)
  }

  private flush(): void {
    if (this.pending.length === 0 || this.fd === null) return
    const buf = Buffer.from(this.pending.join(''), 'utf8')
    this.pending = []
    this.pendingChars = 0
    let off = 0
    while (off < buf.length) off += writeSync(this.fd, buf, off)
    this.bytes += buf.length
  }

  /** Flushes, syncs and moves the finished file into place. */
  commit(): void {
    this.flush()
    fsyncSync(this.fd!)
    closeSync(this.fd!)
    this.fd = null
    renameSync(`${this.file}.partial`, this.file)
  }

  /** Drops the partial file (after a failure or a cancel). */
  abort(): void {
    if (this.fd !== null) closeSync(this.fd)
    this.fd = null
    rmSync(`${this.file}.partial`, { force: true })
  }
}

/**
 * Removes the `.partial` files (regular files only) in `folder`: what exports killed mid-way left.
 * Only for a folder no live process is exporting into. The names removed.
 */
export function sweepPartials(folder: string): string[] {
  let names: string[]
  try {
    names = readdirSync(folder)
  } catch {
    return []
  }
  const removed: string[] = []
  for (const name of names) {
    if (!name.endsWith('.partial')) continue
    const path = join(folder, name)
    try {
      if (!lstatSync(path).isFile()) continue
      rmSync(path, { force: true })
      removed.push(name)
    } catch {
      // Gone meanwhile, or unreadable: nothing to clean.
    }
  }
  return removed
}
