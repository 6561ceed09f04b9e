import type { Ref } from 'vue'
import { errorMessage } from '../api/errors'

/**
 * The one error pattern of the stores: an action runs through `attempt`, which clears the store's
 * `error` on success and keeps `errorMessage(err)` there on failure, instead of throwing into a
 * component. Views show `store.error` with ErrorNote.
 */
export function attemptInto(error: Ref<string | null>) {
  return async <T>(fn: () => Promise<T>): Promise<T | undefined> => {
    try {
      const out = await fn()
      error.value = null
      return out
    } catch (err) {
      error.value = errorMessage(err)
      return undefined
    }
  }
}
