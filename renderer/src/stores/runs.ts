import { defineStore } from 'pinia'
import { ref } from 'vue'
import type { Job, RouteInput, RouteOutput, RunSummary } from '../../../preload/contract'
import { useApi } from '../api'
import { attemptInto } from './attempt'
import { useJobsStore } from './jobs'

export type EvalInput = Extract<RouteInput<'job.start'>, { kind: 'eval.run' }>['params']
type Catalog = RouteOutput<'harness.catalog'>

/** Runs of one workspace: the catalogue of environments/policies, launches, and results refreshed as runs end. */
export const useRunsStore = defineStore('runs', () => {
  const workspaceId = ref<string | null>(null)
  const catalog = ref<Catalog | null>(null)
  const runs = ref<RunSummary[]>([])
  const error = ref<string | null>(null)
  let watching = false

  const attempt = attemptInto(error)

  async function refresh(): Promise<void> {
    const id = workspaceId.value
    if (!id) return
    const list = await attempt(() => useApi().call('runs.list', { workspaceId: id }))
    if (list && workspaceId.value === id) runs.value = list
  }

  async function load(id: string): Promise<void> {
    if (workspaceId.value !== id) {
      workspaceId.value = id
      runs.value = []
    }
    catalog.value ??= (await attempt(() => useApi().call('harness.catalog', {}))) ?? null
    if (!watching) {
      watching = true
      const api = useApi()
      api.on('job.status', (job: Job) => {
        if (job.kind === 'eval.run' && job.workspaceId === workspaceId.value) void refresh()
      })
    }
    await refresh()
  }

  async function launch(params: EvalInput): Promise<Job | undefined> {
    const id = workspaceId.value
    if (!id) return undefined
    return useJobsStore().start({ kind: 'eval.run', workspaceId: id, params })
  }

  return { workspaceId, catalog, runs, error, load, refresh, launch }
})
