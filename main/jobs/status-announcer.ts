import type { Job } from '../../preload/contract'
import type { EventBus } from '../events/bus'
import type { QueuePlace } from './queue-plan'
import { TERMINAL } from './job-records'

/**
 * The job.status events of one job manager. A status change can be seen twice (here as it happens,
 * and by the queue watch reading the database), so each status is announced once, whoever saw it
 * first; a queued job's place is announced again whenever it moves.
 */
export class StatusAnnouncer {
  /** The last status announced for each job. */
  private readonly announcedStatus = new Map<string, string>()
  /** The queue place last announced for each queued job (position|reason). */
  private readonly announcedPlace = new Map<string, string>()
  /** This manager changed the queue since the watch last read it (the watch reads and resets it). */
  changedHere = false

  constructor(private readonly events: EventBus) {}

  /** A job.status event, once per status of a job (`again`: a queued job's new place or message). */
  emit(job: Job, again = false): void {
    this.changedHere = true
    if (!again && this.announcedStatus.get(job.id) === job.status) return
    this.announcedStatus.set(job.id, job.status)
    this.events.emit('job.status', job)
  }

  /** Ended jobs already announced that left the active queue (`active`) and did not change just now (`touched`) are forgotten. */
  forgetEnded(active: Map<string, unknown>, touched: Set<string>): void {
    for (const [id, status] of this.announcedStatus) if (TERMINAL.has(status) && !active.has(id) && !touched.has(id)) this.announcedStatus.delete(id)
  }

  /** Queued jobs whose place or reason changed since the last announcement get a status event. */
  async announcePlaces(places: Map<string, QueuePlace>, get: (id: string) => Promise<Job>): Promise<void> {
    for (const id of this.announcedPlace.keys()) if (!places.has(id)) this.announcedPlace.delete(id)
    for (const [id, place] of places) {
      const key = `${place.position}|${place.waitingFor}`
      if (this.announcedPlace.get(id) === key) continue
      this.announcedPlace.set(id, key)
      const job = await get(id).catch(() => undefined)
      if (job?.status === 'queued') this.emit(job, true)
    }
  }
}
