import type { GbnfJsonSchema } from 'node-llama-cpp'
import { patternToGbnf } from './pattern-gbnf'

/**
 * JSON Schema (as tools declare their parameters) to the subset node-llama-cpp turns into a GBNF
 * grammar. What the subset cannot say is loosened (the grammar admits more than the schema, and the
 * parsed call is validated against the full schema afterwards) or, where node-llama-cpp's generator
 * is stricter than JSON Schema, tightened (every output is still valid, some valid ones are never
 * produced). Both are listed so that a run can show exactly what the grammar guarantees.
 *
 * node-llama-cpp's object grammar writes every listed property in order; optional properties are
 * therefore expanded into alternatives (one object shape per combination), which keeps "omit it"
 * possible, e.g. `answer {}` beside `answer {"id": "S3"}`.
 */

export interface GrammarSchemaOptions {
  /**
   * Length cap for strings whose schema has none (default 512 characters): without one, a model
   * that never closes its quote spends the whole token budget and the call is lost anyway.
   */
  defaultMaxStringLength?: number
  /** Prefix for $defs names and pattern placeholders, so that several tools cannot collide in one grammar. */
  defsPrefix?: string
  /**
   * Enforce string `pattern`s in the grammar where the regex is in the supported subset (default
   * true). node-llama-cpp's schema subset has no pattern, so such a string becomes a placeholder
   * const whose GBNF literal is swapped for the pattern's rule (see buildToolCallGrammar).
   */
  patterns?: boolean
}

/** A string placeholder in the schema and the GBNF (quotes included) that replaces its literal. */
export interface PatternRule {
  placeholder: string
  gbnf: string
}

export interface GrammarSchema {
  schema: GbnfJsonSchema
  /** 'path: constraint' the grammar cannot enforce; validation checks them. */
  loosened: string[]
  /** 'path: restriction' the grammar adds beyond the schema. */
  tightened: string[]
  patterns: PatternRule[]
}

type Json = Record<string, unknown>

/** Any JSON value: node-llama-cpp reads a schema without a type as null, so "anything" must be spelled out. */
export const ANY_JSON: Json = {
  oneOf: [{ type: ['string', 'number', 'boolean', 'null'] }, { type: 'array' }, { type: 'object', additionalProperties: true }],
}

/** Keywords with no grammar counterpart; the validator enforces them. */
const UNSUPPORTED = [
  'not', 'if', 'then', 'else', 'dependentRequired', 'dependentSchemas', 'dependencies', 'patternProperties', 'propertyNames',
  'contains', 'minContains', 'maxContains', 'unevaluatedProperties', 'unevaluatedItems', 'additionalItems',
]
const FORMATS = new Set(['date', 'time', 'date-time'])
const SMALL_INTEGER_RANGE = 64
/** Optional properties expanded into every combination (2^4 = 16 alternatives at most). */
const MAX_EXPANDED_OPTIONAL = 4

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v)
const isPrimitive = (v: unknown): v is string | number | boolean | null => v === null || ['string', 'number', 'boolean'].includes(typeof v)
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined)

class Converter {
  readonly loosened: string[] = []
  readonly tightened: string[] = []
  readonly patterns: PatternRule[] = []
  private readonly maxString: number
  private readonly prefix: string
  private readonly usePatterns: boolean

  constructor(options: GrammarSchemaOptions) {
    this.maxString = Math.max(1, Math.floor(options.defaultMaxStringLength ?? 512))
    this.prefix = options.defsPrefix ?? ''
    this.usePatterns = options.patterns ?? true
  }

  root(schema: unknown): Json {
    const out = this.convert(schema, '$')
    const defs = isObject(schema) ? (isObject(schema.$defs) ? schema.$defs : isObject(schema.definitions) ? schema.definitions : null) : null
    if (!defs) return out
    const converted: Json = {}
    for (const [name, def] of Object.entries(defs)) converted[this.prefix + name] = this.convert(def, `$defs.${name}`)
    // Definitions ride on the root; node-llama-cpp scopes $defs by the schema that declares them.
    if ('oneOf' in out || out.type === 'object' || out.type === 'array') return { ...out, $defs: converted }
    return { oneOf: [out], $defs: converted }
  }

  private loosen(path: string, what: string): void {
    this.loosened.push(`${path}: ${what}`)
  }

