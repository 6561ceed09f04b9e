import { defineStore } from 'pinia'
import { ref } from 'vue'
import type { RouteOutput } from '../../../preload/contract'
import { useApi } from '../api'
import { attemptInto } from './attempt'

export type Episode = RouteOutput<'runs.episode'>

/** One stored episode with its typed steps (Trajectory page). */
export const useTrajectoryStore = defineStore('trajectory', () => {
  const episode = ref<Episode | null>(null)
  const key = ref<string | null>(null)
  const error = ref<string | null>(null)
  const attempt = attemptInto(error)

  async function load(workspaceId: string, episodeId: number): Promise<void> {
    const k = `${workspaceId}/${episodeId}`
    if (key.value !== k) episode.value = null
    key.value = k
    const out = await attempt(() => useApi().call('runs.episode', { workspaceId, episodeId }))
    if (out && key.value === k) episode.value = out
  }

  return { episode, error, load }
})
