import { numberBounds } from '../../../preload/contract'

/** An input's min/max attributes from a contract schema: a form never states a bound the server does not check. */
export function inputBounds(schema: Parameters<typeof numberBounds>[0]): { min?: number; max?: number } {
  const { min, max } = numberBounds(schema)
  return { ...(min === null ? {} : { min }), ...(max === null ? {} : { max }) }
}
