import { defineStore } from 'pinia'
import { computed, ref } from 'vue'
import type { Job, RouteInput } from '../../../preload/contract'
import { useApi } from '../api'

export const useJobsStore = defineStore('jobs', () => {
  const jobs = ref<Job[]>([])
  const error = ref<string | null>(null)
  let subscribed = false

  const active = computed(() => jobs.value.filter((j) => j.status === 'queued' || j.status === 'running'))
  const forWorkspace = (id: string) => computed(() => jobs.value.filter((j) => j.workspaceId === id))

  /** Status only moves forward: a late call response must not undo a newer event. */
  const RANK: Record<Job['status'], number> = { queued: 0, running: 1, done: 2, failed: 2, cancelled: 2 }

  function upsert(job: Job): void {
    const i = jobs.value.findIndex((j) => j.id === job.id)
    if (i < 0) jobs.value.unshift(job)
    else if (RANK[job.status] >= RANK[jobs.value[i]!.status]) jobs.value[i] = job
  }

  /** Live updates: status events replace the job, progress events patch it. */
  function subscribe(): void {
    if (subscribed) return
    subscribed = true
    const api = useApi()
    api.on('job.status', upsert)
    api.on('job.progress', (p) => {
      const job = jobs.value.find((j) => j.id === p.jobId)
      if (job && job.status === 'running') Object.assign(job, { progress: p.progress, stage: p.stage, message: p.message })
    })
  }

  async function refresh(): Promise<void> {
    try {
      jobs.value = await useApi().call('job.list', { limit: 100 })
      error.value = null
    } catch (err) {
      error.value = err instanceof Error ? err.message : String(err)
    }
  }

  async function start(input: RouteInput<'job.start'>): Promise<Job | undefined> {
    try {
      const job = await useApi().call('job.start', input)
      upsert(job)
      error.value = null
      return job
    } catch (err) {
      error.value = err instanceof Error ? err.message : String(err)
      return undefined
    }
  }

  async function cancel(id: string): Promise<void> {
    try {
      upsert(await useApi().call('job.cancel', { id }))
    } catch (err) {
      error.value = err instanceof Error ? err.message : String(err)
    }
  }

  return { jobs, error, active, forWorkspace, subscribe, refresh, start, cancel }
})
