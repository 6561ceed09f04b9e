import { defineStore } from 'pinia'
import { computed, ref, shallowRef } from 'vue'
import type { GraphEdge, GraphNode, MetricInfo, RouteOutput } from '../../../preload/contract'
import { useApi } from '../api'
import { errorMessage } from '../api/errors'
import { attemptInto } from './attempt'
import { useCatalogStore } from './catalog'
import { useTrainingCatalogStore } from './training-catalog'

export type Episode = RouteOutput<'runs.episode'>
export type Comparable = RouteOutput<'runs.comparable'>

/** The graph around an episode's path: the nodes it visited, the gold sentences, and the nodes joining two of them. */
export interface PathGraph {
  nodes: GraphNode[]
  edges: GraphEdge[]
  /** Nodes of the path or the gold the graph could not show (a rebuilt graph, a missing node), one line each. */
  unavailable: string[]
}

/** An episode's reward at its end: the total and each component, labelled by the metric catalogue. */
export interface RewardBreakdown {
  total: { info: MetricInfo; value: number | null } | null
  components: { info: MetricInfo; value: number | null }[]
}

/** Where the sentences and chunks an episode shows lie: their documents, for the reader links. */
export interface DocumentLocations {
  sentences: ReadonlyMap<number, { documentId: number; ord: number }>
  chunks: ReadonlyMap<number, number>
}

/** Sentence and chunk ids an episode shows: committed sentences, curated and pooled documents (Harness-1 ids are `D<chunk>`). */
function shownIds(ep: Episode): { sentenceIds: number[]; chunkIds: number[] } {
  const sentences = new Set<number>()
  const chunks = new Set<number>()
  const chunkOf = (id: string): void => {
    const m = /^D(\d+)$/.exec(id)
    if (m) chunks.add(Number(m[1]))
  }
  for (const st of ep.steps) {
    for (const c of st.view.committed ?? []) sentences.add(c.sentenceId)
    for (const c of st.view.memory?.curated ?? []) chunkOf(c.id)
    for (const c of st.view.memory?.pool ?? []) chunkOf(c.id)
  }
  return { sentenceIds: [...sentences].slice(0, 5000), chunkIds: [...chunks].slice(0, 5000) }
}

/** Neighbours fetched around each path or gold node; joining nodes kept at most. */
const NEIGHBOURS_PER_NODE = 40
const MAX_CENTRES = 24
const MAX_CONNECTORS = 24

/** Reward metrics: Harness-1's `reward.total` with `reward.<term>`, a training rollout's `train.reward` with `train.reward.<term>`. */
const REWARD_FAMILIES = [
  { total: 'train.reward', prefix: 'train.reward.' },
  { total: 'reward.total', prefix: 'reward.' },
] as const

/**
 * The Trajectory page: one stored episode (and, with `?compare=`, a second one aligned by step), the
 * step being replayed, the graph around each episode's path, and the episodes it can be compared with.
 */
