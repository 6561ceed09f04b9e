import { defineStore } from 'pinia'
import { computed, onScopeDispose, ref } from 'vue'
import type { EpisodeFilterInput, RouteOutput } from '../../../preload/contract'
import { useApi } from '../api'
import { attemptInto } from './attempt'
import { useCatalogStore } from './catalog'
import { useTrainingCatalogStore } from './training-catalog'

export type EpisodePage = RouteOutput<'runs.episodes'>
export type Comparable = RouteOutput<'runs.comparable'>

/** What the Run page's filter form edits; empty fields filter nothing. */
export interface FilterForm {
  question: string
  /** '' (any), or correct / wrong judged by the answer or by the supporting facts. */
  correctness: '' | 'correct:answer' | 'wrong:answer' | 'correct:sp' | 'wrong:sp'
  rewardMin: number | null
  rewardMax: number | null
  formatErrors: '' | 'none' | 'some'
  endReason: string
  trainStep: number | null
}

export const emptyFilter = (): FilterForm => ({ question: '', correctness: '', rewardMin: null, rewardMax: null, formatErrors: '', endReason: '', trainStep: null })

/** The filter as the backend takes it (only the fields that filter something). */
export function toFilter(form: FilterForm): EpisodeFilterInput {
  const out: EpisodeFilterInput = {}
  if (form.question.trim()) out.question = form.question.trim()
  if (form.correctness) {
    const [correct, by] = form.correctness.split(':')
    out.correct = correct === 'correct' ? 'correct' : 'wrong'
    out.correctBy = by === 'sp' ? 'sp' : 'answer'
  }
  if (form.rewardMin !== null && Number.isFinite(form.rewardMin)) out.rewardMin = form.rewardMin
  if (form.rewardMax !== null && Number.isFinite(form.rewardMax)) out.rewardMax = form.rewardMax
  if (form.formatErrors) out.formatErrors = form.formatErrors
  if (form.endReason) out.endReason = form.endReason
  if (form.trainStep !== null) out.trainStep = form.trainStep
  return out
}

/** Pause after typing in the question search before asking the backend. */
const SEARCH_DELAY_MS = 250

/** One run's per-question results (Run page): filtered and paged by the backend, with the episodes each can be compared with. */
export const useRunStore = defineStore('run', () => {
  const workspaceId = ref<string | null>(null)
  const runId = ref<number | null>(null)
  const page = ref<EpisodePage | null>(null)
  const filter = ref<FilterForm>(emptyFilter())
  const offset = ref(0)
  const pageSize = ref(100)
  /** The episode whose "compare with…" list is open, and that list. */
  const comparing = ref<number | null>(null)
  const comparable = ref<Comparable | null>(null)
  const error = ref<string | null>(null)
  const attempt = attemptInto(error)
  let seq = 0
  let timer: ReturnType<typeof setTimeout> | undefined
  onScopeDispose(() => clearTimeout(timer))

  /** Metric names the run's episodes store. */
  const metricNames = computed(() => [...new Set((page.value?.episodes ?? []).flatMap((e) => Object.keys(e.metrics)))])
  const filtered = computed(() => Object.keys(toFilter(filter.value)).length > 0)

  async function fetchPage(): Promise<void> {
    const w = workspaceId.value
    const r = runId.value
    if (!w || r === null) return
    const n = ++seq
    const out = await attempt(() => useApi().call('runs.episodes', { workspaceId: w, runId: r, offset: offset.value, limit: pageSize.value, filter: toFilter(filter.value) }))
    if (out && n === seq) {
      page.value = out
      if (out.runKind === 'train') await useTrainingCatalogStore().load()
    }
  }

  async function load(w: string, r: number): Promise<void> {
    if (workspaceId.value !== w || runId.value !== r) {
      page.value = null
      filter.value = emptyFilter()
      offset.value = 0
      comparing.value = null
      comparable.value = null
    }
    workspaceId.value = w
    runId.value = r
    await Promise.all([fetchPage(), useCatalogStore().load()])
  }

  /** Changes filter fields and reloads from the first page; typing in the question search waits for a pause. */
  function setFilter(patch: Partial<FilterForm>): void {
    filter.value = { ...filter.value, ...patch }
    offset.value = 0
    clearTimeout(timer)
    if ('question' in patch && Object.keys(patch).length === 1) timer = setTimeout(() => void fetchPage(), SEARCH_DELAY_MS)
    else void fetchPage()
  }

  function clearFilter(): void {
    setFilter(emptyFilter())
  }

  function goTo(nextOffset: number): void {
    const total = page.value?.total ?? 0
    offset.value = Math.max(0, Math.min(nextOffset, Math.max(0, total - 1)))
    void fetchPage()
  }

  /** Opens (or closes) the "compare with…" list of an episode. */
  async function toggleCompare(episodeId: number): Promise<void> {
    if (comparing.value === episodeId) {
      comparing.value = null
      return
    }
    const w = workspaceId.value
    if (!w) return
    comparing.value = episodeId
    comparable.value = null
    const out = await attempt(() => useApi().call('runs.comparable', { workspaceId: w, episodeId }))
    if (out && comparing.value === episodeId) comparable.value = out
  }

  return { workspaceId, runId, page, filter, filtered, offset, pageSize, comparing, comparable, metricNames, error, load, setFilter, clearFilter, goTo, toggleCompare }
})
