import { basename } from 'node:path'
import { IngestFileError } from '../types'
import { decodeText, readFileChecked } from '../parsers/read'
import { describeType, isPlainObject, recordLabel, type JsonRecord } from '../parsers/records'

/** Options shared by every importer. */
export interface ImportOptions {
  /** Refuse files larger than this before reading them; unlimited by default (benchmark dumps are big). */
  maxFileBytes?: number
}

/** A benchmark file's text, with the same size, binary and UTF-8 checks as any ingested file; messages name the file by its base name. */
export async function readBenchmarkFile(path: string, options: ImportOptions = {}): Promise<{ name: string; text: string }> {
  const name = basename(path)
  const bytes = await readFileChecked(path, name, options.maxFileBytes ?? Number.POSITIVE_INFINITY)
  return { name, text: decodeText(bytes, name) }
}

/** A record-level problem, located by `where` (file and record). */
export const malformed = (where: string, message: string): IngestFileError => new IngestFileError('json', `${where}: ${message}`)

/** A record that must be an object, with the label every later message about it uses ("dev.json, record 12"). */
export function recordObject(record: JsonRecord, fileName: string): { value: Record<string, unknown>; where: string } {
  const where = `${fileName}, ${recordLabel(record)}`
  if (!isPlainObject(record.value)) throw malformed(where, `expected a record object, found ${describeType(record.value)}`)
  return { value: record.value, where }
}

/** The first of `names` that the record has; missing fields are named in the error, all alternatives listed. */
export function requireField(value: Record<string, unknown>, names: readonly string[], where: string): { name: string; field: unknown } {
  for (const name of names) if (value[name] !== undefined && value[name] !== null) return { name, field: value[name] }
  const wanted = names.map((name) => `"${name}"`).join(' or ')
  throw malformed(where, `missing field ${wanted}`)
}

/** A required string (numbers are accepted and stringified, as ids and answers are sometimes numeric). */
export function stringField(value: Record<string, unknown>, names: readonly string[], where: string, options: { allowEmpty?: boolean } = {}): string {
  const { name, field } = requireField(value, names, where)
  if (typeof field !== 'string' && typeof field !== 'number') throw malformed(where, `field "${name}" must be a string, found ${describeType(field)}`)
  const text = String(field).trim()
  if (text === '' && !options.allowEmpty) throw malformed(where, `field "${name}" is empty`)
  return text
}

export function arrayField(value: Record<string, unknown>, names: readonly string[], where: string): unknown[] {
  const { name, field } = requireField(value, names, where)
  if (!Array.isArray(field)) throw malformed(where, `field "${name}" must be a list, found ${describeType(field)}`)
  return field
}

/** An optional list of strings (answer aliases); absent gives []. */
export function optionalStrings(value: Record<string, unknown>, name: string, where: string): string[] {
  const field = value[name]
  if (field === undefined || field === null) return []
  if (!Array.isArray(field) || field.some((item) => typeof item !== 'string' && typeof item !== 'number')) {
    throw malformed(where, `field "${name}" must be a list of strings`)
  }
  return field.map((item) => String(item).trim()).filter((item) => item !== '')
}

/** Answers with the canonical one first and duplicates removed, as GoldQuestion expects. */
export const uniqueAnswers = (answers: readonly string[]): string[] => [...new Set(answers.filter((answer) => answer !== ''))]
