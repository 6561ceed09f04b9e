import { defineStore } from 'pinia'
import { computed, ref } from 'vue'
import type { RouteOutput } from '../../../preload/contract'
import { useApi } from '../api'
import { attemptInto } from './attempt'
import { useCatalogStore } from './catalog'

/** One run's per-question results (Run page). */
export const useRunStore = defineStore('run', () => {
  const workspaceId = ref<string | null>(null)
  const runId = ref<number | null>(null)
  const page = ref<RouteOutput<'runs.episodes'> | null>(null)
  const error = ref<string | null>(null)
  const attempt = attemptInto(error)

  /** Metric names the run's episodes store. */
  const metricNames = computed(() => [...new Set((page.value?.episodes ?? []).flatMap((e) => Object.keys(e.metrics)))])

  async function load(w: string, r: number, limit = 500): Promise<void> {
    if (workspaceId.value !== w || runId.value !== r) page.value = null
    workspaceId.value = w
    runId.value = r
    const [out] = await Promise.all([attempt(() => useApi().call('runs.episodes', { workspaceId: w, runId: r, limit })), useCatalogStore().load()])
    if (out && workspaceId.value === w && runId.value === r) page.value = out
  }

  return { workspaceId, runId, page, metricNames, error, load }
})
