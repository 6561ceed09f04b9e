/**
 * A question file as rows, each with the line it starts on: JSONL (one object per line), JSON (an
 * array, or an object holding one under data / questions / items / examples), or CSV with a header.
 * A row that cannot be read is kept as an error with its line, never dropped.
 *
 * Every format is read in one pass, a row at a time (rowsOf is a generator): a JSON array's elements
 * are found by a scanner and parsed one by one, and lines are counted as the scan moves on, so 100k
 * rows cost what 1k rows cost a hundred times over, and an importer can pause between rows.
 */
import { csvRecords } from './csv'

export type RowFormat = 'jsonl' | 'json' | 'csv'

export type RawRow = { line: number; value: unknown } | { line: number; error: string }

export interface ReadRows {
  format: RowFormat
  rows: RawRow[]
  /** CSV: the header's columns. */
  columns?: string[]
}

const WRAPPERS = ['data', 'questions', 'items', 'examples', 'rows']

export function formatOf(fileName: string | undefined, text: string): RowFormat {
  const ext = (fileName ?? '').toLowerCase().match(/\.([a-z]+)$/)?.[1]
  if (ext === 'jsonl' || ext === 'ndjson') return 'jsonl'
  if (ext === 'json') return 'json'
  if (ext === 'csv' || ext === 'tsv') return 'csv'
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0
  while (i < text.length && isSpace(text.charCodeAt(i))) i++
  if (text[i] === '[') return 'json'
  if (text[i] === '{') {
    // One object over several lines is JSON; one per line is JSONL.
    const nl = text.indexOf('\n', i)
    const first = text.slice(i, nl === -1 ? text.length : nl).trim()
    try {
      JSON.parse(first)
      return 'jsonl'
    } catch {
      return 'json'
    }
  }
  return 'csv'
}

/** All rows at once (small inputs and tests); importers iterate rowsOf. */
export function readRows(text: string, format: RowFormat): ReadRows {
  const out: ReadRows = { format, rows: [] }
  for (const row of rowsOf(text, format, out)) out.rows.push(row)
  return out
}

/** The rows of `text` in order; for CSV the header's columns are set on `into` before the first row. */
export function* rowsOf(text: string, format: RowFormat, into: { columns?: string[] } = {}): Generator<RawRow> {
  const src = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text
  if (format === 'jsonl') yield* jsonlRows(src)
  else if (format === 'json') yield* jsonRows(src)
  else yield* csvRows(src, into)
}

function* jsonlRows(text: string): Generator<RawRow> {
  let lineNo = 0
  for (let from = 0; from <= text.length; ) {
    const nl = text.indexOf('\n', from)
    const end = nl === -1 ? text.length : nl
    lineNo++
    const line = text.slice(from, end).replace(/\r$/, '').trim()
    from = end + 1
    if (line === '') continue
    try {
      yield { line: lineNo, value: JSON.parse(line) }
    } catch (err) {
      yield { line: lineNo, error: `invalid JSON: ${errorText(err)}` }
    }
  }
}

const errorText = (err: unknown): string => (err instanceof Error ? err.message : String(err))

/** Counts lines up to increasing offsets: one pass over the text however many rows ask. */
class LineCounter {
  private at = 0
  private line = 1
  constructor(private readonly text: string) {}
  lineOf(offset: number): number {
    const stop = Math.min(offset, this.text.length)
    for (let i = this.text.indexOf('\n', this.at); i !== -1 && i < stop; i = this.text.indexOf('\n', i + 1)) this.line++
    this.at = Math.max(this.at, stop)
    return this.line
  }
}

const QUOTE = 34
const BACKSLASH = 92

/** The index of the quote closing the string that opens at `open`, or text.length when it never closes. */
function stringEnd(text: string, open: number): number {
  for (let j = open + 1; ; j++) {
    j = text.indexOf('"', j)
    if (j === -1) return text.length
    let slashes = 0
    for (let b = j - 1; text.charCodeAt(b) === BACKSLASH; b--) slashes++
    if (slashes % 2 === 0) return j
  }
}

const isSpace = (c: number): boolean => c === 32 || c === 10 || c === 13 || c === 9

/**
 * Where the rows' array opens: the top-level array, or the array under the first of WRAPPERS that holds
 * one in a top-level object (as JSON.parse would read it); -1 when there is none.
 */
