import { defineStore } from 'pinia'
import { computed, ref } from 'vue'
import type { Job, RouteInput } from '../../../preload/contract'
import { useApi } from '../api'
import { attemptInto } from './attempt'
import { liveSubscriptions } from './live'

export const useJobsStore = defineStore('jobs', () => {
  const jobs = ref<Job[]>([])
  const error = ref<string | null>(null)
  const attempt = attemptInto(error)

  const active = computed(() => jobs.value.filter((j) => j.status === 'queued' || j.status === 'running'))
  const forWorkspace = (id: string) => computed(() => jobs.value.filter((j) => j.workspaceId === id))

  /** Status only moves forward: a late call response must not undo a newer event. */
  const RANK: Record<Job['status'], number> = { queued: 0, running: 1, done: 2, failed: 2, cancelled: 2 }

  /** Ids of the jobs upserted while each refresh's list is on its way (that list may predate them). */
  const inFlight = new Set<Set<string>>()

  function upsert(job: Job): void {
    for (const seen of inFlight) seen.add(job.id)
    const i = jobs.value.findIndex((j) => j.id === job.id)
    if (i < 0) jobs.value.unshift(job)
    else if (RANK[job.status] >= RANK[jobs.value[i]!.status]) jobs.value[i] = job
  }

  /** Live updates while held: status events replace the job, progress events patch it. */
  const { live } = liveSubscriptions(() => {
    const api = useApi()
    return [
      api.on('job.status', upsert),
      api.on('job.progress', (p) => {
        const job = jobs.value.find((j) => j.id === p.jobId)
        if (job && job.status === 'running') Object.assign(job, { progress: p.progress, stage: p.stage, message: p.message })
      }),
    ]
  })

  /**
   * The server's list, merged: a list read before a job started (or moved on) must not drop that job or undo its
   * newer status, which would leave a page showing a queued job as never started until its next event.
   */
  async function refresh(): Promise<void> {
    const seen = new Set<string>()
    inFlight.add(seen)
    const list = await attempt(() => useApi().call('job.list', { limit: 100 })).finally(() => inFlight.delete(seen))
    if (!list) return
    const mine = new Map(jobs.value.map((j) => [j.id, j]))
    const listed = new Set(list.map((j) => j.id))
    const newer = [...seen].filter((id) => !listed.has(id) && mine.has(id)).map((id) => mine.get(id)!)
    const forward = (j: Job): Job => {
      const m = mine.get(j.id)
      return m && RANK[m.status] > RANK[j.status] ? m : j
    }
    jobs.value = [...newer, ...list.map(forward)]
  }

  async function start(input: RouteInput<'job.start'>): Promise<Job | undefined> {
    const job = await attempt(() => useApi().call('job.start', input))
    if (job) upsert(job)
    return job
  }

  async function cancel(id: string): Promise<void> {
    const job = await attempt(() => useApi().call('job.cancel', { id }))
    if (job) upsert(job)
  }

  return { jobs, error, active, forWorkspace, live, refresh, start, cancel }
})
