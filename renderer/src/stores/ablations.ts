import { defineStore } from 'pinia'
import { ref } from 'vue'
import { useApi } from '../api'
import { configOfDraft } from './ablation-config'
import { useAblationDraft } from './ablation-draft'
import { attemptInto } from './attempt'
import { useCatalogStore } from './catalog'
import { useJobsStore } from './jobs'
import { useModelsStore } from './models'
import { useRunComparison } from './run-comparison'
import { useRunsStore } from './runs'
import { useSavedAblations } from './saved-ablations'
import { useTrainingCatalogStore } from './training-catalog'

export type { RowTemplate } from './ablation-rows'

/**
 * Ablations page: the ablation matrix (a base, rows chosen from what the environments, policies, credit
 * schemes, estimators and reward presets declare, seeds and a split, launched as one ablation.run job;
 * saved ablations re-opened with their stored results) and the pairwise comparison of runs.
 */
export const useAblationsStore = defineStore('ablations', () => {
  const runs = useRunsStore()
  const catalog = useCatalogStore()
  const trainingCatalog = useTrainingCatalogStore()
  const models = useModelsStore()
  const error = ref<string | null>(null)
  const attempt = attemptInto(error)

  // ── the matrix ───────────────────────────────────────────────────────────────────────────────
  const form = useAblationDraft({ runs, catalog, trainingCatalog, models })
  const { draft } = form
  const saved = useSavedAblations(runs, catalog, attempt)
  const { current, open, refreshList, refreshCurrent } = saved

  async function start(ablationId: number): Promise<void> {
    const id = runs.workspaceId
    if (!id) return
    const job = await useJobsStore().start({ kind: 'ablation.run', workspaceId: id, params: { ablationId } })
    if (!job) {
      error.value = useJobsStore().error
      return
    }
    await open(ablationId)
    if (current.value && current.value.id === ablationId) current.value = { ...current.value, jobId: job.id, status: 'running' }
    await refreshList()
  }

  /** Saves the draft as a named ablation and runs it; a refused config keeps the form as it is. */
  async function saveAndRun(): Promise<void> {
    const id = runs.workspaceId
    const policy = form.basePolicy.value
    if (!id || !policy || draft.questionSetId === null) return
    const questionSetId = draft.questionSetId
    const out = await attempt(() => useApi().call('ablations.save', { workspaceId: id, name: draft.name, config: configOfDraft(draft, policy, questionSetId, form.seeds.value, form.chosenRows.value) }))
    if (!out) return
    current.value = out
    await start(out.id)
  }

  /** Stops the running ablation's job; its finished cells stay and a later run resumes from them. */
  async function cancel(): Promise<void> {
    const jobId = current.value?.jobId
    if (!jobId) return
    await useJobsStore().cancel(jobId)
    await refreshCurrent()
  }

  async function rerun(ablationId: number): Promise<void> {
    const id = runs.workspaceId
    if (!id) return
    const copy = await attempt(() => useApi().call('ablations.rerun', { workspaceId: id, id: ablationId }))
    if (copy) await start(copy.id)
  }

  async function remove(ablationId: number): Promise<void> {
    const id = runs.workspaceId
    if (!id) return
    const out = await attempt(() => useApi().call('ablations.delete', { workspaceId: id, id: ablationId }))
    if (out && current.value?.id === ablationId) current.value = null
    await refreshList()
  }

  // ── pairwise comparison of runs ────────────────────────────────────────────────────────────────
  const comparison = useRunComparison(runs, catalog, attempt)

  async function load(workspaceId: string): Promise<void> {
    if (runs.workspaceId !== workspaceId) {
      comparison.reset()
      current.value = null
      saved.list.value = []
      draft.questionSetId = null
    }
    await Promise.all([runs.load(workspaceId), trainingCatalog.load(), models.refresh()])
    form.trainedRuns.value = await useApi().call('training.runs', { workspaceId }).catch(() => [])
    await refreshList()
    if (draft.questionSetId === null) {
      draft.questionSetId = runs.questionSets[0]?.id ?? null
      form.takeSetDefaults()
    }
    comparison.pickDefaults()
  }

  return {
    error,
    // matrix
    list: saved.list, current, draft, chartMetric: saved.chartMetric, policies: form.policies, templates: form.templates, chosenRows: form.chosenRows, seeds: form.seeds,
    takeSplit: form.takeSplit, takeSetDefaults: form.takeSetDefaults, live: saved.live, refreshList, refreshCurrent, open, start, cancel, saveAndRun, rerun, remove, edit: form.edit,
    // comparison
    baseline: comparison.baseline, candidates: comparison.candidates, metric: comparison.metric, result: comparison.result, comparedMetric: comparison.comparedMetric,
    metricNames: comparison.metricNames, load, compare: comparison.compare,
  }
})
