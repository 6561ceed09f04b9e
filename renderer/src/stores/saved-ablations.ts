import { ref } from 'vue'
import { judgedMetric, type AblationDetail, type AblationSummary, type Job } from '../../../preload/contract'
import { useApi } from '../api'
import { coalesce } from './coalesce'
import type { attemptInto } from './attempt'
import type { useCatalogStore } from './catalog'
import { liveSubscriptions } from './live'
import type { useRunsStore } from './runs'

/**
 * The workspace's saved ablations and the one open, with the metric its charts show; while held live,
 * kept fresh by the events of its ablation.run jobs.
 */
export function useSavedAblations(runs: ReturnType<typeof useRunsStore>, catalog: ReturnType<typeof useCatalogStore>, attempt: ReturnType<typeof attemptInto>) {
  const list = ref<AblationSummary[]>([])
  const current = ref<AblationDetail | null>(null)
  /** The metric the charts show. */
  const chartMetric = ref<string | null>(null)

  const { live } = liveSubscriptions(() => {
    const api = useApi()
    return [
      api.on('job.progress', (p) => {
        if (current.value && p.jobId === current.value.jobId) void refreshCurrent()
      }),
      api.on('job.status', (job: Job) => {
        if (job.kind !== 'ablation.run' || job.workspaceId !== runs.workspaceId) return
        void refreshList()
        if (current.value && job.params.ablationId === current.value.id) void refreshCurrent()
      }),
    ]
  })

  async function refreshList(): Promise<void> {
    const id = runs.workspaceId
    if (!id) return
    const out = await attempt(() => useApi().call('ablations.list', { workspaceId: id }))
    if (out && runs.workspaceId === id) list.value = out
  }

  // One refresh in flight; events arriving meanwhile ask for one more after it.
  const refreshCurrent = coalesce(async () => {
    const id = runs.workspaceId
    const ablation = current.value?.id
    if (!id || ablation === undefined) return
    const out = await attempt(() => useApi().call('ablations.get', { workspaceId: id, id: ablation }))
    if (out && current.value?.id === ablation) current.value = out
  })

  async function open(ablationId: number): Promise<void> {
    const id = runs.workspaceId
    if (!id) return
    const out = await attempt(() => useApi().call('ablations.get', { workspaceId: id, id: ablationId }))
    if (out) {
      current.value = out
      if (!chartMetric.value || !out.results?.metrics.includes(chartMetric.value)) {
        // The first chart is the metric training judges by at this gold level (SP F1 or paragraph F1), as compare's default.
        const stored = out.results?.metrics ?? []
        chartMetric.value = judgedMetric(catalog.catalog?.metrics ?? [], (m) => stored.includes(m)) ?? stored.find((m) => catalog.metric(m).headline && catalog.metric(m).direction !== 'none') ?? stored[0] ?? null
      }
    }
  }

  return { list, current, chartMetric, live, refreshList, refreshCurrent, open }
}
