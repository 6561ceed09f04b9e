import { crc32, inflateRawSync } from 'node:zlib'
import { IngestFileError } from '../types'
import { formatBytes } from '../../../common'

/**
 * A ZIP archive read with a budget, for containers such as DOCX: the central directory's declared
 * sizes are checked against the budget before anything is inflated, and every entry is inflated with
 * an output cap of its declared size, so a ZIP bomb (a few KB that inflate to gigabytes, or entries that
 * lie about their size) fails early with a clear reason instead of exhausting memory. What comes back is
 * the same archive with every entry stored uncompressed, which a reader (mammoth via JSZip) then opens
 * without inflating anything itself.
 */

export interface ZipBudget {
  /** Most bytes all entries together may inflate to. */
  maxDecompressedBytes: number
  /** Most entries (a DOCX has a few dozen). */
  maxEntries: number
}

export const DEFAULT_MAX_DECOMPRESSED_BYTES = 256 * 1024 * 1024
export const DEFAULT_MAX_ZIP_ENTRIES = 20_000

interface Entry {
  name: Uint8Array
  displayName: string
  flags: number
  method: number
  crc: number
  compressedSize: number
  size: number
  localOffset: number
}

const EOCD = 0x06054b50
const CENTRAL = 0x02014b50
const LOCAL = 0x04034b50

/** Where the end-of-central-directory record starts (it is followed by a comment of at most 64 KB), or -1. */
function findEndOfCentralDirectory(view: DataView): number {
  const last = view.byteLength - 22
  const first = Math.max(0, last - 0xffff)
  for (let i = last; i >= first; i--) if (view.getUint32(i, true) === EOCD) return i
  return -1
}

/**
 * The archive's entries from its central directory, after checking the counts and declared sizes
 * against the budget; throws IngestFileError ('corrupt' or 'too-large') naming the problem.
 */
function readEntries(bytes: Uint8Array, relPath: string, kind: string, budget: ZipBudget): Entry[] {
  const corrupt = (why: string) => new IngestFileError('corrupt', `${relPath}: corrupt ${kind}: ${why}`)
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const eocd = findEndOfCentralDirectory(view)
  if (eocd < 0) throw corrupt('no end of central directory (a truncated or damaged ZIP archive)')
  const count = view.getUint16(eocd + 10, true)
  const directorySize = view.getUint32(eocd + 12, true)
  const directoryOffset = view.getUint32(eocd + 16, true)
  if (count === 0xffff || directoryOffset === 0xffffffff || directorySize === 0xffffffff) {
    throw new IngestFileError('too-large', `${relPath}: a ZIP64 archive (over 65,535 entries or 4 GB), far beyond any ${kind} this ingest reads`)
  }
  if (count > budget.maxEntries) throw new IngestFileError('too-large', `${relPath}: the archive lists ${count.toLocaleString('en-US')} entries, over the limit of ${budget.maxEntries.toLocaleString('en-US')} for a ${kind}`)
  if (directoryOffset + directorySize > eocd) throw corrupt('the central directory lies outside the archive')
  const entries: Entry[] = []
  let declared = 0
  let at = directoryOffset
  const names = new TextDecoder('utf-8')
  for (let i = 0; i < count; i++) {
    if (at + 46 > eocd || view.getUint32(at, true) !== CENTRAL) throw corrupt(`central directory entry ${i + 1} is damaged`)
    const nameLength = view.getUint16(at + 28, true)
    const extraLength = view.getUint16(at + 30, true)
    const commentLength = view.getUint16(at + 32, true)
    const name = bytes.subarray(at + 46, at + 46 + nameLength)
    const entry: Entry = {
      name,
      displayName: names.decode(name),
      flags: view.getUint16(at + 8, true),
      method: view.getUint16(at + 10, true),
      crc: view.getUint32(at + 16, true),
      compressedSize: view.getUint32(at + 20, true),
      size: view.getUint32(at + 24, true),
      localOffset: view.getUint32(at + 42, true),
    }
    if (entry.size === 0xffffffff || entry.compressedSize === 0xffffffff || entry.localOffset === 0xffffffff) {
      throw new IngestFileError('too-large', `${relPath}: entry "${entry.displayName}" is a ZIP64 entry (4 GB or more), far beyond any ${kind} this ingest reads`)
    }
    if (entry.flags & 0x1) throw new IngestFileError('corrupt', `${relPath}: the ${kind} is encrypted (password-protected); save it without a password`)
    declared += entry.size
    if (declared > budget.maxDecompressedBytes) {
      throw new IngestFileError(
        'too-large',
        `${relPath}: the archive declares more than ${formatBytes(budget.maxDecompressedBytes)} of uncompressed content (${formatBytes(declared)} by entry "${entry.displayName}"), over the limit for a ${kind}: a ZIP bomb, or raise the limit`,
      )
    }
    entries.push(entry)
    at += 46 + nameLength + extraLength + commentLength
  }
  return entries
}

