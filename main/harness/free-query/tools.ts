import { MENU_ANSWER_ID } from '../../../preload/contract/protocols'
import { SEARCH_TOOL } from '../protocols'
import type { Action, ToolSchema } from '../types'

/** The free-query tools. SELECT and ANSWER also take the menu ids S<n>, W<n> and A directly. */
export function freeQueryTools(maxQueryChars: number): ToolSchema[] {
  return [
    {
      name: SEARCH_TOOL,
      description: `Retrieve with your own query (at most ${maxQueryChars} characters; longer ones are cut). The best new sentences of the top passages become visible.`,
      parameters: {
        type: 'object',
        properties: { query: { type: 'string', minLength: 1, maxLength: maxQueryChars } },
        required: ['query'],
        additionalProperties: false,
      },
    },
    {
      name: 'select',
      description: 'Commit a visible sentence to the evidence, by its id S<n> (n is the sentence number #n).',
      parameters: {
        type: 'object',
        properties: { id: { type: 'string', pattern: '^S[0-9]+$' } },
        required: ['id'],
        additionalProperties: false,
      },
    },
    {
      name: 'answer',
      description: 'Stop and answer from the committed evidence; with an id (S<n>), commit that sentence first.',
      parameters: {
        type: 'object',
        properties: { id: { type: 'string', pattern: '^[SW][0-9]+$' } },
        additionalProperties: false,
      },
    },
  ]
}

/**
 * The tool call that does what a menu id does here (the inverse of resolveTool for S<n>, W<n> and A), so a
 * policy that chose by id (a scripted teacher) can be written as the tool call a model would make; null
 * for an id the tools cannot name.
 */
export function toolCallForMenuId(id: string): Extract<Action, { kind: 'tool' }> | null {
  if (id === MENU_ANSWER_ID) return { kind: 'tool', name: 'answer', arguments: {} }
  const m = /^([SW])([0-9]+)$/.exec(id)
  if (!m) return null
  return m[1] === 'S' ? { kind: 'tool', name: 'select', arguments: { id } } : { kind: 'tool', name: 'answer', arguments: { id: `S${m[2]}` } }
}

/** Cuts a query to `max` characters after collapsing whitespace, at a word boundary in the last half when there is one. */
export function capQuery(query: string, max: number): { query: string; truncated: boolean } {
  const flat = query.replace(/\s+/g, ' ').trim()
  if (flat.length <= max) return { query: flat, truncated: false }
  const cut = flat.slice(0, max)
  const space = cut.lastIndexOf(' ')
  return { query: (space >= max / 2 ? cut.slice(0, space) : cut).trim(), truncated: true }
}

/**
 * Model text that is a search or a JSON tool call: `search: <query>`, `<search>query</search>`
 * (Search-R1's tag) or `{"name": "...", "arguments": {...}}`. Returns null for anything else, which the
 * caller then reads as a menu id.
 */
export function parseToolText(text: string): Action | { formatError: string } | null {
  const search = /^search\s*:\s*([\s\S]*)$/i.exec(text) ?? /^<search>([\s\S]*)<\/search>$/i.exec(text)
  if (search) return { kind: 'tool', name: SEARCH_TOOL, arguments: { query: search[1] ?? '' } }
  if (!text.startsWith('{')) return null
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return { formatError: 'invalid JSON in tool call' }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { formatError: 'a tool call must be a JSON object' }
  const { name, arguments: args } = value as { name?: unknown; arguments?: unknown }
  if (typeof name !== 'string') return { formatError: 'a tool call needs a "name"' }
  return { kind: 'tool', name, arguments: args ?? {} }
}