export const useTrajectoryStore = defineStore('trajectory', () => {
  const workspaceId = ref<string | null>(null)
  const episode = ref<Episode | null>(null)
  const other = ref<Episode | null>(null)
  const key = ref<string | null>(null)
  /** Index of the step being shown (aligned: the same index in both episodes). */
  const step = ref(0)
  const comparable = ref<Comparable | null>(null)
  const graphs = shallowRef<{ episode: PathGraph | null; other: PathGraph | null }>({ episode: null, other: null })
  const graphError = ref<string | null>(null)
  const locations = shallowRef<DocumentLocations>({ sentences: new Map(), chunks: new Map() })
  const error = ref<string | null>(null)
  const attempt = attemptInto(error)

  /** Steps of the longer episode: the stepper walks them all, the shorter one shows that it has ended. */
  const stepCount = computed(() => Math.max(episode.value?.steps.length ?? 0, other.value?.steps.length ?? 0))

  const mainKey = ref<string | null>(null)

  /** Loads the episode (and the one compared with); `fresh` (a page opened anew) starts from its first step and reads everything again. */
  async function load(w: string, episodeId: number, compareId: number | null, fresh = false): Promise<void> {
    const k = `${w}/${episodeId}/${compareId ?? ''}`
    if (fresh) mainKey.value = null
    else if (key.value === k && episode.value) return
    key.value = k
    workspaceId.value = w
    // Choosing another episode to compare with keeps the main one, its step and its graph.
    const sameMain = mainKey.value === `${w}/${episodeId}` && episode.value !== null
    if (!sameMain) {
      mainKey.value = `${w}/${episodeId}`
      episode.value = null
      comparable.value = null
      step.value = 0
      graphs.value = { episode: null, other: null }
      locations.value = { sentences: new Map(), chunks: new Map() }
    }
    other.value = null
    graphs.value = { ...graphs.value, other: null }
    graphError.value = null
    const fetchEpisode = (id: number) => attempt(() => useApi().call('runs.episode', { workspaceId: w, episodeId: id }))
    const [main, second] = await Promise.all([sameMain ? Promise.resolve(episode.value) : fetchEpisode(episodeId), compareId !== null ? fetchEpisode(compareId) : Promise.resolve(null)])
    if (key.value !== k) return
    if (main) episode.value = main
    other.value = second ?? null
    if (step.value >= stepCount.value) step.value = Math.max(0, stepCount.value - 1)
    const setGraph = (side: 'episode' | 'other', g: PathGraph): void => {
      if (key.value === k) graphs.value = { ...graphs.value, [side]: g }
    }
    // Training rollouts name their reward terms in the training catalogue.
    await Promise.all([
      useCatalogStore().load(),
      main?.runKind === 'train' || second?.runKind === 'train' ? useTrainingCatalogStore().load() : Promise.resolve(),
      loadComparable(w, episodeId, k),
      main && !sameMain ? pathGraph(main).then((g) => setGraph('episode', g)) : Promise.resolve(),
      second ? pathGraph(second).then((g) => setGraph('other', g)) : Promise.resolve(),
      ...[main && !sameMain ? main : null, second].map((ep) => (ep ? locate(w, ep, k) : Promise.resolve())),
    ])
  }

  /** Adds the documents of the episode's sentences and chunks to `locations` (a failure only leaves the links out). */
  async function locate(w: string, ep: Episode, k: string): Promise<void> {
    const ids = shownIds(ep)
    if (ids.sentenceIds.length === 0 && ids.chunkIds.length === 0) return
    const out = await useApi().call('documents.locate', { workspaceId: w, ...ids }).catch(() => null)
    if (!out || key.value !== k) return
    const sentences = new Map(locations.value.sentences)
    const chunks = new Map(locations.value.chunks)
    for (const s of out.sentences) sentences.set(s.sentenceId, { documentId: s.documentId, ord: s.ord })
    for (const c of out.chunks) chunks.set(c.chunkId, c.documentId)
    locations.value = { sentences, chunks }
  }

  async function loadComparable(w: string, episodeId: number, k: string): Promise<void> {
    if (comparable.value) return
    const out = await attempt(() => useApi().call('runs.comparable', { workspaceId: w, episodeId }))
    if (out && key.value === k) comparable.value = out
  }

  /**
   * The graph around the episode's path: each visited node's and each gold sentence's neighbourhood,
   * kept to those nodes and the ones that join two of them (a shared entity, a paragraph), with every
   * edge among what is kept.
   */
  async function pathGraph(ep: Episode): Promise<PathGraph> {
    const w = workspaceId.value
    if (!w) return { nodes: [], edges: [], unavailable: [] }
    const wanted = [...new Set([...ep.path.map((p) => p.node), ...ep.goldEvidence.sentences.flatMap((s) => (s.sentenceId !== null ? [`s:${s.sentenceId}`] : []))])]
    const centres = wanted.slice(0, MAX_CENTRES)
    const results = await Promise.allSettled(centres.map((center) => useApi().call('graph.neighbourhood', { workspaceId: w, center, depth: 1, limit: NEIGHBOURS_PER_NODE })))
    const nodes = new Map<string, GraphNode>()
    const edges = new Map<string, GraphEdge>()
    const unavailable: string[] = wanted.slice(MAX_CENTRES).map((id) => `${id}: more path and gold nodes than the graph view shows`)
    results.forEach((r, i) => {
      if (r.status === 'rejected') {
        unavailable.push(`${centres[i]}: ${errorMessage(r.reason)}`)
        return
      }
      for (const n of r.value.nodes) nodes.set(n.id, n)
      for (const e of r.value.edges) edges.set(`${e.source}|${e.target}|${e.kind}`, e)
    })
    if (unavailable.length === centres.length && centres.length > 0) graphError.value = `The graph has none of this episode's nodes (${unavailable[0]})`
    const kept = new Set(centres.filter((id) => nodes.has(id)))
    // Joining nodes: adjacent to at least two kept nodes, those joining most first.
    const joins = new Map<string, Set<string>>()
    for (const e of edges.values()) {
      for (const [a, b] of [[e.source, e.target], [e.target, e.source]] as const) {
        if (kept.has(a) && !kept.has(b)) {
          let set = joins.get(b)
          if (!set) joins.set(b, (set = new Set()))
          set.add(a)
        }
      }
    }
    const connectors = [...joins].filter(([, by]) => by.size >= 2).sort((x, y) => y[1].size - x[1].size || x[0].localeCompare(y[0])).slice(0, MAX_CONNECTORS)
    for (const [id] of connectors) kept.add(id)
    return {
      nodes: [...kept].map((id) => nodes.get(id)).filter((n): n is GraphNode => n !== undefined),
      edges: [...edges.values()].filter((e) => kept.has(e.source) && kept.has(e.target)),
      unavailable,
    }
  }

  function select(index: number): void {
    if (stepCount.value === 0) return
    step.value = Math.min(stepCount.value - 1, Math.max(0, index))
  }
  const next = (): void => select(step.value + 1)
  const previous = (): void => select(step.value - 1)
  const first = (): void => select(0)
  const last = (): void => select(stepCount.value - 1)

  /** The episode's reward with each component, by the metric catalogue's labels. */
  function rewardOf(ep: Episode): RewardBreakdown {
    const catalog = useCatalogStore()
    const names = Object.keys(ep.metrics)
    const family = REWARD_FAMILIES.find((f) => names.includes(f.total) || names.some((n) => n.startsWith(f.prefix)))
    if (!family) return { total: null, components: [] }
    const value = (name: string) => ep.metrics[name] ?? null
    return {
      total: names.includes(family.total) ? { info: catalog.metric(family.total), value: value(family.total) } : null,
      components: catalog
        .ordered(names.filter((n) => n.startsWith(family.prefix) && n !== family.total))
        .map((n) => ({ info: catalog.metric(n), value: value(n) })),
    }
  }

  return { workspaceId, episode, other, step, stepCount, comparable, graphs, graphError, locations, error, load, select, next, previous, first, last, rewardOf }
})
