import { closeSync, openSync, writeSync } from 'node:fs'

// XML 1.0 forbids most C0 controls, lone surrogates and U+FFFE/U+FFFF even when escaped.
const INVALID = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g
// A raw CR would be normalised away by every XML parser; as a reference it survives.
const SPECIAL = /[&<>"'\r]/g
const ENTITY: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;', '\r': '&#13;' }

/** Text safe inside an XML element or a quoted attribute; characters XML cannot carry are dropped. */
export function xmlEscape(text: string): string {
  return text.replace(INVALID, '').replace(SPECIAL, (c) => ENTITY[c]!)
}

/**
 * Appends text to a file through a bounded buffer with synchronous writes: the caller can iterate
 * a SQLite statement (also synchronous) and write as it goes, so memory stays flat however big
 * the graph is.
 */
export class BufferedFileWriter {
  private readonly fd: number
  private parts: string[] = []
  private pending = 0
  bytes = 0

  constructor(
    file: string,
    private readonly flushAt = 1 << 20,
  ) {
    this.fd = openSync(file, 'w')
  }

  write(text: string): void {
    this.parts.push(text)
    this.pending += text.length
    if (this.pending >= this.flushAt) this.flush()
  }

  flush(): void {
    if (this.parts.length === 0) return
    const buf = Buffer.from(this.parts.join(''), 'utf8')
    for (let off = 0; off < buf.length; ) off += writeSync(this.fd, buf, off)
    this.bytes += buf.length
    this.parts = []
    this.pending = 0
  }

  close(): void {
    try {
      this.flush()
    } finally {
      closeSync(this.fd)
    }
  }
}
