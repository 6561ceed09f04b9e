import { defineStore } from 'pinia'
import { computed, ref } from 'vue'
import { judgedMetric, type MetricInfo, type RouteOutput } from '../../../preload/contract'
import { useApi } from '../api'
import { attemptInto } from './attempt'

export type Catalog = RouteOutput<'harness.catalog'>
export type EnvironmentDecl = Catalog['environments'][number]
export type ScriptedPolicyDecl = Catalog['scriptedPolicies'][number]

/** A readable stand-in for a metric the backend's catalogue does not list (it lists every metric it stores). */
const unknownMetric = (name: string): MetricInfo => ({ name, label: name, description: `Stored metric "${name}"`, direction: 'none', format: 'number', group: 'Other', level: 'episode', headline: false })

/**
 * What the backend declares, loaded once: environments (family, protocol, reward scheme, presets),
 * scripted policies with the protocols they drive, the Harness-1 weights and the metric catalogue.
 * Pages decide what to offer from these declarations, never from environment names.
 */
export const useCatalogStore = defineStore('catalog', () => {
  const catalog = ref<Catalog | null>(null)
  const error = ref<string | null>(null)
  const attempt = attemptInto(error)
  let loading: Promise<void> | null = null

  function load(): Promise<void> {
    if (catalog.value) return Promise.resolve()
    loading ??= attempt(() => useApi().call('harness.catalog', {})).then((out) => {
      if (out) catalog.value = out
      loading = null
    })
    return loading
  }

  const environments = computed(() => catalog.value?.environments ?? [])
  const environment = (name: string): EnvironmentDecl | undefined => environments.value.find((e) => e.name === name)
  /** Scripted policies that drive the environment's protocol. */
  const policiesFor = (name: string): ScriptedPolicyDecl[] => {
    const env = environment(name)
    return env ? (catalog.value?.scriptedPolicies ?? []).filter((p) => p.protocols.includes(env.protocol)) : []
  }
  /** Whether runs of the environment store the Harness-1 reward, whose weights a launch may edit. */
  const usesHarness1Reward = (name: string): boolean => environment(name)?.rewardScheme === 'harness1'

  /** Descriptions other catalogues add (the training catalogue's diagnostics); the harness catalogue's own entries win. */
  const extraMetrics = ref<MetricInfo[]>([])
  function addMetrics(infos: readonly MetricInfo[]): void {
    const known = new Set(extraMetrics.value.map((m) => m.name))
    extraMetrics.value = [...extraMetrics.value, ...infos.filter((m) => !known.has(m.name))]
  }
  const metricsByName = computed(() => new Map([...extraMetrics.value, ...(catalog.value?.metrics ?? [])].map((m) => [m.name, m])))
  const metric = (name: string): MetricInfo => metricsByName.value.get(name) ?? unknownMetric(name)
  /** Names in catalogue order (grouped, headline first within the catalogue's own order); unknown names last, sorted. */
  const ordered = (names: Iterable<string>): string[] => {
    const index = new Map((catalog.value?.metrics ?? []).map((m, i) => [m.name, i]))
    return [...new Set(names)].sort((a, b) => (index.get(a) ?? Infinity) - (index.get(b) ?? Infinity) || a.localeCompare(b))
  }
  /** Names grouped under their catalogue group, in catalogue order. */
  const grouped = (names: Iterable<string>): { group: string; metrics: MetricInfo[] }[] => {
    const out: { group: string; metrics: MetricInfo[] }[] = []
    for (const name of ordered(names)) {
      const info = metric(name)
      let g = out.find((x) => x.group === info.group)
      if (!g) out.push((g = { group: info.group, metrics: [] }))
      g.metrics.push(info)
    }
    return out
  }

  /** Metric columns of the run and episode tables: the headline metrics unless the user picked others. */
  const picked = ref<string[] | null>(null)
  const shownMetrics = computed(() => new Set(picked.value ?? (catalog.value?.metrics ?? []).filter((m) => m.headline).map((m) => m.name)))
  function toggleMetric(name: string, on: boolean): void {
    const next = new Set(shownMetrics.value)
    if (on) next.add(name)
    else next.delete(name)
    picked.value = [...next]
  }
  /** The metric a table of these stored names is judged by (SP F1 on sentence gold, paragraph F1 on paragraph gold), as training and compare judge. */
  const judged = (available: Iterable<string>): string | null => {
    const names = new Set(available)
    return judgedMetric(catalog.value?.metrics ?? [], (m) => names.has(m))
  }
  /**
   * Of `available` (names stored in what the table shows), those to show as columns: the judged metric first
   * (a table never opens on the answerer's EM), then the rest in catalogue order.
   */
  const columns = (available: Iterable<string>): MetricInfo[] => {
    const names = ordered(available)
    const first = judged(names)
    return [...(first !== null && shownMetrics.value.has(first) ? [first] : []), ...names.filter((n) => n !== first && shownMetrics.value.has(n))].map(metric)
  }

  return { catalog, error, load, addMetrics, environments, environment, policiesFor, usesHarness1Reward, metric, ordered, grouped, shownMetrics, toggleMetric, judged, columns }
})
