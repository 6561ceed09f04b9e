/**
 * Tools as compact signatures for the system prompt, e.g.
 *   - read_document {doc_id: string /^D\d+$/}: Read one passage in full.
 *       doc_id: Document id, e.g. "D12"
 * The grammar enforces the exact JSON shape, so the prompt only has to convey meaning; a signature
 * costs a fraction of the tokens of the raw JSON Schema, which matters with small contexts and long
 * observations.
 */
import type { ToolSchema } from './types'

type Json = Record<string, unknown>
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v)
const MAX_DEPTH = 4

function range(lo: unknown, hi: unknown): string {
  const a = typeof lo === 'number' ? lo : null
  const b = typeof hi === 'number' ? hi : null
  if (a === null && b === null) return ''
  return a !== null && b !== null ? ` ${a}..${b}` : a !== null ? ` >=${a}` : ` <=${b}`
}

/** A one-line type for a JSON Schema: {a: string, b?: integer 0..9}, "x" | "y", string[<=5], ... */
export function typeSignature(schema: unknown, depth = 0): string {
  if (!isObject(schema)) return 'any'
  if (depth > MAX_DEPTH) return '...'
  if ('const' in schema) return JSON.stringify(schema.const)
  if (Array.isArray(schema.enum)) return schema.enum.map((v) => JSON.stringify(v)).join(' | ')
  const alternatives = Array.isArray(schema.oneOf) ? schema.oneOf : Array.isArray(schema.anyOf) ? schema.anyOf : null
  if (alternatives && !('type' in schema)) return alternatives.map((a) => typeSignature(a, depth + 1)).join(' | ')
  if (typeof schema.$ref === 'string') return schema.$ref.split('/').pop() ?? 'any'
  const type = Array.isArray(schema.type) ? schema.type.join(' | ') : typeof schema.type === 'string' ? schema.type : isObject(schema.properties) ? 'object' : 'any'
  switch (type) {
    case 'object': {
      const props = isObject(schema.properties) ? schema.properties : {}
      const required = new Set(Array.isArray(schema.required) ? schema.required : [])
      const fields = Object.entries(props).map(([k, v]) => `${k}${required.has(k) ? '' : '?'}: ${typeSignature(v, depth + 1)}`)
      return `{${fields.join(', ')}}`
    }
    case 'array': {
      const items = Array.isArray(schema.prefixItems) ? `[${schema.prefixItems.map((i) => typeSignature(i, depth + 1)).join(', ')}]` : `${typeSignature(schema.items, depth + 1)}[]`
      const count = range(schema.minItems, schema.maxItems).trim()
      return count ? `${items}(${count} items)` : items
    }
    case 'string': {
      const parts = ['string']
      if (typeof schema.format === 'string') parts.push(`(${schema.format})`)
      if (typeof schema.pattern === 'string') parts.push(`/${schema.pattern}/`)
      const length = range(schema.minLength, schema.maxLength).trim()
      if (length) parts.push(`(${length} chars)`)
      return parts.join(' ')
    }
    case 'integer':
    case 'number':
      return `${type}${range(schema.minimum ?? schema.exclusiveMinimum, schema.maximum ?? schema.exclusiveMaximum)}`
    default:
      return type
  }
}

/** The tools block of the system prompt: a signature per tool, then its argument descriptions. */
export function describeTools(tools: readonly ToolSchema[]): string {
  const blocks = tools.map((tool) => {
    const lines = [`- ${tool.name} ${typeSignature(tool.parameters)}: ${tool.description.trim()}`]
    const props = isObject(tool.parameters.properties) ? tool.parameters.properties : {}
    for (const [key, value] of Object.entries(props)) {
      if (isObject(value) && typeof value.description === 'string' && value.description.trim()) lines.push(`    ${key}: ${value.description.trim()}`)
    }
    return lines.join('\n')
  })
  return `Tools (arguments as {name: type}, "?" marks optional ones):\n${blocks.join('\n')}`
}
