/**
 * Codecs for JSON stored as text: a column of a table, or a small JSON file. Reading parses the text
 * and checks it with the column's zod schema, so bad stored JSON fails where it is read, with an error
 * naming the column, rather than as a TypeError deep in the code that trusted a cast.
 */
import { z } from 'zod'

/** Stored JSON that does not parse, or does not have its column's shape. */
export class JsonColumnError extends Error {
  constructor(
    /** "table.column", or the file the JSON came from. */
    readonly column: string,
    detail: string,
  ) {
    super(`Stored JSON in ${column} is not valid: ${detail}`)
    this.name = 'JsonColumnError'
  }
}

export interface JsonColumn<T> {
  readonly column: string
  /** The stored text as a value; a JsonColumnError naming the column when it is not JSON or has another shape. */
  read(text: string): T
  /** `read`, with SQL NULL as null. */
  readNullable(text: string | null | undefined): T | null
  write(value: T): string
}

const clip = (text: string): string => (text.length > 80 ? `${text.slice(0, 77)}...` : text)

/** The codec of a JSON column: `column` names it in errors ("runs.config_json"), `schema` is its shape. */
export function jsonColumn<S extends z.ZodType>(column: string, schema: S): JsonColumn<z.output<S>> {
  const read = (text: string): z.output<S> => {
    let value: unknown
    try {
      value = JSON.parse(text)
    } catch (err) {
      throw new JsonColumnError(column, `${err instanceof Error ? err.message : String(err)} (text: ${JSON.stringify(clip(String(text)))})`)
    }
    const parsed = schema.safeParse(value)
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!
      const at = issue.path.length ? ` at ${issue.path.join('.')}` : ''
      throw new JsonColumnError(column, `${issue.message}${at}`)
    }
    return parsed.data
  }
  return {
    column,
    read,
    readNullable: (text) => (text === null || text === undefined ? null : read(text)),
    write: (value) => JSON.stringify(value),
  }
}

/** Shapes several columns share. */
export const StringList = z.array(z.string())
/** Per-metric values: null where a metric does not apply. */
export const MetricValues = z.record(z.string(), z.number().nullable())
export const JsonObject = z.record(z.string(), z.unknown())
