import type { SourceDocument } from '../types'
import { IngestFileError } from '../types'
import { describeType, isPlainObject, recordLabel, type JsonRecord } from './records'
import { titleFromPath } from './read'

export interface JsonFieldNames {
  idField?: string
  titleField?: string
  textField?: string
}

/** Fields that mark a benchmark record, which the importers read with its gold answers. */
const BENCHMARK_FIELDS = ['supporting_facts', 'paragraphs', 'golden_answers', 'contents']

const isScalar = (value: unknown): value is string | number | boolean =>
  typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'

/**
 * One document per record: text from the text field (required, a non-empty string), id and title
 * from their fields when present. Other scalar fields (url, date, ...) are kept as metadata; nested
 * values are not, so an embedding array in each record does not bloat the store. A bad record fails
 * the file, naming the record and the field, unless `onBadRecord` is given: then it is handed there
 * and skipped (lenient JSONL).
 */
export function recordDocuments(
  records: JsonRecord[],
  relPath: string,
  fields: JsonFieldNames = {},
  /** When given, a bad record is handed here and skipped instead of failing the file. */
  onBadRecord?: (record: JsonRecord, error: IngestFileError) => void,
): SourceDocument[] {
  const idField = fields.idField ?? 'id'
  const titleField = fields.titleField ?? 'title'
  const textField = fields.textField ?? 'text'
  const fileTitle = titleFromPath(relPath)
  const firstUse = new Map<string, string>()

  const documents: SourceDocument[] = []
  for (const record of records) {
    try {
      documents.push(recordDocument(record))
    } catch (error) {
      if (!onBadRecord || !(error instanceof IngestFileError)) throw error
      onBadRecord(record, error)
    }
  }
  return documents

  function recordDocument(record: JsonRecord): SourceDocument {
    const where = `${relPath}, ${recordLabel(record)}`
    const value = record.value
    if (!isPlainObject(value)) throw new IngestFileError('json', `${where}: expected a record object, found ${describeType(value)}`)
    const text = value[textField]
    if (text === undefined) {
      const present = Object.keys(value).slice(0, 12).join(', ') || 'none'
      const hint = BENCHMARK_FIELDS.some((field) => field in value)
        ? '; it looks like a benchmark file (HotpotQA, 2WikiMultiHopQA, MuSiQue or FlashRAG): import it as a benchmark to keep its questions'
        : '; set the text field name if the text is under another key'
      throw new IngestFileError('json', `${where}: the record has no "${textField}" field (fields present: ${present})${hint}`)
    }
    if (typeof text !== 'string') throw new IngestFileError('json', `${where}: field "${textField}" must be a string, found ${describeType(text)}`)
    if (text.trim() === '') throw new IngestFileError('empty', `${where}: field "${textField}" is empty`)

    const id = value[idField]
    if (id !== undefined && id !== null && typeof id !== 'string' && typeof id !== 'number') {
      throw new IngestFileError('json', `${where}: field "${idField}" must be a string or a number, found ${describeType(id)}`)
    }
    const externalId = id === undefined || id === null || id === '' ? `${relPath}#${record.index}` : String(id)
    const earlier = firstUse.get(externalId)
    if (earlier) throw new IngestFileError('json', `${where}: id "${externalId}" is already used at ${earlier}; ids must be unique within a file`)
    firstUse.set(externalId, recordLabel(record))

    const title = value[titleField]
    if (title !== undefined && title !== null && typeof title !== 'string' && typeof title !== 'number') {
      throw new IngestFileError('json', `${where}: field "${titleField}" must be a string, found ${describeType(title)}`)
    }
    const metadata: Record<string, unknown> = {}
    for (const [key, field] of Object.entries(value)) {
      if (key !== idField && key !== titleField && key !== textField && isScalar(field)) metadata[key] = field
    }
    const document: SourceDocument = {
      externalId,
      title: title === undefined || title === null || String(title).trim() === '' ? `${fileTitle} #${record.index}` : String(title).trim(),
      text: text.trim(),
      source: { path: relPath, record: record.index, ...(record.offset !== undefined ? { offset: record.offset } : {}) },
    }
    if (Object.keys(metadata).length > 0) document.metadata = metadata
    return document
  }
}
