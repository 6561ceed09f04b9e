import type { HarnessApi } from '../../preload/contract'
import { ApiCallError } from '../../renderer/src/api/errors'
import { dispatch } from '../../main/api/dispatch'
import { createHandlers } from '../../main/api/handlers'
import type { TestBackend } from './services'

let inFlight = 0

/** Calls to any in-process API not answered yet: the component tests' settle() polls this instead of sleeping. */
export const callsInFlight = (): number => inFlight

/** The renderer's API served by the real backend in the same process (component tests). */
export function inProcessApi(backend: TestBackend): HarnessApi {
  const handlers = createHandlers(backend.services, { mode: 'browser' })
  return {
    async call(route, input) {
      inFlight++
      try {
        const env = await dispatch(handlers, route, input)
        if (!env.ok) throw new ApiCallError(env.error)
        return env.data as never
      } finally {
        inFlight--
      }
    },
    on(event, listener) {
      return backend.services.events.subscribe((name, payload) => {
        if ((name as string) === event) listener(payload as never)
      })
    },
  }
}
