/**
 * File parsers: one file in, its documents out (plain files never carry questions; benchmark files
 * with gold answers go through ../importers instead).
 *
 *   parseFile(absPath, relPath, options) -> Promise<ParsedFile>   (documents, questions: [], notes)
 *   detectFormat(path) -> SourceFormat | null       (by extension)
 *   SUPPORTED_EXTENSIONS                             ('.txt', '.md', ...)
 *
 * Every failure is an IngestFileError whose reason says what kind of problem it is and whose message,
 * which starts with relPath, says what to do; one bad file never stops a batch. The size limit is
 * checked before the file is read. Documents get externalId = relPath for single-document formats and
 * the record's id (else `${relPath}#${index}`) for JSON/JSONL.
 *
 * Hostile input: HTML nesting depth is measured before any DOM is built (too deep: refused; deep:
 * read by the plain extractor instead of Readability, said in a note); a DOCX is inflated within a
 * budget before mammoth sees it (a ZIP bomb fails early); a malformed JSONL line is skipped and
 * noted with its line number unless `strictJsonl` is set. Notes say what a parser did differently,
 * for the file's record.
 */
import { IngestFileError, type ParsedSource, type SourceDocument } from '../types'
import { parseDocx } from './docx'
import { detectFormat, SUPPORTED_EXTENSIONS, type SourceFormat } from './formats'
import { parseHtmlWithNote, type HtmlOptions } from './html'
import { parseMarkdown } from './markdown'
import { parsePdf } from './pdf'
import { recordDocuments, type JsonFieldNames } from './record-documents'
import { jsonlRecords, jsonlRecordsLenient, jsonRecords } from './records'
import { decodeText, readFileChecked } from './read'
import { parsePlainText } from './text'

export { detectFormat, SUPPORTED_EXTENSIONS, type SourceFormat }
export type { HtmlOptions, JsonFieldNames }
export { DEFAULT_HTML_MAX_DEPTH, DEFAULT_HTML_READABILITY_MAX_DEPTH } from './html'
export { DEFAULT_MAX_DECOMPRESSED_BYTES } from './zip-guard'

export interface ParseOptions {
  /** Files larger than this are refused before being read. */
  maxFileBytes: number
  /** Field names for JSON/JSONL records; defaults id, title, text. */
  json?: JsonFieldNames
  /** JSONL: a malformed or invalid line fails the whole file (the old behaviour). Default: the line is skipped and noted. */
  strictJsonl?: boolean
  /** DOCX: most bytes the archive may inflate to. */
  maxDecompressedBytes?: number
  /** HTML: nesting limits and the plain-extractor switch. */
  html?: HtmlOptions
}

/** A parsed file, with notes on what the parser did that a person should know (skipped lines, fallbacks). */
export interface ParsedFile extends ParsedSource {
  notes: string[]
}

/** Bad JSONL lines listed one by one in the notes, at most this many (then a count). */
const MAX_LISTED_BAD_LINES = 50

/**
 * A bad line's error as a note: "line 3, column 25: malformed JSON: ..." or "line 4: the record has no
 * ... field", from a message that starts with "relPath: " or "relPath, line 4: ".
 */
const badLineNote = (relPath: string, line: number, message: string): string => {
  const own = message.startsWith(`${relPath}, `) || message.startsWith(`${relPath}: `) ? message.slice(relPath.length + 2) : message
  const syntax = /^malformed JSON at (line \d+(?:, column \d+)?): (.*)$/s.exec(own)
  if (syntax) return `${syntax[1]}: malformed JSON: ${syntax[2]}`
  return own.startsWith(`line ${line}`) ? own : `line ${line}: ${own}`
}

function lenientJsonl(text: string, relPath: string, options: ParseOptions, notes: string[]): SourceDocument[] {
  const { records, bad } = jsonlRecordsLenient(text, relPath)
  const skipped = bad.map((b) => ({ line: b.line, error: b.error }))
  const documents = recordDocuments(records, relPath, options.json, (record, error) => skipped.push({ line: record.line ?? 0, error }))
  if (documents.length === 0) {
    skipped.sort((a, b) => a.line - b.line)
    throw skipped[0]!.error
  }
  if (skipped.length > 0) {
    skipped.sort((a, b) => a.line - b.line)
    const listed = skipped.slice(0, MAX_LISTED_BAD_LINES).map((b) => badLineNote(relPath, b.line, b.error.message))
    const more = skipped.length > MAX_LISTED_BAD_LINES ? `; and ${skipped.length - MAX_LISTED_BAD_LINES} more` : ''
    notes.push(`${skipped.length} bad line${skipped.length === 1 ? '' : 's'} skipped, ${documents.length} record${documents.length === 1 ? '' : 's'} kept: ${listed.join('; ')}${more}`)
  }
  return documents
}

async function parseFormat(format: SourceFormat, bytes: Uint8Array, relPath: string, options: ParseOptions, notes: string[]): Promise<SourceDocument[]> {
  switch (format) {
    case 'txt':
      return [parsePlainText(decodeText(bytes, relPath), relPath)]
    case 'md':
      return [parseMarkdown(decodeText(bytes, relPath), relPath)]
    case 'html': {
      const { document, note } = await parseHtmlWithNote(bytes, relPath, options.html)
      if (note) notes.push(note)
      return [document]
    }
    case 'pdf':
      return [await parsePdf(bytes, relPath)]
    case 'docx':
      return [await parseDocx(bytes, relPath, options.maxDecompressedBytes !== undefined ? { maxDecompressedBytes: options.maxDecompressedBytes } : {})]
    case 'json':
      return recordDocuments(jsonRecords(decodeText(bytes, relPath), relPath), relPath, options.json)
    case 'jsonl': {
      const text = decodeText(bytes, relPath)
      if (options.strictJsonl) return recordDocuments(jsonlRecords(text, relPath), relPath, options.json)
      return lenientJsonl(text, relPath, options, notes)
    }
  }
}

/** Parses one file; the format comes from relPath's extension (absPath's when relPath has none). */
export async function parseFile(absPath: string, relPath: string, options: ParseOptions): Promise<ParsedFile> {
  const format = detectFormat(relPath) ?? detectFormat(absPath)
  if (!format) {
    throw new IngestFileError('unsupported', `${relPath}: unsupported file type; supported extensions are ${SUPPORTED_EXTENSIONS.join(' ')}`)
  }
  const bytes = await readFileChecked(absPath, relPath, options.maxFileBytes)
  const notes: string[] = []
  try {
    return { documents: await parseFormat(format, bytes, relPath, options, notes), questions: [], notes }
  } catch (error) {
    if (error instanceof IngestFileError) throw error
    // A library failing in a way its parser did not anticipate still names the file.
    const reason = error instanceof Error ? error.message : String(error)
    throw new IngestFileError('corrupt', `${relPath}: cannot parse as ${format}: ${reason}`)
  }
}
