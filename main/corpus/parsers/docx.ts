import { IngestFileError, type SourceDocument } from '../types'
import { requireText, titleFromPath } from './read'
import { tidyExtractedText } from './whitespace'
import { DEFAULT_MAX_DECOMPRESSED_BYTES, DEFAULT_MAX_ZIP_ENTRIES, inflateWithinBudget } from './zip-guard'

export interface DocxOptions {
  /** Most bytes the archive may inflate to (declared sizes are checked before inflating). */
  maxDecompressedBytes?: number
}

const ZIP_SIGNATURE = [0x50, 0x4b, 0x03, 0x04]

/**
 * Raw text of a Word (2007+) document via mammoth: one paragraph per line, formatting dropped. The
 * archive is inflated first within a budget (see zip-guard.ts), so a ZIP bomb fails early and mammoth
 * only ever sees stored, already-checked entries.
 */
export async function parseDocx(bytes: Uint8Array, relPath: string, options: DocxOptions = {}): Promise<SourceDocument> {
  if (!ZIP_SIGNATURE.every((byte, i) => bytes[i] === byte)) {
    const hint = bytes[0] === 0xd0 && bytes[1] === 0xcf ? ' It looks like an old .doc file: re-save it as .docx.' : ''
    throw new IngestFileError('corrupt', `${relPath}: not a DOCX file (a DOCX is a ZIP archive and this has no ZIP signature).${hint}`)
  }
  const stored = inflateWithinBudget(bytes, relPath, 'DOCX', {
    maxDecompressedBytes: options.maxDecompressedBytes ?? DEFAULT_MAX_DECOMPRESSED_BYTES,
    maxEntries: DEFAULT_MAX_ZIP_ENTRIES,
  })
  const mammoth = (await import('mammoth')).default
  let raw: string
  try {
    raw = (await mammoth.extractRawText({ buffer: Buffer.from(stored.buffer, stored.byteOffset, stored.byteLength) })).value
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    throw new IngestFileError('corrupt', `${relPath}: corrupt DOCX: ${reason}`)
  }
  const text = tidyExtractedText(raw)
  requireText(text, relPath, 'the document has no text paragraphs')
  return { externalId: relPath, title: titleFromPath(relPath), text, source: { path: relPath } }
}
