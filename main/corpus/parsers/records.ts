import { IngestFileError } from '../types'
import { parseJsonOrExplain } from './json-syntax'

/** One parsed record and where it sits in its file, so every message can point at it. */
export interface JsonRecord {
  value: unknown
  /** 0-based position among the file's records. */
  index: number
  /** 1-based line, for JSONL. */
  line?: number
  /** Character offset of the record's line, for JSONL. */
  offset?: number
}

/** How a person finds the record: "line 12" in JSONL, "record 3" (0-based array index) in JSON. */
export const recordLabel = (record: Pick<JsonRecord, 'index' | 'line'>): string =>
  record.line !== undefined ? `line ${record.line}` : `record ${record.index}`

export const describeType = (value: unknown): string => (value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value)

export const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** Records of a JSON file: the elements of a top-level array, or the top-level object as the only record. */
export function jsonRecords(text: string, relPath: string): JsonRecord[] {
  const parsed = parseJsonOrExplain(text, relPath)
  if (Array.isArray(parsed)) {
    if (parsed.length === 0) throw new IngestFileError('empty', `${relPath}: the JSON array has no records`)
    return parsed.map((value, index) => ({ value, index }))
  }
  if (isPlainObject(parsed)) return [{ value: parsed, index: 0 }]
  throw new IngestFileError('json', `${relPath}: expected an array of records or one record object, found ${describeType(parsed)}`)
}

/** Records of a JSONL file, one JSON value per non-blank line; a bad line fails the file, reported with its line number. */
export function jsonlRecords(text: string, relPath: string): JsonRecord[] {
  return readJsonl(text, relPath, null).records
}

/** A JSONL line that was skipped, and why (the message starts with the file and names the line). */
export interface BadLine {
  line: number
  error: IngestFileError
}

/**
 * Records of a JSONL file, skipping malformed lines: each one is returned in `bad` with its line
 * number, and the good records keep their line, offset and an index that counts good records only.
 * A file with no good record still fails, with its first bad line's error.
 */
export function jsonlRecordsLenient(text: string, relPath: string): { records: JsonRecord[]; bad: BadLine[] } {
  const bad: BadLine[] = []
  const out = readJsonl(text, relPath, bad)
  if (out.records.length === 0 && bad.length > 0) throw bad[0]!.error
  return out
}

function readJsonl(text: string, relPath: string, bad: BadLine[] | null): { records: JsonRecord[]; bad: BadLine[] } {
  const records: JsonRecord[] = []
  let offset = 0
  let line = 0
  while (offset <= text.length) {
    line++
    const end = text.indexOf('\n', offset)
    const stop = end < 0 ? text.length : end
    const content = text.slice(offset, stop).replace(/\r$/, '')
    if (content.trim() !== '') {
      try {
        records.push({ value: parseJsonOrExplain(content, relPath, line), index: records.length, line, offset })
      } catch (error) {
        if (!bad || !(error instanceof IngestFileError)) throw error
        bad.push({ line, error })
      }
    }
    if (end < 0) break
    offset = end + 1
  }
  if (records.length === 0 && (bad?.length ?? 0) === 0) throw new IngestFileError('empty', `${relPath}: no records (only blank lines)`)
  return { records, bad: bad ?? [] }
}

/**
 * Records of a file that may be either a JSON array or JSONL (benchmark dumps come both ways): a file
 * whose first character is "[" is an array; anything else is read line by line, unless it is one
 * pretty-printed object, which is a single record.
 */
export function jsonOrJsonlRecords(text: string, relPath: string): JsonRecord[] {
  const first = text.trimStart()[0]
  if (first === '[') return jsonRecords(text, relPath)
  try {
    return jsonlRecords(text, relPath)
  } catch (lineError) {
    if (first !== '{') throw lineError
    try {
      return jsonRecords(text, relPath)
    } catch {
      throw lineError
    }
  }
}
