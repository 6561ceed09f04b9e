import type { EventName, EventPayload } from '../../preload/contract'

export type AnyEventListener = <E extends EventName>(name: E, payload: EventPayload<E>) => void

/** In-process fan-out of contract events to every connected bridge (IPC windows, SSE clients, CLI). */
export class EventBus {
  private readonly listeners = new Set<AnyEventListener>()

  emit<E extends EventName>(name: E, payload: EventPayload<E>): void {
    for (const listener of this.listeners) {
      try {
        listener(name, payload)
      } catch (err) {
        console.error(`event listener for ${name} failed:`, err)
      }
    }
  }

  subscribe(listener: AnyEventListener): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }
}