function arrayOpen(text: string): { open: number; key: string | null } | null {
  let i = 0
  while (i < text.length && isSpace(text.charCodeAt(i))) i++
  if (text[i] === '[') return { open: i, key: null }
  if (text[i] !== '{') return null
  const found = new Map<string, number>()
  let depth = 0
  let key: string | null = null
  let expectKey = false
  let afterColon = false
  for (; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (isSpace(c)) continue
    if (c === QUOTE) {
      const end = stringEnd(text, i)
      if (depth === 1 && expectKey) key = text.slice(i + 1, end)
      expectKey = false
      afterColon = false
      i = end
      continue
    }
    if (depth === 1 && afterColon && c === 91 /* [ */ && key !== null && WRAPPERS.includes(key)) found.set(key, i)
    afterColon = false
    if (c === 123 /* { */ || c === 91 /* [ */) {
      depth++
      if (depth === 1) expectKey = true
    } else if (c === 125 /* } */ || c === 93 /* ] */) {
      depth--
      if (depth === 0) break
    } else if (depth === 1 && c === 44 /* , */) expectKey = true
    else if (depth === 1 && c === 58 /* : */) afterColon = true
  }
  for (const k of WRAPPERS) if (found.has(k)) return { open: found.get(k)!, key: k }
  return null
}

/** Spans [start, end) of the elements of the array opening at `open`, found in one pass. */
function* elementSpans(text: string, open: number): Generator<[number, number]> {
  let depth = 0
  let start = -1
  let last = -1
  for (let i = open + 1; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (isSpace(c)) continue
    if (depth === 0 && (c === 44 /* , */ || c === 93 /* ] */)) {
      if (start !== -1) yield [start, last + 1]
      start = -1
      if (c === 93) return
      continue
    }
    if (start === -1) start = i
    if (c === QUOTE) i = stringEnd(text, i)
    else if (c === 123 || c === 91) depth++
    else if (c === 125 || c === 93) depth--
    last = i
  }
  // No closing bracket: the last element still counts (its parse says what is wrong with it).
  if (start !== -1) yield [start, Math.min(last + 1, text.length)]
}

function* jsonRows(text: string): Generator<RawRow> {
  const at = arrayOpen(text)
  if (!at) {
    // Nothing to read row by row: the parser says what is wrong, or that no array was found.
    try {
      JSON.parse(text)
    } catch (err) {
      const message = errorText(err)
      const position = /position (\d+)/.exec(message)
      const line = /line (\d+)/.exec(message)
      yield { line: position ? new LineCounter(text).lineOf(Number(position[1])) : line ? Number(line[1]) : 1, error: `invalid JSON: ${message}` }
      return
    }
    yield { line: 1, error: `expected an array of questions, or an object with one under ${WRAPPERS.join(' / ')}` }
    return
  }
  const lines = new LineCounter(text)
  for (const [start, end] of elementSpans(text, at.open)) {
    const line = lines.lineOf(start)
    try {
      const value: unknown = JSON.parse(text.slice(start, end))
      yield { line, value }
    } catch (err) {
      yield { line, error: `invalid JSON: ${errorText(err)}` }
    }
  }
}

function* csvRows(text: string, into: { columns?: string[] }): Generator<RawRow> {
  let columns: string[] | null = null
  for (const r of csvRecords(text, detectDelimiter(text))) {
    if (columns === null) {
      columns = r.fields.map((c) => c.trim())
      into.columns = columns
      continue
    }
    if (r.errors.length > 0) {
      yield { line: r.line, error: `malformed CSV: ${r.errors[0]}` }
      continue
    }
    if (r.fields.length > columns.length) {
      yield { line: r.line, error: `malformed CSV: ${r.fields.length} fields, the header has ${columns.length}` }
      continue
    }
    const value: Record<string, string> = {}
    columns.forEach((c, i) => {
      if (c !== '' && r.fields[i] !== undefined) value[c] = r.fields[i]!
    })
    yield { line: r.line, value }
  }
  if (columns === null) into.columns = []
}

/** Tab when the header line has tabs and no commas (TSV), else comma. */
function detectDelimiter(text: string): string {
  const nl = text.indexOf('\n')
  const header = nl === -1 ? text : text.slice(0, nl)
  return header.includes('\t') && !header.includes(',') ? '\t' : ','
}
