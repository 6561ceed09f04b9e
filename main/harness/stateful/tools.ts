/**
 * The Harness-1 tools: zod schemas (the validators) and the JSON Schemas derived from them (what a
 * policy is shown and what a grammar constrains to). Document ids are strings like "D12" (see
 * doc-ids.ts); bare integers are accepted and turned into that form before validation.
 */
import { z } from 'zod'
import type { ToolSchema } from '../types'
import type { StatefulConfig } from './config'
import { IMPORTANCE_TAGS } from './curated-set'

export const MAX_FAN_OUT_QUERIES = 5
export const MAX_REVIEW_DOCS = 5
export const MAX_VERIFY_DOCS = 5
const MAX_QUERY_CHARS = 400
const MAX_CURATE_IDS = 30

const docIdString = z.string().regex(/^\s*[dD]?\d{1,15}\s*$/, 'expected a document id such as "D12"')
const queryString = z.string().trim().min(1, 'must not be empty').max(MAX_QUERY_CHARS)

export const TOOL_ARGUMENTS = {
  fan_out_search: z.strictObject({
    queries: z.array(queryString).min(1).max(MAX_FAN_OUT_QUERIES).describe(`1 to ${MAX_FAN_OUT_QUERIES} search queries, run in parallel`),
  }),
  search_corpus: z.strictObject({ query: queryString.describe('One search query') }),
  grep_corpus: z.strictObject({
    pattern: z.string().min(1).max(200).describe('JavaScript regular expression, matched case-insensitively over passage text'),
  }),
  read_document: z.strictObject({ doc_id: docIdString.describe('Document id, e.g. "D12"') }),
  review_docs: z.strictObject({
    doc_ids: z.array(docIdString).min(1).max(MAX_REVIEW_DOCS).describe(`1 to ${MAX_REVIEW_DOCS} retrieved document ids to re-read in full`),
  }),
  curate: z.strictObject({
    add_ids: z.array(docIdString).max(MAX_CURATE_IDS).optional().describe('Document ids to add to (or re-tag in) the curated set'),
    remove_ids: z.array(docIdString).max(MAX_CURATE_IDS).optional().describe('Document ids to remove from the curated set'),
    importance: z.enum(IMPORTANCE_TAGS).optional().describe('Importance of the added documents (default fair)'),
  }),
  verify: z.strictObject({
    doc_ids: z.array(docIdString).min(1).max(MAX_VERIFY_DOCS).describe(`1 to ${MAX_VERIFY_DOCS} retrieved document ids`),
    claim: z.string().trim().min(1, 'must not be empty').max(1000).describe('The claim to check against those documents'),
  }),
  end_search: z.strictObject({ reasoning: z.string().max(4000).describe('Why the curated set is enough (or why searching further will not help)') }),
} as const

export type ToolName = keyof typeof TOOL_ARGUMENTS
export const TOOL_NAMES = Object.keys(TOOL_ARGUMENTS) as ToolName[]

export type ToolCall = { [N in ToolName]: { name: N; arguments: z.infer<(typeof TOOL_ARGUMENTS)[N]> } }[ToolName]

const DESCRIPTIONS: Record<ToolName, string> = {
  fan_out_search: 'Run up to 5 search queries at once over the corpus; new results enter the candidate pool.',
  search_corpus: 'Run one search query over the corpus; new results enter the candidate pool.',
  grep_corpus: 'Find passages whose text matches a regular expression (exact names, numbers, phrases).',
  read_document: 'Read one passage in full from the corpus (any id from results, grep hits or the pool).',
  review_docs: 'Re-read up to 5 already retrieved passages in full from working memory (no corpus cost).',
  curate: 'Add documents to the curated set (with an importance tag) and/or remove them. The curated set is your evidence.',
  verify: 'Check a claim against up to 5 retrieved documents; the verdict is recorded in working memory.',
  end_search: 'Stop searching; the curated set is final.',
}

/** Tools the configuration makes available, in a fixed order. */
export function availableTools(config: StatefulConfig): ToolName[] {
  return TOOL_NAMES.filter((n) => (n === 'verify' ? config.verification : n === 'review_docs' ? config.reviewDocs : true))
}

