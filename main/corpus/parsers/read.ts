import { readFile, stat } from 'node:fs/promises'
import { basename, extname } from 'node:path'
import { formatBytes } from '../../../common'
import { IngestFileError } from '../types'


const fsReason = (error: unknown): string => {
  const code = (error as NodeJS.ErrnoException | undefined)?.code
  if (code === 'ENOENT') return 'the file does not exist (moved or deleted?)'
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied'
  if (code === 'EISDIR') return 'it is a folder, not a file'
  return error instanceof Error ? error.message : String(error)
}

/**
 * Reads a whole file after checking its size, so an oversized file is refused without being loaded.
 * The size is checked again after reading in case the file grew in between.
 */
export async function readFileChecked(absPath: string, relPath: string, maxFileBytes: number): Promise<Uint8Array> {
  let size: number
  try {
    const info = await stat(absPath)
    if (!info.isFile()) throw new IngestFileError('unreadable', `${relPath}: not a regular file`)
    size = info.size
  } catch (error) {
    if (error instanceof IngestFileError) throw error
    throw new IngestFileError('unreadable', `${relPath}: cannot read: ${fsReason(error)}`)
  }
  const tooLarge = (bytes: number) =>
    new IngestFileError(
      'too-large',
      `${relPath}: ${formatBytes(bytes)} is over the ${formatBytes(maxFileBytes)} limit per file; raise the limit or split the file`,
    )
  if (size > maxFileBytes) throw tooLarge(size)
  if (size === 0) throw new IngestFileError('empty', `${relPath}: the file is empty (0 bytes)`)
  let bytes: Uint8Array
  try {
    bytes = await readFile(absPath)
  } catch (error) {
    throw new IngestFileError('unreadable', `${relPath}: cannot read: ${fsReason(error)}`)
  }
  if (bytes.length > maxFileBytes) throw tooLarge(bytes.length)
  return bytes
}

/** Control bytes that never occur in text; tab, line feed, form feed, carriage return and escape do. */
const isControlByte = (byte: number): boolean =>
  (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0c && byte !== 0x0d && byte !== 0x1b) || byte === 0x7f

const CONTROL_SAMPLE_BYTES = 64 * 1024
const MAX_CONTROL_SHARE = 0.1

/** Why the bytes do not look like text, or null when they might be. Checked before decoding, because binary data also fails UTF-8 and "binary" is the more useful diagnosis. */
export function binaryReason(bytes: Uint8Array): string | null {
  const nul = bytes.indexOf(0)
  if (nul >= 0) return `it contains NUL bytes (first at byte ${nul}): a binary file, or UTF-16 text without a byte-order mark`
  const sample = Math.min(bytes.length, CONTROL_SAMPLE_BYTES)
  let control = 0
  for (let i = 0; i < sample; i++) if (isControlByte(bytes[i]!)) control++
  if (control / sample > MAX_CONTROL_SHARE) {
    return `${Math.round((100 * control) / sample)}% of its first ${formatBytes(sample)} are control bytes: it looks like a binary file`
  }
  return null
}

const utf8 = new TextDecoder('utf-8', { fatal: true })
const REPLACEMENT = '\uFFFD'

/**
 * Byte offset and line of the first invalid UTF-8 sequence. The lenient decoder replaces each invalid
 * sequence with U+FFFD and decodes everything before it identically, so the byte length of the prefix is
 * the offset; a U+FFFD that the file really contains (bytes EF BF BD) is skipped.
 */
function firstInvalidUtf8(bytes: Uint8Array): { offset: number; line: number } {
  const lenient = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes)
  let from = 0
  for (;;) {
    const index = lenient.indexOf(REPLACEMENT, from)
    if (index < 0) return { offset: bytes.length, line: lenient.split('\n').length }
    const prefix = lenient.slice(0, index)
    const offset = Buffer.byteLength(prefix, 'utf8')
    if (!(bytes[offset] === 0xef && bytes[offset + 1] === 0xbf && bytes[offset + 2] === 0xbd)) {
      return { offset, line: prefix.split('\n').length }
    }
    from = index + 1
  }
}

/**
 * Decodes a text file strictly: UTF-8 (a leading BOM is dropped), or UTF-16 when a byte-order mark says
 * so. Binary content and invalid UTF-8 are refused with the position of the problem, never guessed at.
 */
export function decodeText(bytes: Uint8Array, relPath: string): string {
  if (bytes.length >= 2 && ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff))) {
    const label = bytes[0] === 0xff ? 'utf-16le' : 'utf-16be'
    try {
      return new TextDecoder(label, { fatal: true }).decode(bytes)
    } catch {
      throw new IngestFileError('encoding', `${relPath}: it starts with a ${label.toUpperCase()} byte-order mark but is not valid ${label.toUpperCase()}`)
    }
  }
  const binary = binaryReason(bytes)
  if (binary) throw new IngestFileError('binary', `${relPath}: ${binary}`)
  try {
    return utf8.decode(bytes)
  } catch {
    const { offset, line } = firstInvalidUtf8(bytes)
    const byte = bytes[offset]?.toString(16).toUpperCase().padStart(2, '0') ?? '??'
    throw new IngestFileError(
      'encoding',
      `${relPath}: not valid UTF-8 (byte 0x${byte} at offset ${offset}, line ${line}); re-save the file as UTF-8 (Latin-1 and Windows-1252 are not guessed)`,
    )
  }
}

/** A title from the file name when the content has none: extension dropped, underscores read as spaces. */
export const titleFromPath = (path: string): string => {
  const stem = basename(path, extname(path))
  return stem.replace(/_+/g, ' ').trim() || stem
}

/** Refuses a document whose extracted text is blank, saying why in terms of the format. */
export function requireText(text: string, relPath: string, why: string): void {
  if (text.trim() === '') throw new IngestFileError('empty', `${relPath}: no text: ${why}`)
}
