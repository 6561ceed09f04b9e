import { computed, ref, watch } from 'vue'
import type { RouteOutput } from '../../../preload/contract'
import { useApi } from '../api'
import type { attemptInto } from './attempt'
import type { useCatalogStore } from './catalog'
import type { useRunsStore } from './runs'

/** The pairwise comparison of finished runs on one metric: a baseline, the candidates, the result. */
export function useRunComparison(runs: ReturnType<typeof useRunsStore>, catalog: ReturnType<typeof useCatalogStore>, attempt: ReturnType<typeof attemptInto>) {
  const baseline = ref<number | null>(null)
  const candidates = ref<number[]>([])
  const metric = ref<string | null>(null)
  const result = ref<RouteOutput<'runs.compare'> | null>(null)
  /** The metric the result was computed for (the picker may have moved on since). */
  const comparedMetric = ref<string | null>(null)

  /** Metrics to compare on: what the finished runs store, in catalogue order. */
  const metricNames = computed(() => catalog.ordered(runs.finished.flatMap((r) => Object.keys(r.metrics))))

  /** Another workspace: nothing chosen, nothing compared. */
  function reset(): void {
    baseline.value = null
    candidates.value = []
    result.value = null
    comparedMetric.value = null
  }

  /** After the runs load: the latest finished run as baseline and the headline metric, unless still valid choices. */
  function pickDefaults(): void {
    if (baseline.value === null || !runs.finished.some((r) => r.id === baseline.value)) baseline.value = runs.finished.at(-1)?.id ?? null
    const headline = metricNames.value.find((n) => catalog.metric(n).headline && catalog.metric(n).direction !== 'none')
    if (metric.value === null || !metricNames.value.includes(metric.value)) metric.value = headline ?? metricNames.value[0] ?? null
  }

  // A candidate cannot also be the baseline.
  watch(baseline, (b) => {
    candidates.value = candidates.value.filter((c) => c !== b)
  })

  async function compare(): Promise<void> {
    const workspaceId = runs.workspaceId
    const baselineRunId = baseline.value
    const name = metric.value
    if (!workspaceId || baselineRunId === null || candidates.value.length === 0 || !name) return
    const out = await attempt(() => useApi().call('runs.compare', { workspaceId, baselineRunId, runIds: [...candidates.value], metric: name }))
    if (out) {
      result.value = out
      comparedMetric.value = name
    }
  }

  return { baseline, candidates, metric, result, comparedMetric, metricNames, reset, pickDefaults, compare }
}
