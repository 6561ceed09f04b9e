import { z } from 'zod'

export interface ArgumentValidator {
  /** null when the value satisfies the schema, else what is wrong (the first few issues). */
  validate(value: unknown): string | null
  /**
   * False when zod could not read the tool's own schema (keywords such as `not`) and the value is
   * checked against the grammar's version of it instead, which drops those constraints.
   */
  readonly exact: boolean
}

function fromSchema(schema: unknown): z.ZodType {
  return z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0])
}

/** A validator for a tool's argument schema, built by zod from the JSON Schema itself. */
export function compileValidator(schema: unknown, grammarVersion: unknown): ArgumentValidator {
  let exact = true
  let type: z.ZodType
  try {
    type = fromSchema(schema)
  } catch {
    exact = false
    type = fromSchema(grammarVersion)
  }
  return {
    exact,
    validate(value: unknown): string | null {
      const result = type.safeParse(value)
      if (result.success) return null
      return result.error.issues.slice(0, 3).map((issue) => `${issue.path.length ? issue.path.join('.') : '(arguments)'}: ${issue.message}`).join('; ')
    },
  }
}
