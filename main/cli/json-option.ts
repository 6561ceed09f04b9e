/**
 * A command-line option that carries a JSON object (eval's `--config`, reproduce's `--gguf-options`,
 * a training config file), read once here so every command refuses a bad value the same way, in the
 * option's own words.
 */
export interface JsonOptionWords {
  /** The message when the text cannot be read or is not JSON, given the reason. */
  unreadable: (reason: string) => string
  /** The message when it is JSON but not an object (null, an array, a scalar). */
  notObject: string
}

/** The object that `read()` yields as JSON; `read` may throw (a file that cannot be read), said as `unreadable`. */
export function jsonObjectOption(read: () => string, words: JsonOptionWords): Record<string, unknown> {
  let value: unknown
  try {
    value = JSON.parse(read())
  } catch (err) {
    throw new Error(words.unreadable(err instanceof Error ? err.message : String(err)))
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new Error(words.notObject)
  return value as Record<string, unknown>
}
