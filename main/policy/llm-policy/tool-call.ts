import { LlamaGrammar, type GbnfJsonSchema, type Llama } from 'node-llama-cpp'
import type { Action, ToolSchema } from '../../harness/types'
import { gbnfLiteral } from '../../llm/choice'
import { PolicyError } from '../../llm/errors'
import { compileValidator, type ArgumentValidator } from './argument-validator'
import { toGrammarSchema, type GrammarSchemaOptions, type PatternRule } from './grammar-schema'

export interface ToolGrammarInfo {
  tool: ToolSchema
  validator: ArgumentValidator
  /** See GrammarSchema: what the grammar leaves to validation, and what it rules out beyond the schema. */
  loosened: string[]
  tightened: string[]
}

export interface ToolCallGrammar {
  grammar: LlamaGrammar
  tools: ReadonlyMap<string, ToolGrammarInfo>
  /** The JSON schema the grammar was generated from (tool calls as a oneOf). */
  schema: GbnfJsonSchema
}

export interface ToolCallGrammarOptions extends GrammarSchemaOptions {
  /** Adjusts a tool's converted argument schema before it goes into the grammar (free-query caps). */
  adjust?: (tool: ToolSchema, schema: Record<string, unknown>) => Record<string, unknown>
}

/**
 * One grammar for "call one of these tools": a JSON object {"name": <const>, "arguments": <schema>}
 * per tool, as alternatives. The name comes first so the model commits to a tool before writing
 * its arguments under that tool's schema. String patterns are enforced where the regex is in the
 * supported subset; if llama.cpp rejects the result, the grammar is rebuilt with patterns left to
 * validation.
 */
export async function buildToolCallGrammar(llama: Llama, tools: readonly ToolSchema[], options: ToolCallGrammarOptions = {}): Promise<ToolCallGrammar> {
  if (tools.length === 0) throw new PolicyError('invalid-input', 'the tools action space has no tools')
  const names = new Set<string>()
  for (const tool of tools) {
    if (names.has(tool.name)) throw new PolicyError('invalid-input', `tool "${tool.name}" is declared twice`)
    names.add(tool.name)
  }
  if (options.patterns !== false) {
    try {
      return await build(llama, tools, { ...options, patterns: true })
    } catch (error) {
      if (!(error instanceof PatternPatchError)) throw error
    }
  }
  return build(llama, tools, { ...options, patterns: false })
}

class PatternPatchError extends Error {}

async function build(llama: Llama, tools: readonly ToolSchema[], options: ToolCallGrammarOptions): Promise<ToolCallGrammar> {
  const info = new Map<string, ToolGrammarInfo>()
  const patterns: PatternRule[] = []
  const alternatives = tools.map((tool, i) => {
    const converted = toGrammarSchema(tool.parameters, { ...options, defsPrefix: `t${i}_` })
    patterns.push(...converted.patterns)
    const argumentsSchema = options.adjust ? options.adjust(tool, converted.schema as unknown as Record<string, unknown>) : converted.schema
    // If zod cannot read the tool's schema, validation falls back to the grammar's version without placeholders.
    const fallback = converted.patterns.length > 0 ? toGrammarSchema(tool.parameters, { ...options, defsPrefix: `t${i}_`, patterns: false }).schema : argumentsSchema
    info.set(tool.name, { tool, validator: compileValidator(tool.parameters, fallback), loosened: converted.loosened, tightened: converted.tightened })
    return { type: 'object', properties: { name: { const: tool.name }, arguments: argumentsSchema } }
  })
  const schema = (alternatives.length === 1 ? alternatives[0] : { oneOf: alternatives }) as unknown as GbnfJsonSchema
  let grammar: LlamaGrammar
  try {
    // The schema is built at run time, so its literal type cannot be inferred: widen the call.
    const create = llama.createGrammarForJsonSchema.bind(llama) as (schema: GbnfJsonSchema) => Promise<LlamaGrammar>
    grammar = await create(schema)
  } catch (error) {
    throw new PolicyError('invalid-input', `could not build a grammar for tools ${tools.map((t) => t.name).join(', ')}: ${(error as Error).message}`, { cause: error })
  }
  if (patterns.length > 0) grammar = withPatterns(llama, grammar, patterns)
  return { grammar, tools: info, schema }
}

/** Swaps each placeholder's string literal in the generated GBNF for its pattern rule. */
function withPatterns(llama: Llama, grammar: LlamaGrammar, patterns: readonly PatternRule[]): LlamaGrammar {
  let text = grammar.grammar
  for (const { placeholder, gbnf } of patterns) {
    const literal = gbnfLiteral(JSON.stringify(placeholder))
    if (!text.includes(literal)) throw new PatternPatchError(`placeholder ${placeholder} not found in the generated grammar`)
    text = text.split(literal).join(gbnf)
  }
  try {
    return new LlamaGrammar(llama, { grammar: text })
  } catch (error) {
    throw new PatternPatchError(`llama.cpp rejected the pattern rules: ${(error as Error).message}`)
  }
}

export interface ParsedToolCall {
  /** A tool action when the call parses and validates; otherwise the raw text, which the environment records as a format error. */
  action: Action
  /** Why the call was not accepted, when it was not. */
  error?: string
}

/** Reads a generated tool call and validates its arguments against the tool's full schema. */
export function parseToolCall(text: string, grammar: ToolCallGrammar): ParsedToolCall {
  const raw = text.trim()
  const reject = (error: string): ParsedToolCall => ({ action: { kind: 'text', text: raw }, error })
  let value: unknown
  try {
    value = JSON.parse(raw)
  } catch (error) {
    return reject(`not complete JSON: ${(error as Error).message}`)
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return reject('not a JSON object')
  const call = value as { name?: unknown; arguments?: unknown }
  if (typeof call.name !== 'string') return reject('no tool name')
  const tool = grammar.tools.get(call.name)
  if (!tool) return reject(`unknown tool "${call.name}"`)
  const args = call.arguments ?? {}
  const problem = tool.validator.validate(args)
  if (problem) return reject(`${call.name} arguments: ${problem}`)
  return { action: { kind: 'tool', name: call.name, arguments: args } }
}
