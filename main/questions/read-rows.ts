/**
 * A question file as rows, each with the line it starts on: JSONL (one object per line), JSON (an
 * array, or an object holding one under data / questions / items / examples), or CSV with a header.
 * A row that cannot be read is kept as an error with its line, never dropped.
 */
import { parseCsv } from './csv'

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
  const start = text.replace(/^\uFEFF/, '').trimStart()
  if (start.startsWith('[')) return 'json'
  if (start.startsWith('{')) {
    // One object over several lines is JSON; one per line is JSONL.
    const first = start.split('\n', 1)[0]!.trim()
    try {
      JSON.parse(first)
      return 'jsonl'
    } catch {
      return 'json'
    }
  }
  return 'csv'
}

export function readRows(text: string, format: RowFormat): ReadRows {
  const src = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text
  if (format === 'jsonl') return { format, rows: jsonlRows(src) }
  if (format === 'json') return { format, rows: jsonRows(src) }
  return csvRows(src)
}

function jsonlRows(text: string): RawRow[] {
  const rows: RawRow[] = []
  text.split('\n').forEach((raw, i) => {
    const line = raw.replace(/\r$/, '').trim()
    if (line === '') return
    try {
      rows.push({ line: i + 1, value: JSON.parse(line) })
    } catch (err) {
      rows.push({ line: i + 1, error: `invalid JSON: ${err instanceof Error ? err.message : String(err)}` })
    }
  })
  return rows
}

const lineAt = (text: string, offset: number): number => {
  let n = 1
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) n++
  return n
}

function jsonRows(text: string): RawRow[] {
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err)
    // Keep the good elements: read each element of the array on its own, so one bad element is one bad row.
    const salvaged = salvage(text)
    if (salvaged) return salvaged
    const at = /position (\d+)/.exec(message)
    const line = /line (\d+)/.exec(message)
    return [{ line: at ? lineAt(text, Number(at[1])) : line ? Number(line[1]) : 1, error: `invalid JSON: ${message}` }]
  }
  let items: unknown[] | undefined
  let key: string | null = null
  if (Array.isArray(parsed)) items = parsed
  else if (parsed !== null && typeof parsed === 'object') {
    for (const k of WRAPPERS) {
      const v = (parsed as Record<string, unknown>)[k]
      if (Array.isArray(v)) {
        items = v
        key = k
        break
      }
    }
  }
  if (!items) return [{ line: 1, error: `expected an array of questions, or an object with one under ${WRAPPERS.join(' / ')}` }]
  const starts = elementStarts(text, key)
  return items.map((value, i) => ({ line: starts[i] !== undefined ? lineAt(text, starts[i]!) : 1, value }))
}

/** The elements of a top-level array (or of one under a wrapper key) parsed one by one, or null when no array is found. */
function salvage(text: string): RawRow[] | null {
  for (const key of [null, ...WRAPPERS]) {
    const { starts, end } = elementSpans(text, key)
    if (starts.length === 0) continue
    return starts.map((start, i) => {
      const stop = i + 1 < starts.length ? starts[i + 1]! : end
      const chunk = text.slice(start, stop).replace(/[\s,]*$/, '')
      try {
        return { line: lineAt(text, start), value: JSON.parse(chunk) as unknown }
      } catch (err) {
        return { line: lineAt(text, start), error: `invalid JSON: ${err instanceof Error ? err.message : String(err)}` }
      }
    })
  }
  return null
}

const elementStarts = (text: string, key: string | null): number[] => elementSpans(text, key).starts

/** Offsets where the elements of the top-level array (key null) or of the top-level object's array under `key` start. */
function elementSpans(text: string, key: string | null): { starts: number[]; end: number } {
  const starts: number[] = []
  const stack: string[] = []
  let target = -1
  let lastKey: string | null = null
  let expectValue = false
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!
    if (c === '"') {
      let j = i + 1
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1
      if (stack.length === target && expectValue) starts.push(i)
      expectValue = false
      if (stack.length === 1 && stack[0] === '{') lastKey = text.slice(i + 1, j)
      i = j
      continue
    }
    if (c === '{' || c === '[') {
      if (stack.length === target && expectValue) starts.push(i)
      expectValue = false
      stack.push(c)
      if (c === '[' && target === -1 && (key === null ? stack.length === 1 : stack.length === 2 && lastKey === key)) {
        target = stack.length
        expectValue = true
      }
      continue
    }
    if (c === '}' || c === ']') {
      if (stack.length === target && c === ']') return { starts, end: i }
      stack.pop()
      continue
    }
    if (c === ',' && stack.length === target) {
      expectValue = true
      continue
    }
    if (/\s|:/.test(c)) continue
    if (stack.length === target && expectValue) {
      starts.push(i)
      expectValue = false
    }
  }
  return { starts, end: text.length }
}

function csvRows(text: string): ReadRows {
  const delimiter = detectDelimiter(text)
  const { records, errors } = parseCsv(text, delimiter)
  const broken = new Map(errors.map((e) => [e.line, e.reason]))
  if (records.length === 0) return { format: 'csv', rows: [], columns: [] }
  const columns = records[0]!.fields.map((c) => c.trim())
  const rows: RawRow[] = records.slice(1).map((r) => {
    const problem = broken.get(r.line)
    if (problem) return { line: r.line, error: `malformed CSV: ${problem}` }
    if (r.fields.length > columns.length) return { line: r.line, error: `malformed CSV: ${r.fields.length} fields, the header has ${columns.length}` }
    const value: Record<string, string> = {}
    columns.forEach((c, i) => {
      if (c !== '' && r.fields[i] !== undefined) value[c] = r.fields[i]!
    })
    return { line: r.line, value }
  })
  return { format: 'csv', rows, columns }
}

/** Tab when the header line has tabs and no commas (TSV), else comma. */
function detectDelimiter(text: string): string {
  const header = text.split('\n', 1)[0] ?? ''
  return header.includes('\t') && !header.includes(',') ? '\t' : ','
}
