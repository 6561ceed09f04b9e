import { IngestFileError } from '../types'

/**
 * Where JSON text first breaks the grammar, or -1 when it is valid. V8's JSON.parse messages give a
 * position for some errors and not others ("Unexpected token '}', ... is not valid JSON"), so failed
 * input is walked once more with this small recogniser to point a person at the exact spot.
 */
export function jsonErrorOffset(text: string): number {
  let i = 0
  const fail = (): never => {
    throw i
  }
  const skipSpace = () => {
    while (i < text.length && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++
  }
  const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y
  const string = () => {
    i++
    for (;;) {
      if (i >= text.length) fail()
      const code = text.charCodeAt(i)
      if (code === 0x22) return void i++
      if (code < 0x20) fail()
      if (code === 0x5c) {
        const escape = text[i + 1]
        if (escape !== undefined && '"\\/bfnrt'.includes(escape)) i += 2
        else if (escape === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) i += 6
        else {
          i++
          fail()
        }
      } else i++
    }
  }
  const value = (): void => {
    skipSpace()
    const char = text[i]
    if (char === '{' || char === '[') {
      const close = char === '{' ? '}' : ']'
      i++
      skipSpace()
      if (text[i] === close) return void i++
      for (;;) {
        if (char === '{') {
          skipSpace()
          if (text[i] !== '"') fail()
          string()
          skipSpace()
          if (text[i] !== ':') fail()
          i++
        }
        value()
        skipSpace()
        if (text[i] === ',') i++
        else if (text[i] === close) return void i++
        else fail()
      }
    }
    if (char === '"') return string()
    NUMBER.lastIndex = i
    const number = NUMBER.exec(text)
    if (number && number[0] !== '' && number[0] !== '-') return void (i += number[0].length)
    for (const literal of ['true', 'false', 'null']) if (text.startsWith(literal, i)) return void (i += literal.length)
    fail()
  }
  try {
    value()
    skipSpace()
    if (i < text.length) fail()
    return -1
  } catch (error) {
    if (typeof error === 'number') return error
    return -1 // too deeply nested to walk; the caller falls back to V8's own message
  }
}

/** 1-based line and column of a character offset. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1
  let lineStart = 0
  for (let at = text.indexOf('\n'); at >= 0 && at < offset; at = text.indexOf('\n', at + 1)) {
    line++
    lineStart = at + 1
  }
  return { line, column: offset - lineStart + 1 }
}

/** V8's reason without the echoed source text or position, which the caller reports in its own terms. */
const reasonOf = (error: unknown): string =>
  (error instanceof Error ? error.message : String(error))
    .replace(/, ".*" is not valid JSON$/s, '')
    .replace(/ in JSON at position \d+.*$/s, '')
    .replace(/^JSON\.parse: /, '')

/**
 * Parses JSON, or explains where and why it is malformed ("notes.json: malformed JSON at line 3, column 14: ...").
 * `firstLine` is the file line the text starts on, so a JSONL line reports its own line number.
 */
export function parseJsonOrExplain(text: string, relPath: string, firstLine?: number): unknown {
  try {
    return JSON.parse(text)
  } catch (error) {
    const offset = jsonErrorOffset(text)
    const at = offset >= 0 ? lineColumn(text, offset) : null
    const line = (firstLine ?? 1) + (at?.line ?? 1) - 1
    const position = at ? `line ${line}, column ${at.column}` : firstLine !== undefined ? `line ${line}` : 'an unknown position'
    throw new IngestFileError('json', `${relPath}: malformed JSON at ${position}: ${reasonOf(error)}`)
  }
}
