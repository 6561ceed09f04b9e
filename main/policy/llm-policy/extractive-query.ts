/**
 * Extractive free queries: the search query is decoded as words of the prompt's observation (the question
 * and what is visible), joined by single spaces, instead of any characters. A model too small to copy a
 * name it has never seen (stories260K) can still choose which of the observation's words to search for;
 * the grammar supplies the spelling. Off by default; a run or evaluation that uses it says so.
 */
import { SEARCH_TOOL, type ToolSchema } from '../../harness'

/** Most distinct words a query may draw from (the first ones of the observation), to bound the grammar. */
export const MAX_QUERY_WORDS = 400

const WORD = /[A-Za-z0-9]+/g

/** The observation's words (ASCII letter and digit runs), each once, in order of first appearance. */
export function observedWords(text: string, max = MAX_QUERY_WORDS): string[] {
  return [...new Set(text.match(WORD) ?? [])].slice(0, max)
}

/**
 * The tools with the search query restricted to `words` joined by single spaces (the pattern is enforced by
 * the grammar and by validation). The repetition is unbounded: llama.cpp refuses a bounded one ({0,15}) over
 * hundreds of words; the character cap and the token limit bound the query.
 */
export function extractiveSearchTools(tools: readonly ToolSchema[], words: readonly string[]): ToolSchema[] {
  if (words.length === 0) return [...tools]
  const word = `(${words.join('|')})`
  return tools.map((tool) => {
    const properties = tool.parameters.properties as Record<string, Record<string, unknown>> | undefined
    if (tool.name !== SEARCH_TOOL || !properties?.query) return tool
    const { maxLength: _maxLength, minLength: _minLength, ...query } = properties.query
    return { ...tool, parameters: { ...tool.parameters, properties: { ...properties, query: { ...query, type: 'string', pattern: `^${word}( ${word})*$` } } } }
  })
}

/**
 * Another policy's query as an extractive one: its words that the observation has, joined by spaces and
 * cut at a word boundary to `maxChars`; null when none of its words is in the observation.
 */
export function extractiveQuery(query: string, words: ReadonlySet<string>, maxChars: number): string | null {
  let out = ''
  for (const w of query.match(WORD) ?? []) {
    if (!words.has(w)) continue
    const next = out === '' ? w : `${out} ${w}`
    if (next.length > maxChars) break
    out = next
  }
  return out === '' ? null : out
}
