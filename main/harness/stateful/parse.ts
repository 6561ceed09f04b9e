/**
 * Model text -> tool call. Accepted: a bare JSON object {"name": ..., "arguments": {...}}, the same
 * inside a ```json fence or <tool_call>...</tool_call> tags, or embedded in prose (the first balanced
 * JSON object is taken). "arguments" may also be a JSON-encoded string (the OpenAI wire form). Only
 * the first call is used; later ones are ignored. Schema validation happens in step(), not here.
 */
import type { Action } from '../types'

export function parseToolCallText(text: string): Action | { formatError: string } {
  if (typeof text !== 'string' || text.trim() === '') return { formatError: 'Empty output: expected a JSON tool call {"name": ..., "arguments": {...}}' }
  const candidates = candidateBlocks(text)
  if (candidates.length === 0) return { formatError: 'No JSON tool call found: expected {"name": ..., "arguments": {...}}' }
  let lastError = ''
  for (const block of candidates) {
    let value: unknown
    try {
      value = JSON.parse(block)
    } catch (err) {
      lastError = `Invalid JSON in tool call: ${err instanceof Error ? err.message : String(err)}`
      continue
    }
    if (!value || typeof value !== 'object' || Array.isArray(value)) {
      lastError = 'A tool call must be a JSON object {"name": ..., "arguments": {...}}'
      continue
    }
    const obj = value as Record<string, unknown>
    if (typeof obj.name !== 'string') {
      lastError = 'The tool call has no "name" string'
      continue
    }
    let args = obj.arguments ?? obj.parameters ?? {}
    if (typeof args === 'string') {
      try {
        args = JSON.parse(args)
      } catch {
        return { formatError: `Invalid JSON in the "arguments" string of ${obj.name}` }
      }
    }
    return { kind: 'tool', name: obj.name, arguments: args }
  }
  return { formatError: lastError }
}

function candidateBlocks(text: string): string[] {
  const out: string[] = []
  for (const m of text.matchAll(/<tool_call>([\s\S]*?)(?:<\/tool_call>|$)/g)) out.push(m[1]!.trim())
  for (const m of text.matchAll(/```(?:json)?\s*\n?([\s\S]*?)```/g)) out.push(m[1]!.trim())
  const trimmed = text.trim()
  if (trimmed.startsWith('{')) out.push(trimmed)
  const embedded = firstBalancedObject(text)
  if (embedded) out.push(embedded)
  return [...new Set(out)].filter((s) => s !== '')
}

/** The first {...} with balanced braces (strings and escapes respected), or null. */
function firstBalancedObject(text: string): string | null {
  const start = text.indexOf('{')
  if (start === -1) return null
  let depth = 0
  let inString = false
  for (let i = start; i < text.length; i++) {
    const c = text[i]
    if (inString) {
      if (c === '\\') i++
      else if (c === '"') inString = false
      continue
    }
    if (c === '"') inString = true
    else if (c === '{') depth++
    else if (c === '}' && --depth === 0) return text.slice(start, i + 1)
  }
  // Unbalanced: hand the rest over so JSON.parse names the problem.
  return text.slice(start)
}
