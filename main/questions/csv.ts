/**
 * RFC 4180 CSV: quoted fields with "" escapes, commas and newlines inside quotes, CRLF or LF rows, a
 * leading BOM. No CSV parser is installed and this is small, so it is written here rather than adding
 * a dependency. Each record keeps the line it starts on, for error messages.
 */
export interface CsvRecord {
  /** 1-based line of the file where the record starts. */
  line: number
  fields: string[]
}

export interface CsvResult {
  records: CsvRecord[]
  /** Malformed input (an unterminated quote, text after a closing quote), with its line. */
  errors: { line: number; reason: string }[]
}

export function parseCsv(text: string, delimiter = ','): CsvResult {
  const records: CsvRecord[] = []
  const errors: { line: number; reason: string }[] = []
  for (const r of csvRecords(text, delimiter)) {
    for (const reason of r.errors) errors.push({ line: r.line, reason })
    records.push({ line: r.line, fields: r.fields })
  }
  return { records, errors }
}

/** The records one at a time (one pass, nothing kept), each with the problems found in it. */
export function* csvRecords(text: string, delimiter = ','): Generator<CsvRecord & { errors: string[] }> {
  const src = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text
  let line = 1
  let recordLine = 1
  let fields: string[] = []
  let errors: string[] = []
  let field = ''
  let i = 0
  let quoted = false
  let afterQuote = false
  const endField = (): void => {
    fields.push(field)
    field = ''
    afterQuote = false
  }
  // A blank line is no record.
  const blank = (): boolean => fields.length === 1 && fields[0] === ''
  while (i < src.length) {
    const c = src[i]!
    if (quoted) {
      if (c === '"') {
        if (src[i + 1] === '"') {
          field += '"'
          i += 2
          continue
        }
        quoted = false
        afterQuote = true
        i++
        continue
      }
      if (c === '\n') line++
      field += c
      i++
      continue
    }
    if (c === '"' && field === '' && !afterQuote) {
      quoted = true
      i++
    } else if (c === delimiter) {
      endField()
      i++
    } else if (c === '\r' || c === '\n') {
      endField()
      if (!blank()) yield { line: recordLine, fields, errors }
      fields = []
      errors = []
      i += c === '\r' && src[i + 1] === '\n' ? 2 : 1
      line++
      recordLine = line
    } else {
      if (afterQuote) {
        errors.push('text after a closing quote')
        afterQuote = false
      }
      field += c
      i++
    }
  }
  if (quoted) errors.push('unterminated quoted field')
  if (field !== '' || fields.length > 0 || afterQuote) {
    endField()
    if (!blank()) yield { line: recordLine, fields, errors }
  }
}