/** The entry's content, inflated with an output cap of its declared size and checked against its CRC. */
function inflateEntry(bytes: Uint8Array, view: DataView, entry: Entry, relPath: string, kind: string): Uint8Array {
  const corrupt = (why: string) => new IngestFileError('corrupt', `${relPath}: corrupt ${kind}: entry "${entry.displayName}" ${why}`)
  const at = entry.localOffset
  if (at + 30 > bytes.length || view.getUint32(at, true) !== LOCAL) throw corrupt('has no local header where the directory says')
  const start = at + 30 + view.getUint16(at + 26, true) + view.getUint16(at + 28, true)
  const end = start + entry.compressedSize
  if (end > bytes.length) throw corrupt('runs past the end of the archive')
  const raw = bytes.subarray(start, end)
  let content: Uint8Array
  if (entry.method === 0) {
    if (entry.compressedSize !== entry.size) throw corrupt('is stored with two different sizes')
    content = raw
  } else if (entry.method === 8) {
    try {
      // One byte more than declared: an entry that inflates past its declared size stops right there.
      content = inflateRawSync(raw, { maxOutputLength: entry.size + 1 })
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code
      if (code === 'ERR_BUFFER_TOO_LARGE') {
        throw new IngestFileError('too-large', `${relPath}: entry "${entry.displayName}" inflates past the ${formatBytes(entry.size)} it declares (a ZIP bomb?); inflating stopped there`)
      }
      throw corrupt(`does not inflate: ${error instanceof Error ? error.message : String(error)}`)
    }
    if (content.length > entry.size) {
      throw new IngestFileError('too-large', `${relPath}: entry "${entry.displayName}" inflates past the ${formatBytes(entry.size)} it declares (a ZIP bomb?); inflating stopped there`)
    }
    if (content.length !== entry.size) throw corrupt(`inflates to ${content.length} bytes, not the ${entry.size} it declares`)
  } else {
    throw corrupt(`uses compression method ${entry.method}, which ${kind} files do not use`)
  }
  if (crc32(content) >>> 0 !== entry.crc >>> 0) throw corrupt('fails its CRC check')
  return content
}

/** An archive of `entries` with every entry stored (method 0). */
function storedArchive(entries: readonly Entry[], contents: readonly Uint8Array[]): Uint8Array {
  let size = 22
  for (const [i, e] of entries.entries()) size += 30 + e.name.length + contents[i]!.length + 46 + e.name.length
  const out = new Uint8Array(size)
  const view = new DataView(out.buffer)
  let at = 0
  const offsets: number[] = []
  for (const [i, e] of entries.entries()) {
    const content = contents[i]!
    offsets.push(at)
    view.setUint32(at, LOCAL, true)
    view.setUint16(at + 4, 20, true)
    view.setUint16(at + 6, e.flags & 0x0800, true) // keep only the UTF-8 name flag
    view.setUint16(at + 8, 0, true)
    view.setUint32(at + 14, e.crc, true)
    view.setUint32(at + 18, content.length, true)
    view.setUint32(at + 22, content.length, true)
    view.setUint16(at + 26, e.name.length, true)
    out.set(e.name, at + 30)
    out.set(content, at + 30 + e.name.length)
    at += 30 + e.name.length + content.length
  }
  const directory = at
  for (const [i, e] of entries.entries()) {
    const content = contents[i]!
    view.setUint32(at, CENTRAL, true)
    view.setUint16(at + 4, 20, true)
    view.setUint16(at + 6, 20, true)
    view.setUint16(at + 8, e.flags & 0x0800, true)
    view.setUint16(at + 10, 0, true)
    view.setUint32(at + 16, e.crc, true)
    view.setUint32(at + 20, content.length, true)
    view.setUint32(at + 24, content.length, true)
    view.setUint16(at + 28, e.name.length, true)
    view.setUint32(at + 42, offsets[i]!, true)
    out.set(e.name, at + 46)
    at += 46 + e.name.length
  }
  view.setUint32(at, EOCD, true)
  view.setUint16(at + 8, entries.length, true)
  view.setUint16(at + 10, entries.length, true)
  view.setUint32(at + 12, at - directory, true)
  view.setUint32(at + 16, directory, true)
  return out
}

/**
 * Checks a ZIP archive against `budget` and returns it with every entry inflated and stored
 * uncompressed. Fails with IngestFileError: 'too-large' for an archive over budget (declared or
 * actual), 'corrupt' for a damaged one. `kind` names the format in messages ("DOCX").
 */
export function inflateWithinBudget(bytes: Uint8Array, relPath: string, kind: string, budget: ZipBudget): Uint8Array {
  const entries = readEntries(bytes, relPath, kind, budget)
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const contents = entries.map((entry) => inflateEntry(bytes, view, entry, relPath, kind))
  return storedArchive(entries, contents)
}
