import type { Ref } from 'vue'

/** Runs an API action and keeps its error for the view to show, instead of throwing into a component. */
export function attemptInto(error: Ref<string | null>) {
  return async <T>(fn: () => Promise<T>): Promise<T | undefined> => {
    try {
      const out = await fn()
      error.value = null
      return out
    } catch (err) {
      error.value = err instanceof Error ? err.message : String(err)
      return undefined
    }
  }
}