  convert(node: unknown, path: string): Json {
    if (node === true || node === undefined) return ANY_JSON
    if (!isObject(node)) {
      this.loosen(path, node === false ? 'false schema (no value is valid)' : 'schema is not an object')
      return ANY_JSON
    }
    for (const keyword of UNSUPPORTED) if (keyword in node) this.loosen(path, keyword)

    if (typeof node.$ref === 'string') {
      const match = /^#\/(?:\$defs|definitions)\/(.+)$/.exec(node.$ref)
      if (match) return { $ref: `#/$defs/${this.prefix}${match[1]}` }
      this.loosen(path, `$ref ${node.$ref}`)
      return ANY_JSON
    }
    if ('const' in node) {
      if (isPrimitive(node.const)) return { const: node.const }
      this.loosen(path, 'const with an object or array value')
      return ANY_JSON
    }
    if (Array.isArray(node.enum)) {
      if (node.enum.length > 0 && node.enum.every(isPrimitive)) return { enum: node.enum }
      this.loosen(path, 'enum with object or array values')
      return ANY_JSON
    }
    const structural = 'type' in node || 'properties' in node || 'items' in node
    const alternatives = Array.isArray(node.oneOf) ? node.oneOf : Array.isArray(node.anyOf) ? node.anyOf : null
    if (alternatives) {
      // Alternatives beside a type usually narrow it (anyOf: [{required: [a]}, {required: [b]}]):
      // the grammar keeps the type and validation checks the alternatives.
      if (!structural && alternatives.length > 0) {
        if (node.oneOf && node.anyOf) this.loosen(path, 'anyOf beside oneOf')
        if (node.oneOf) this.loosen(path, 'oneOf exclusivity (the grammar admits a value matching several)')
        return { oneOf: alternatives.map((alt, i) => this.convert(alt, `${path}.${node.oneOf ? 'oneOf' : 'anyOf'}[${i}]`)) }
      }
      this.loosen(path, node.oneOf ? 'oneOf' : 'anyOf')
    }
    if (Array.isArray(node.allOf)) {
      const parts = node.allOf.filter(isObject)
      if (!structural && parts.length === node.allOf.length && parts.every((p) => p.type === 'object' || 'properties' in p)) {
        return this.convert(mergeObjects(parts), path)
      }
      if (!structural && node.allOf.length === 1) return this.convert(node.allOf[0], path)
      this.loosen(path, 'allOf')
    }

    const types = Array.isArray(node.type) ? node.type.filter((t): t is string => typeof t === 'string') : typeof node.type === 'string' ? [node.type] : [inferType(node)]
    if (types.length === 0 || types.includes('any')) return ANY_JSON
    if (types.length > 1) return { oneOf: types.map((t) => this.typed({ ...node, type: t }, t, path)) }
    return this.typed(node, types[0]!, path)
  }

  private typed(node: Json, type: string, path: string): Json {
    switch (type) {
      case 'object': return this.object(node, path)
      case 'array': return this.array(node, path)
      case 'string': return this.string(node, path)
      case 'integer':
      case 'number': return this.number(node, type, path)
      case 'boolean':
      case 'null': return { type }
      case 'unknown': return ANY_JSON
      default:
        this.loosen(path, `type ${type}`)
        return ANY_JSON
    }
  }

  private object(node: Json, path: string): Json {
    const props = isObject(node.properties) ? node.properties : {}
    const required = new Set(Array.isArray(node.required) ? node.required.filter((r): r is string => typeof r === 'string') : [])
    const properties: Json = {}
    for (const [key, value] of Object.entries(props)) {
      // A property whose schema is false must be absent; leaving it out of the grammar is exact.
      if (value === false) continue
      properties[key] = this.convert(value, `${path}.${key}`)
    }
    for (const key of required) if (!(key in properties)) properties[key] = ANY_JSON
    const keys = Object.keys(properties)
    const extra = node.additionalProperties
    if (keys.length === 0) {
      const out: Json = { type: 'object', properties: {} }
      if (extra === true || isObject(extra)) {
        out.additionalProperties = extra === true ? true : this.convert(extra, `${path}.*`)
        if (num(node.minProperties) !== undefined) out.minProperties = node.minProperties
        if (num(node.maxProperties) !== undefined) out.maxProperties = node.maxProperties
      }
      return out
    }
    if (extra !== false && extra !== undefined) this.tightened.push(`${path}: no properties beyond the declared ones`)

    // node-llama-cpp writes every listed property, so optional ones become alternatives: each
    // subset of them when there are few, else all of them or none.
    const optional = keys.filter((k) => !required.has(k))
    const subsets = optional.length <= MAX_EXPANDED_OPTIONAL ? powerSet(optional) : [optional, []]
    if (optional.length > MAX_EXPANDED_OPTIONAL) this.tightened.push(`${path}: optional ${optional.join(', ')} written all together or not at all`)
    const min = num(node.minProperties) ?? 0
    const max = num(node.maxProperties) ?? Infinity
    let shapes = subsets.map((subset) => keys.filter((k) => required.has(k) || subset.includes(k))).filter((s) => s.length >= min && s.length <= max)
    if (shapes.length === 0) {
      this.loosen(path, 'minProperties/maxProperties')
      shapes = [keys]
    }
    const objects = shapes.map((shape) => ({ type: 'object', properties: Object.fromEntries(shape.map((k) => [k, properties[k]])) }))
    return objects.length === 1 ? objects[0]! : { oneOf: objects }
  }

