import { IngestFileError, type SourceDocument } from '../types'
import { requireText, titleFromPath } from './read'
import { tidyExtractedText } from './whitespace'

const ZIP_SIGNATURE = [0x50, 0x4b, 0x03, 0x04]

/** Raw text of a Word (2007+) document via mammoth: one paragraph per line, formatting dropped. */
export async function parseDocx(bytes: Uint8Array, relPath: string): Promise<SourceDocument> {
  if (!ZIP_SIGNATURE.every((byte, i) => bytes[i] === byte)) {
    const hint = bytes[0] === 0xd0 && bytes[1] === 0xcf ? ' It looks like an old .doc file: re-save it as .docx.' : ''
    throw new IngestFileError('corrupt', `${relPath}: not a DOCX file (a DOCX is a ZIP archive and this has no ZIP signature).${hint}`)
  }
  const mammoth = (await import('mammoth')).default
  let raw: string
  try {
    raw = (await mammoth.extractRawText({ buffer: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) })).value
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    throw new IngestFileError('corrupt', `${relPath}: corrupt DOCX: ${reason}`)
  }
  const text = tidyExtractedText(raw)
  requireText(text, relPath, 'the document has no text paragraphs')
  return { externalId: relPath, title: titleFromPath(relPath), text, source: { path: relPath } }
}
