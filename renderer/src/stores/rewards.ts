import { defineStore } from 'pinia'
import { computed, ref } from 'vue'
import type { LossParam, SavedTrainConfig, SavedTrainConfigRow } from '../../../preload/contract'
import { useApi } from '../api'
import { attemptInto } from './attempt'
import { useTrainingCatalogStore } from './training-catalog'

const copy = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T

/**
 * The Rewards page: a draft training config (reward weights, Harness-1 weight edits, credit, estimator,
 * loss and its clip bounds, optimiser numbers), presets, and the workspace's named configs
 * (list / save as / load / delete).
 */
export const useRewardsStore = defineStore('rewards', () => {
  const workspaceId = ref<string | null>(null)
  const configs = ref<SavedTrainConfigRow[]>([])
  const draft = ref<SavedTrainConfig | null>(null)
  /** The saved config the draft came from or was last saved as. */
  const loadedName = ref<string | null>(null)
  const notice = ref<string | null>(null)
  const error = ref<string | null>(null)
  const attempt = attemptInto(error)
  const trainingCatalog = useTrainingCatalogStore()

  async function refresh(): Promise<void> {
    const id = workspaceId.value
    if (!id) return
    const list = await attempt(() => useApi().call('training.configs.list', { workspaceId: id }))
    if (list && workspaceId.value === id) configs.value = list
  }

  async function load(id: string): Promise<void> {
    if (workspaceId.value !== id) {
      workspaceId.value = id
      configs.value = []
      loadedName.value = null
      notice.value = null
    }
    await Promise.all([trainingCatalog.load(), refresh()])
    if (!draft.value) reset()
  }

  function reset(): void {
    const defaults = trainingCatalog.catalog?.defaults
    if (defaults) draft.value = copy(defaults)
    loadedName.value = null
  }

  const weight = (term: string): number => draft.value?.reward.weights[term] ?? 0
  function setWeight(term: string, value: number): void {
    if (!draft.value) return
    const weights = { ...draft.value.reward.weights, [term]: value }
    if (value === 0) delete weights[term]
    draft.value.reward.weights = weights
  }

  /** Harness-1 weights are stored as edits over the published values. */
  const usesHarness1 = computed(() => weight('harness1') !== 0)
  const harness1Value = (name: string): number => draft.value?.reward.harness1Weights[name] ?? trainingCatalog.catalog?.harness1Weights.find((w) => w.name === name)?.published ?? 0
  function setHarness1(name: string, value: number): void {
    if (!draft.value) return
    const published = trainingCatalog.catalog?.harness1Weights.find((w) => w.name === name)?.published
    const edits = { ...draft.value.reward.harness1Weights, [name]: value }
    if (value === published) delete edits[name]
    draft.value.reward.harness1Weights = edits
  }

  function applyPreset(name: string): void {
    const preset = trainingCatalog.catalog?.rewardPresets.find((p) => p.name === name)
    if (preset && draft.value) draft.value.reward = copy(preset.reward)
  }
  /** The preset the draft's reward is, or '' for a custom reward. */
  const preset = computed(() => {
    const reward = draft.value?.reward
    const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b)
    const sorted = (r: Record<string, number>, dropZeros = false) => Object.fromEntries(Object.entries(r).filter(([, v]) => !dropZeros || v !== 0).sort(([a], [b]) => a.localeCompare(b)))
    return (
      trainingCatalog.catalog?.rewardPresets.find(
        (p) => reward && same(sorted(p.reward.weights, true), sorted(reward.weights, true)) && same(sorted(p.reward.harness1Weights), sorted(reward.harness1Weights)) && p.reward.normalisation === reward.normalisation,
      )?.name ?? ''
    )
  })

  function setLossParam(key: LossParam, value: number | null): void {
    if (!draft.value) return
    if (key === 'dualClip') draft.value.loss.dualClip = value
    else if (value !== null) draft.value.loss[key] = value
  }

  function open(name: string): void {
    const row = configs.value.find((c) => c.name === name)
    if (!row?.config) {
      error.value = row ? `Saved config "${name}" cannot be loaded: ${row.problem}` : `No saved config "${name}"`
      return
    }
    draft.value = copy(row.config)
    loadedName.value = name
    notice.value = `Loaded "${name}"`
    error.value = null
  }

  async function saveAs(name: string): Promise<boolean> {
    const id = workspaceId.value
    const config = draft.value
    if (!id || !config) return false
    const saved = await attempt(() => useApi().call('training.configs.save', { workspaceId: id, name, config }))
    if (!saved) return false
    loadedName.value = saved.name
    notice.value = `Saved "${saved.name}"`
    await refresh()
    return true
  }

  async function remove(name: string): Promise<void> {
    const id = workspaceId.value
    if (!id) return
    const out = await attempt(() => useApi().call('training.configs.delete', { workspaceId: id, name }))
    if (!out) return
    if (loadedName.value === name) loadedName.value = null
    notice.value = `Deleted "${name}"`
    await refresh()
  }

  return { workspaceId, configs, draft, loadedName, notice, error, load, refresh, reset, weight, setWeight, usesHarness1, harness1Value, setHarness1, applyPreset, preset, setLossParam, open, saveAs, remove }
})
