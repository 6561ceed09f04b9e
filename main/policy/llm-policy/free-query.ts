import { SEARCH_TOOL, type Action, type ToolSchema } from '../../harness'
import { PolicyError } from '../../llm/errors'

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/** Throws unless the tools include a `search` tool whose arguments have a `query` property. */
export function assertSearchTool(tools: readonly ToolSchema[], policyName: string): void {
  const search = tools.find((t) => t.name === SEARCH_TOOL)
  const properties = search && isRecord(search.parameters.properties) ? search.parameters.properties : null
  if (!properties || !('query' in properties)) {
    throw new PolicyError('invalid-input', `${policyName} needs a "${SEARCH_TOOL}" tool taking { query }; got tools ${tools.map((t) => t.name).join(', ') || 'none'}`)
  }
}

/**
 * Grammar adjustment: the search query becomes a non-empty string of at most `maxChars`
 * characters, whatever length the tool itself allows, so the baseline writes queries of the
 * length a menu policy's deterministic queries have.
 */
export function capQueryInGrammar(maxChars: number) {
  const cap = (schema: Record<string, unknown>): Record<string, unknown> => {
    // Optional properties make the arguments a oneOf of object shapes: cap each.
    if (Array.isArray(schema.oneOf)) return { ...schema, oneOf: schema.oneOf.map((alt) => (isRecord(alt) ? cap(alt) : alt)) }
    if (!isRecord(schema.properties)) return schema
    const query = schema.properties.query
    if (!isRecord(query) || query.type !== 'string' || 'format' in query) return schema
    const maxLength = typeof query.maxLength === 'number' ? Math.min(query.maxLength, maxChars) : maxChars
    return { ...schema, properties: { ...schema.properties, query: { ...query, minLength: Math.max(1, Number(query.minLength ?? 1)), maxLength } } }
  }
  return (tool: ToolSchema, schema: Record<string, unknown>): Record<string, unknown> => (tool.name === SEARCH_TOOL ? cap(schema) : schema)
}

/**
 * The decision-side cap: a search call whose query is longer than `maxChars` (possible only where
 * the grammar could not cap it) is cut to length. Returns the action and whether it was cut.
 */
export function capQueryInAction(action: Action, maxChars: number): { action: Action; cut: boolean } {
  if (action.kind !== 'tool' || action.name !== SEARCH_TOOL || !isRecord(action.arguments)) return { action, cut: false }
  const query = action.arguments.query
  if (typeof query !== 'string') return { action, cut: false }
  const chars = [...query]
  if (chars.length <= maxChars) return { action, cut: false }
  return { action: { ...action, arguments: { ...action.arguments, query: chars.slice(0, maxChars).join('').trimEnd() } }, cut: true }
}
