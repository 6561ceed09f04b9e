import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs'

/**
 * A file written whole or not at all: text goes to `<file>.partial`, which is renamed over `file` only
 * when the export finished; a failed or cancelled export removes it, so no half file is ever left
 * where a finished one is expected.
 */
export class FileSink {
  private fd: number | null
  private pending: string[] = []
  private pendingChars = 0
  bytes = 0

  constructor(readonly file: string) {
    this.fd = openSync(`${file}.partial`, 'w')
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