  private array(node: Json, path: string): Json {
    const out: Json = { type: 'array' }
    if (Array.isArray(node.items)) out.prefixItems = node.items.map((item, i) => this.convert(item, `${path}[${i}]`))
    else if (node.items !== undefined) out.items = this.convert(node.items, `${path}[]`)
    if (Array.isArray(node.prefixItems)) out.prefixItems = node.prefixItems.map((item, i) => this.convert(item, `${path}[${i}]`))
    if (num(node.minItems) !== undefined) out.minItems = node.minItems
    if (num(node.maxItems) !== undefined) out.maxItems = node.maxItems
    if (node.uniqueItems === true) this.loosen(path, 'uniqueItems')
    return out
  }

  private string(node: Json, path: string): Json {
    if (typeof node.format === 'string') {
      if (FORMATS.has(node.format)) {
        if ('minLength' in node || 'maxLength' in node || 'pattern' in node) this.loosen(path, 'length or pattern beside a date/time format')
        return { type: 'string', format: node.format }
      }
      this.loosen(path, `format ${node.format}`)
    }
    if (typeof node.pattern === 'string') {
      const rule = this.usePatterns && typeof node.format !== 'string' ? patternToGbnf(node.pattern) : null
      if (rule !== null) {
        if ('minLength' in node || 'maxLength' in node) this.loosen(path, 'minLength/maxLength beside a pattern')
        const placeholder = `__hl_pattern_${this.prefix}${this.patterns.length}__`
        this.patterns.push({ placeholder, gbnf: `"\\"" ( ${rule} ) "\\""` })
        return { const: placeholder }
      }
      this.loosen(path, `pattern ${node.pattern}`)
    }
    const out: Json = { type: 'string' }
    const min = num(node.minLength)
    const max = num(node.maxLength)
    if (min !== undefined) out.minLength = min
    if (max !== undefined) out.maxLength = max
    else {
      out.maxLength = Math.max(this.maxString, min ?? 0)
      this.tightened.push(`${path}: at most ${out.maxLength} characters`)
    }
    return out
  }

  private number(node: Json, type: 'integer' | 'number', path: string): Json {
    const lo = num(node.minimum) ?? (num(node.exclusiveMinimum) !== undefined ? num(node.exclusiveMinimum)! + (type === 'integer' ? 1 : 0) : undefined)
    const hi = num(node.maximum) ?? (num(node.exclusiveMaximum) !== undefined ? num(node.exclusiveMaximum)! - (type === 'integer' ? 1 : 0) : undefined)
    // A small integer range is a finite menu: listing it makes the bounds exact.
    if (type === 'integer' && lo !== undefined && hi !== undefined && node.multipleOf === undefined) {
      const first = Math.ceil(lo)
      const last = Math.floor(hi)
      if (last >= first && last - first < SMALL_INTEGER_RANGE) return { enum: Array.from({ length: last - first + 1 }, (_, i) => first + i) }
    }
    for (const keyword of ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf']) if (keyword in node) this.loosen(path, keyword)
    return { type }
  }
}

/** Every subset of `items`, the full set first, each keeping the items' order. */
function powerSet<T>(items: readonly T[]): T[][] {
  const out: T[][] = []
  for (let mask = (1 << items.length) - 1; mask >= 0; mask--) out.push(items.filter((_, i) => mask & (1 << i)))
  return out
}

function inferType(node: Json): string {
  if ('properties' in node || 'additionalProperties' in node || 'required' in node) return 'object'
  if ('items' in node || 'prefixItems' in node) return 'array'
  if ('minLength' in node || 'maxLength' in node || 'pattern' in node || 'format' in node) return 'string'
  if ('minimum' in node || 'maximum' in node || 'multipleOf' in node) return 'number'
  return 'unknown'
}

/** allOf over object schemas as one object schema: properties and required lists united. */
function mergeObjects(parts: Json[]): Json {
  const properties: Json = {}
  const required = new Set<string>()
  let additionalProperties: unknown
  for (const part of parts) {
    Object.assign(properties, isObject(part.properties) ? part.properties : {})
    if (Array.isArray(part.required)) for (const r of part.required) if (typeof r === 'string') required.add(r)
    if (part.additionalProperties === false) additionalProperties = false
  }
  return { type: 'object', properties, required: [...required], ...(additionalProperties === false ? { additionalProperties } : {}) }
}

export function toGrammarSchema(schema: unknown, options: GrammarSchemaOptions = {}): GrammarSchema {
  const converter = new Converter(options)
  const out = converter.root(schema)
  return { schema: out as unknown as GbnfJsonSchema, loosened: converter.loosened, tightened: converter.tightened, patterns: converter.patterns }
}
