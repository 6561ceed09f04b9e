/**
 * File parsers: one file in, its documents out (plain files never carry questions; benchmark files
 * with gold answers go through ../importers instead).
 *
 *   parseFile(absPath, relPath, options) -> Promise<ParsedSource>
 *   detectFormat(path) -> SourceFormat | null       (by extension)
 *   SUPPORTED_EXTENSIONS                             ('.txt', '.md', ...)
 *
 * Every failure is an IngestFileError whose reason says what kind of problem it is and whose message,
 * which starts with relPath, says what to do; one bad file never stops a batch. The size limit is
 * checked before the file is read. Documents get externalId = relPath for single-document formats and
 * the record's id (else `${relPath}#${index}`) for JSON/JSONL.
 */
import { IngestFileError, type ParsedSource, type SourceDocument } from '../types'
import { parseDocx } from './docx'
import { detectFormat, SUPPORTED_EXTENSIONS, type SourceFormat } from './formats'
import { parseHtml } from './html'
import { parseMarkdown } from './markdown'
import { parsePdf } from './pdf'
import { recordDocuments, type JsonFieldNames } from './record-documents'
import { jsonlRecords, jsonRecords } from './records'
import { decodeText, readFileChecked } from './read'
import { parsePlainText } from './text'

export { detectFormat, SUPPORTED_EXTENSIONS, type SourceFormat }
export type { JsonFieldNames }

export interface ParseOptions {
  /** Files larger than this are refused before being read. */
  maxFileBytes: number
  /** Field names for JSON/JSONL records; defaults id, title, text. */
  json?: JsonFieldNames
}

async function parseFormat(format: SourceFormat, bytes: Uint8Array, relPath: string, options: ParseOptions): Promise<SourceDocument[]> {
  switch (format) {
    case 'txt':
      return [parsePlainText(decodeText(bytes, relPath), relPath)]
    case 'md':
      return [parseMarkdown(decodeText(bytes, relPath), relPath)]
    case 'html':
      return [await parseHtml(bytes, relPath)]
    case 'pdf':
      return [await parsePdf(bytes, relPath)]
    case 'docx':
      return [await parseDocx(bytes, relPath)]
    case 'json':
      return recordDocuments(jsonRecords(decodeText(bytes, relPath), relPath), relPath, options.json)
    case 'jsonl':
      return recordDocuments(jsonlRecords(decodeText(bytes, relPath), relPath), relPath, options.json)
  }
}

/** Parses one file; the format comes from relPath's extension (absPath's when relPath has none). */
export async function parseFile(absPath: string, relPath: string, options: ParseOptions): Promise<ParsedSource> {
  const format = detectFormat(relPath) ?? detectFormat(absPath)
  if (!format) {
    throw new IngestFileError('unsupported', `${relPath}: unsupported file type; supported extensions are ${SUPPORTED_EXTENSIONS.join(' ')}`)
  }
  const bytes = await readFileChecked(absPath, relPath, options.maxFileBytes)
  try {
    return { documents: await parseFormat(format, bytes, relPath, options), questions: [] }
  } catch (error) {
    if (error instanceof IngestFileError) throw error
    // A library failing in a way its parser did not anticipate still names the file.
    const reason = error instanceof Error ? error.message : String(error)
    throw new IngestFileError('corrupt', `${relPath}: cannot parse as ${format}: ${reason}`)
  }
}
