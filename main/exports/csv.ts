/**
 * CSV as RFC 4180 says: fields separated by commas, records by CRLF; a field holding a comma, a quote,
 * CR or LF is quoted, with its quotes doubled. Numbers are written as JSON writes them, null as empty.
 */
export type CsvValue = string | number | boolean | null | undefined

const NEEDS_QUOTES = /[",\r\n]/

export function csvField(value: CsvValue): string {
  if (value === null || value === undefined) return ''
  const text = typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '') : String(value)
  // A leading space or tab is kept by quoting, so spreadsheet trimming cannot change the value.
  return NEEDS_QUOTES.test(text) || /^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

export const csvRecord = (values: readonly CsvValue[]): string => `${values.map(csvField).join(',')}\r\n`
