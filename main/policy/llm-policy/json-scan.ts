/**
 * Where the first complete top-level JSON object or array in `text` ends (the index after its
 * closing bracket), or null while it is still open. Strings and escapes are tracked so that
 * brackets inside string values do not count.
 */
export function completedJsonEnd(text: string): number | null {
  let depth = 0
  let started = false
  let inString = false
  let escaped = false
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]
    if (inString) {
      if (escaped) escaped = false
      else if (ch === '\\') escaped = true
      else if (ch === '"') inString = false
      continue
    }
    if (ch === '"') inString = true
    else if (ch === '{' || ch === '[') {
      depth++
      started = true
    } else if (ch === '}' || ch === ']') {
      depth--
      if (started && depth === 0) return i + 1
    }
  }
  return null
}