export function toolSchemas(config: StatefulConfig): ToolSchema[] {
  return availableTools(config).map((name) => {
    let schema: z.ZodType = TOOL_ARGUMENTS[name]
    // Without importance tags the parameter is not offered (a stray one is still accepted and ignored).
    if (name === 'curate' && !config.importanceTags) schema = TOOL_ARGUMENTS.curate.omit({ importance: true })
    const { $schema: _drop, ...parameters } = z.toJSONSchema(schema) as Record<string, unknown>
    let description = DESCRIPTIONS[name]
    if (name === 'curate' && !config.importanceTags) description = 'Add documents to and/or remove them from the curated set. The curated set is your evidence.'
    return { name, description, parameters }
  })
}

export type ValidatedCall = { ok: true; call: ToolCall } | { ok: false; error: string }

/** Validates a tool call against the configured tool set; the error says what to fix. */
export function validateToolCall(name: unknown, args: unknown, config: StatefulConfig): ValidatedCall {
  if (typeof name !== 'string' || name === '') return { ok: false, error: 'A tool call needs a "name"' }
  const available = availableTools(config)
  if (!(name in TOOL_ARGUMENTS)) return { ok: false, error: `Unknown tool "${name}". Available tools: ${available.join(', ')}` }
  const tool = name as ToolName
  if (!available.includes(tool)) return { ok: false, error: `Tool "${tool}" is switched off in this harness. Available tools: ${available.join(', ')}` }
  if (args === undefined || args === null) args = {}
  // Some runtimes pass arguments as the JSON string the model wrote (the OpenAI wire form).
  if (typeof args === 'string') {
    try {
      args = JSON.parse(args)
    } catch {
      return { ok: false, error: `${tool}: "arguments" is not valid JSON. Expected arguments: ${signature(tool)}` }
    }
  }
  if (typeof args !== 'object' || Array.isArray(args)) return { ok: false, error: `${tool}: "arguments" must be a JSON object` }
  const parsed = TOOL_ARGUMENTS[tool].safeParse(coerceIds(args as Record<string, unknown>))
  if (!parsed.success) {
    const why = parsed.error.issues.map((i) => `${i.path.length ? i.path.join('.') : 'arguments'}: ${i.message}`).join('; ')
    return { ok: false, error: `${tool}: ${why}. Expected arguments: ${signature(tool)}` }
  }
  if (tool === 'curate') {
    const a = parsed.data as z.infer<typeof TOOL_ARGUMENTS.curate>
    if (!a.add_ids?.length && !a.remove_ids?.length) return { ok: false, error: 'curate: give add_ids and/or remove_ids (both are empty)' }
  }
  return { ok: true, call: { name: tool, arguments: parsed.data } as ToolCall }
}

const SIGNATURES: Record<ToolName, string> = {
  fan_out_search: `{"queries": [string, ... at most ${MAX_FAN_OUT_QUERIES}]}`,
  search_corpus: '{"query": string}',
  grep_corpus: '{"pattern": string}',
  read_document: '{"doc_id": "D12"}',
  review_docs: `{"doc_ids": ["D12", ... at most ${MAX_REVIEW_DOCS}]}`,
  curate: '{"add_ids": ["D12"], "remove_ids": ["D7"], "importance": "very_high" | "high" | "fair" | "low"}',
  verify: `{"doc_ids": ["D12", ... at most ${MAX_VERIFY_DOCS}], "claim": string}`,
  end_search: '{"reasoning": string}',
}

export function signature(tool: ToolName): string {
  return SIGNATURES[tool]
}

/** Integers where ids are expected become "D<n>" strings (models often drop the prefix or quotes). */
function coerceIds(args: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...args }
  const one = (v: unknown) => (typeof v === 'number' && Number.isSafeInteger(v) ? `D${v}` : v)
  if ('doc_id' in out) out.doc_id = one(out.doc_id)
  for (const key of ['doc_ids', 'add_ids', 'remove_ids']) if (Array.isArray(out[key])) out[key] = (out[key] as unknown[]).map(one)
  return out
}
