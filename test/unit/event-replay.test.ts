/**
 * The numbered event log behind browser mode's event stream: a reconnecting page asks for what followed the
 * last id it saw and gets exactly that, in order; progress ticks are sent unnumbered and never replayed; a gap
 * older than what is kept is reported as such (null), never as a partial replay.
 */
import { describe, expect, it } from 'vitest'
import { EventBus } from '../../main/events/bus'
import { EventReplay, type NumberedEvent } from '../../main/events/replay'
import type { Job } from '../../preload/contract'

const job = (id: string, status: Job['status']) => ({ id, status }) as unknown as Job

describe('event replay', () => {
  it('numbers events, sends progress unnumbered, and replays what followed an id', () => {
    const bus = new EventBus()
    const replay = new EventReplay(bus)
    const seen: NumberedEvent[] = []
    replay.subscribe((e) => seen.push(e))
    bus.emit('job.status', job('a', 'running'))
    bus.emit('job.progress', { jobId: 'a', progress: 0.5, stage: 's', message: 'm' })
    bus.emit('job.status', job('a', 'done'))
    bus.emit('job.status', job('b', 'queued'))
    expect(seen.map((e) => [e.id, e.name])).toEqual([[1, 'job.status'], [null, 'job.progress'], [2, 'job.status'], [3, 'job.status']])
    expect(replay.since(1)!.map((e) => [e.id, (e.payload as Job).id, (e.payload as Job).status])).toEqual([[2, 'a', 'done'], [3, 'b', 'queued']])
    expect(replay.since(3)).toEqual([])
    expect(replay.since(99)).toEqual([])
    replay.close()
    bus.emit('job.status', job('c', 'queued'))
    expect(seen).toHaveLength(4)
  })

  it('says a gap is too old to replay once its first missed event is no longer kept', () => {
    const bus = new EventBus()
    const replay = new EventReplay(bus, 4)
    for (let i = 1; i <= 10; i++) bus.emit('job.status', job(String(i), 'queued'))
    const kept = replay.since(9)!
    expect(kept.map((e) => e.id)).toEqual([10])
    expect(replay.since(0)).toBeNull()
    // Whatever is kept replays whole from the oldest kept id's predecessor.
    const oldest = Math.min(...replay.since(10 - 4)!.map((e) => e.id!))
    expect(replay.since(oldest - 1)!.map((e) => e.id)).toEqual(Array.from({ length: 11 - oldest }, (_, i) => oldest + i))
    expect(replay.since(oldest - 2)).toBeNull()
  })
})
