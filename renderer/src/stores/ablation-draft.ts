import { computed, reactive, ref, watch } from 'vue'
import type { AblationDetail, RouteOutput } from '../../../preload/contract'
import { draftOfSaved, newDraft, type AblationDraft } from './ablation-config'
import { policyOptions } from './ablation-policies'
import { rowTemplates, type RowTemplate } from './ablation-rows'
import type { useCatalogStore } from './catalog'
import type { useModelsStore } from './models'
import type { useRunsStore } from './runs'
import type { useTrainingCatalogStore } from './training-catalog'

export interface DraftSources {
  runs: ReturnType<typeof useRunsStore>
  catalog: ReturnType<typeof useCatalogStore>
  trainingCatalog: ReturnType<typeof useTrainingCatalogStore>
  models: ReturnType<typeof useModelsStore>
}

/**
 * The ablation builder's form and what it offers: the base's policies and the row templates of the
 * chosen environment, splits taken whole, and a saved ablation loaded back for editing.
 */
export function useAblationDraft(from: DraftSources) {
  const { runs, catalog, trainingCatalog, models } = from
  const draft = reactive<AblationDraft>(newDraft())
  /** Finished training runs of the workspace: their heads are policies too. */
  const trainedRuns = ref<RouteOutput<'training.runs'>>([])
  const environment = computed(() => catalog.environment(draft.environment))
  const headDriven = computed(() => (trainingCatalog.catalog?.environments ?? []).some((e) => e.name === draft.environment && e.headDriven))

  const policies = computed(() => policyOptions(draft, { catalog, trainingCatalog, models, trainedRuns: trainedRuns.value, headDriven: headDriven.value }))
  const basePolicy = computed(() => policies.value.find((p) => p.key === draft.policyKey)?.policy ?? null)
  const templates = computed<RowTemplate[]>(() => {
    const env = environment.value
    return env ? rowTemplates(env, { catalog, trainingCatalog, models, policies: policies.value, basePolicyKey: draft.policyKey, headDriven: headDriven.value }) : []
  })

  /**
   * Choosing a split takes all of it: Questions becomes the split's size (23 on the demo's test split, not 20), the
   * offset 0; likewise the training rows' split. A set with splits starts on test (evaluated) and train (trained),
   * as the Training launcher does.
   */
  const splitsOf = (setId: number | null) => runs.questionSets.find((s) => s.id === setId)?.splits ?? []
  function takeSplit(which: 'eval' | 'train'): void {
    const name = which === 'eval' ? draft.split : draft.trainSplit
    const chosen = splitsOf(draft.questionSetId).find((s) => s.name === name)
    if (!chosen) return
    if (which === 'eval') Object.assign(draft, { offset: 0, limit: Math.max(1, chosen.count) })
    else Object.assign(draft, { trainOffset: 0, trainLimit: Math.max(1, chosen.count) })
  }
  function takeSetDefaults(): void {
    const names = new Set(splitsOf(draft.questionSetId).map((s) => s.name))
    draft.split = names.has('test') ? 'test' : ''
    draft.trainSplit = names.has('train') ? 'train' : ''
    takeSplit('eval')
    takeSplit('train')
  }

  const chosenRows = computed(() => draft.chosen.flatMap((k) => templates.value.filter((t) => t.key === k && !t.disabled).map((t) => t.row)))
  const seeds = computed(() => draft.seeds.split(/[\s,]+/).filter(Boolean).map(Number))

  // A choice the new environment does not offer is dropped, so the form never holds a stale row.
  watch(templates, (ts) => {
    draft.chosen = draft.chosen.filter((k) => ts.some((t) => t.key === k && !t.disabled))
    if (!policies.value.some((p) => p.key === draft.policyKey)) draft.policyKey = policies.value[0]?.key ?? ''
  })

  /** Loads a saved ablation's config into the form (to change it and save it under a new name). */
  function edit(detail: AblationDetail): void {
    Object.assign(draft, draftOfSaved(detail))
    draft.chosen = detail.config.rows.flatMap((r) => templates.value.filter((t) => JSON.stringify(t.row) === JSON.stringify(r)).map((t) => t.key))
  }

  return { draft, trainedRuns, policies, basePolicy, templates, chosenRows, seeds, takeSplit, takeSetDefaults, edit }
}
