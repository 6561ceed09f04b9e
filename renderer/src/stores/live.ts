import { onScopeDispose } from 'vue'

/**
 * Event subscriptions a store holds only while something uses them. Call inside a setup store:
 * `const { live } = liveSubscriptions(() => [api.on(...), ...])`. `live()` subscribes on first use and
 * returns its release; the last release unsubscribes every listener, and so does disposing the store.
 * A component holds them for its lifetime with `onScopeDispose(store.live())` in its setup.
 */
export function liveSubscriptions(subscribe: () => (() => void)[]): { live: () => () => void; active: () => boolean } {
  let users = 0
  let offs: (() => void)[] = []
  const stop = (): void => {
    for (const off of offs) off()
    offs = []
  }
  onScopeDispose(() => {
    users = 0
    stop()
  })
  return {
    live() {
      if (users++ === 0) offs = subscribe()
      let released = false
      return () => {
        if (released) return
        released = true
        if (--users === 0) stop()
      }
    },
    active: () => users > 0,
  }
}
