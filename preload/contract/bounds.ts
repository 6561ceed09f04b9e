/**
 * The bounds a zod number schema declares, read back from the schema itself, so a form field, a catalogue
 * entry and the validator never state a bound twice (the renderer's fields and the training catalogue
 * read them here).
 */
import { z } from 'zod'

export interface NumberBounds {
  /** The lower bound; with `minExclusive` the value must exceed it. */
  min: number | null
  minExclusive: boolean
  max: number | null
  maxExclusive: boolean
  integer: boolean
  nullable: boolean
}

interface JsonNumber {
  type?: string
  minimum?: number
  exclusiveMinimum?: number
  maximum?: number
  exclusiveMaximum?: number
  anyOf?: JsonNumber[]
}

export function numberBounds(schema: z.ZodType): NumberBounds {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonNumber
  const options = json.anyOf ?? [json]
  const n = options.find((o) => o.type === 'number' || o.type === 'integer')
  if (!n) throw new Error('numberBounds: not a number schema')
  // JSON Schema writes a safe integer's own range as bounds; those are no bound a person chose.
  const own = (v: number | undefined): number | null => (v === undefined || Math.abs(v) >= Number.MAX_SAFE_INTEGER ? null : v)
  return {
    min: own(n.minimum ?? n.exclusiveMinimum),
    minExclusive: n.minimum === undefined && n.exclusiveMinimum !== undefined,
    max: own(n.maximum ?? n.exclusiveMaximum),
    maxExclusive: n.maximum === undefined && n.exclusiveMaximum !== undefined,
    integer: n.type === 'integer',
    nullable: options.some((o) => o.type === 'null'),
  }
}
