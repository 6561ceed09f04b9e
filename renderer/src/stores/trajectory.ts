import { defineStore } from 'pinia'
import { computed, ref, shallowRef } from 'vue'
import type { RouteOutput } from '../../../preload/contract'
import { useApi } from '../api'
import { attemptInto } from './attempt'
import { useCatalogStore } from './catalog'
import { pathGraph, type PathGraph } from './episode-graph'
import { locateShown, noLocations, withLocated, type DocumentLocations } from './episode-locations'
import { rewardOf } from './episode-reward'
import { useTrainingCatalogStore } from './training-catalog'

export type Episode = RouteOutput<'runs.episode'>
export type Comparable = RouteOutput<'runs.comparable'>
export type { PathGraph } from './episode-graph'
export type { DocumentLocations } from './episode-locations'
export type { RewardBreakdown } from './episode-reward'

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
  const locations = shallowRef<DocumentLocations>(noLocations())
  const error = ref<string | null>(null)
  const attempt = attemptInto(error)
  const showNoneFound = (message: string): void => {
    graphError.value = message
  }

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
      locations.value = noLocations()
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
      main && !sameMain ? pathGraph(workspaceId.value, main, showNoneFound).then((g) => setGraph('episode', g)) : Promise.resolve(),
      second ? pathGraph(workspaceId.value, second, showNoneFound).then((g) => setGraph('other', g)) : Promise.resolve(),
      ...[main && !sameMain ? main : null, second].map((ep) => (ep ? locate(w, ep, k) : Promise.resolve())),
    ])
  }

  /** Adds the documents of the episode's sentences and chunks to `locations` (a failure only leaves the links out). */
  async function locate(w: string, ep: Episode, k: string): Promise<void> {
    const out = await locateShown(w, ep)
    if (out && key.value === k) locations.value = withLocated(locations.value, out)
  }

  async function loadComparable(w: string, episodeId: number, k: string): Promise<void> {
    if (comparable.value) return
    const out = await attempt(() => useApi().call('runs.comparable', { workspaceId: w, episodeId }))
    if (out && key.value === k) comparable.value = out
  }

  function select(index: number): void {
    if (stepCount.value === 0) return
    step.value = Math.min(stepCount.value - 1, Math.max(0, index))
  }
  const next = (): void => select(step.value + 1)
  const previous = (): void => select(step.value - 1)
  const first = (): void => select(0)
  const last = (): void => select(stepCount.value - 1)

  return { workspaceId, episode, other, step, stepCount, comparable, graphs, graphError, locations, error, load, select, next, previous, first, last, rewardOf }
})
