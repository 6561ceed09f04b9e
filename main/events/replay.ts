import type { EventName } from '../../preload/contract'
import type { EventBus } from './bus'

/** One event as a stream sends it: numbered, except progress ticks (null), which are never replayed. */
export interface NumberedEvent {
  id: number | null
  name: EventName
  payload: unknown
}

/** Events kept for replay by default: hours of status events, far more than a reconnect gap holds. */
export const REPLAY_CAPACITY = 2000

/**
 * The bus's events, numbered and the latest kept, so a stream that dropped (an SSH tunnel to a headless GPU
 * machine, a laptop asleep) gets what it missed when it reconnects: EventSource sends the last number it saw
 * as Last-Event-ID. Without it a page kept showing a finished job as running until that job's next event.
 * Progress ticks are not kept: the next tick says the same, and they would push status events out.
 */
export class EventReplay {
  private readonly kept: NumberedEvent[] = []
  private readonly listeners = new Set<(event: NumberedEvent) => void>()
  private last = 0
  private readonly unsubscribe: () => void

  constructor(
    events: EventBus,
    private readonly capacity = REPLAY_CAPACITY,
  ) {
    this.unsubscribe = events.subscribe((name, payload) => this.receive(name, payload))
  }

  /** Every event from now on, numbered (listeners are called in the order they subscribed). */
  subscribe(listener: (event: NumberedEvent) => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  /** The kept events numbered after `lastId`, oldest first; null when some of them are no longer kept. */
  since(lastId: number): NumberedEvent[] | null {
    if (lastId >= this.last) return []
    const oldest = this.kept[0]?.id ?? this.last + 1
    if (lastId + 1 < oldest!) return null
    return this.kept.filter((e) => e.id! > lastId)
  }

  close(): void {
    this.unsubscribe()
    this.listeners.clear()
  }

  private receive(name: EventName, payload: unknown): void {
    const event: NumberedEvent = { id: name === 'job.progress' ? null : ++this.last, name, payload }
    if (event.id !== null) {
      this.kept.push(event)
      // Trimmed in batches: one shift per event would copy the whole log each time.
      if (this.kept.length > this.capacity * 1.25) this.kept.splice(0, this.kept.length - this.capacity)
    }
    for (const listener of this.listeners) {
      try {
        listener(event)
      } catch (err) {
        console.error(`event stream listener for ${name} failed:`, err)
      }
    }
  }
}
