import { defineStore } from 'pinia'
import { computed, reactive, ref, watch } from 'vue'
import { GgufTrainSchema, judgedMetric, type AblationDetail, type AblationPolicy, type AblationRowInput, type AblationSummary, type GgufTrainConfig, type Job, type RouteOutput } from '../../../preload/contract'
import { useApi } from '../api'
import { attemptInto } from './attempt'
import { useCatalogStore } from './catalog'
import { liveSubscriptions } from './live'
import { useJobsStore } from './jobs'
import { useModelsStore } from './models'
import { trainedPolicies, useRunsStore } from './runs'
import { useTrainingCatalogStore } from './training-catalog'

/** A row the builder offers: a delta over the base, grouped; `disabled` says plainly why it cannot be chosen here. */
export interface RowTemplate {
  key: string
  group: string
  label: string
  row: AblationRowInput
  disabled: string | null
}

const policyKey = (p: AblationPolicy): string =>
  p.kind === 'scripted' ? `scripted:${p.name}`
  : p.kind === 'head' ? ('stage' in p ? `head:${p.stage}` : `head:run:${p.trainingRun}:${p.step ?? 'last'}`)
  : p.kind === 'head-file' ? `head-file:${p.path}`
  : p.kind === 'gguf-run' ? `gguf-run:${p.trainingRun}`
  : p.kind === 'llm' ? `llm:${p.modelPath}` : `lora:${p.modelPath}:${p.loraPath}`

/** The contract's GGUF training defaults, with no model chosen yet. */
const ggufDefaults = (): GgufTrainConfig => ({ ...GgufTrainSchema.parse({ modelPath: '-' }), modelPath: '' })

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
  const list = ref<AblationSummary[]>([])
  const current = ref<AblationDetail | null>(null)
  const draft = reactive({
    name: '',
    environment: 'graph-menu',
    policyKey: 'scripted:greedy',
    questionSetId: null as number | null,
    /** A stored split to evaluate on ('' = the whole set); training rows train on `trainSplit`. */
    split: '',
    offset: 0,
    limit: 20,
    seeds: '1',
    parallel: 0,
    trainSplit: '',
    trainOffset: 20,
    trainLimit: 20,
    steps: 4,
    /** What the training rows train: the head (features), or a registered F32 GGUF policy's own weights (`gguf`). */
    trainKind: 'head' as 'head' | 'gguf',
    gguf: ggufDefaults(),
    chosen: [] as string[],
  })
  /** The metric the charts show. */
  const chartMetric = ref<string | null>(null)

  /** Finished training runs of the workspace: their heads are policies too. */
  const trainedRuns = ref<RouteOutput<'training.runs'>>([])
  const environment = computed(() => catalog.environment(draft.environment))
  const headDriven = computed(() => (trainingCatalog.catalog?.environments ?? []).some((e) => e.name === draft.environment && e.headDriven))

  /** Policies the base (and policy rows) can use in the chosen environment. */
  const policies = computed(() => {
    const out: { key: string; label: string; policy: AblationPolicy }[] = catalog.policiesFor(draft.environment).map((p) => ({ key: `scripted:${p.name}`, label: `scripted: ${p.name}`, policy: { kind: 'scripted', name: p.name } }))
    if (headDriven.value) {
      out.push({ key: 'head:before', label: 'head before training', policy: { kind: 'head', stage: 'before' } })
      // With GGUF training chosen, "after training" plays the trained GGUF weights, not a head.
      // Says what it does: each of its cells trains first (the short run below), then evaluates what it trained.
      const training = `outcome, ${draft.steps} step${draft.steps === 1 ? '' : 's'}`
      out.push({ key: 'head:after', label: draft.trainKind === 'gguf' ? `trains new GGUF weights: ${training}` : `trains a new head: ${training}`, policy: { kind: 'head', stage: 'after' } })
    }
    // A training run's head or GGUF weights (finished, or stopped at a checkpoint) evaluate as an ordinary policy where they speak the environment's protocol.
    const envs = trainingCatalog.catalog?.environments ?? []
    const protocol = envs.find((e) => e.name === draft.environment)?.protocol
    for (const t of trainedPolicies(trainedRuns.value)) {
      if (envs.find((e) => e.name === t.run.environment)?.protocol !== protocol) continue
      out.push({ key: policyKey(t.spec), label: t.label, policy: t.spec })
    }
    // A file trained here says which run and step wrote it (its name alone, "step-1.gguf", does not).
    const trainedBy = (m: (typeof models.models)[number]): string => (m.provenance ? ` (trained by run #${m.provenance.runId}, step ${m.provenance.step})` : '')
    for (const m of models.models.filter((x) => x.role === 'policy')) out.push({ key: `llm:${m.path}`, label: `GGUF: ${m.name}${trainedBy(m)}`, policy: { kind: 'llm', modelPath: m.path, temperature: 0, topK: 0, topP: 1 } })
    return out
  })
  const basePolicy = computed(() => policies.value.find((p) => p.key === draft.policyKey)?.policy ?? null)

  const templates = computed<RowTemplate[]>(() => {
    const env = environment.value
    if (!env) return []
    const out: RowTemplate[] = []
    const add = (group: string, key: string, label: string, row: Omit<AblationRowInput, 'label' | 'group'>, disabled: string | null = null) => out.push({ key, group, label, row: { label, group, ...row }, disabled })
    const family = env.family === 'harness-1' ? 'Harness-1 switches' : 'Presets'
    for (const p of env.presets) if (Object.keys(p.delta).length > 0) add(family, `preset:${p.name}`, p.label, { preset: p.name })
    for (const other of catalog.environments.filter((e) => e.family === env.family && e.name !== env.name)) {
      add(env.family === 'harness-g' ? 'Menu vs free query' : 'Environment', `env:${other.name}`, other.name, { environment: other.name })
    }
    for (const p of policies.value) if (p.key !== draft.policyKey) add('Policy', `policy:${p.key}`, p.label, { policy: p.policy })
    // Edits over the published Harness-1 weights, scored on the same episodes' rewards (offered where the keys exist).
    if (catalog.usesHarness1Reward(env.name)) {
      const published = catalog.catalog?.rewardWeights ?? {}
      const variants: [string, string, Record<string, number>][] = [
        ['no-diversity', 'reward weights: w/o tool diversity', { diversity: 0, toolShortfall: 0 }],
        ['no-answer-gap', 'reward weights: w/o answer-gap penalty', { answerGap: 0 }],
        ['no-turn-penalty', 'reward weights: w/o turn penalty', { turnPenaltyMax: 0 }],
      ]
      for (const [key, label, weights] of variants) if (Object.keys(weights).every((k) => Object.hasOwn(published, k))) add('Reward weights (evaluation)', `weights:${key}`, label, { rewardWeights: weights })
    }
    const adapters = models.models.filter((m) => m.role === 'adapter')
    const base = models.models.find((m) => m.role === 'policy')
    if (base && adapters.length > 0) for (const a of adapters) add('Policy', `lora:${a.path}`, `GGUF + LoRA: ${base.name} + ${a.name}`, { policy: { kind: 'llm-lora', modelPath: base.path, loraPath: a.path } })
    else add('Policy', 'lora:none', 'GGUF + LoRA', {}, 'Register a GGUF model and a LoRA adapter on the Models page first')
    const tc = trainingCatalog.catalog
    const noHead = headDriven.value ? null : `The policy head does not drive ${env.name}`
    if (tc) {
      const usable = new Set(trainingCatalog.creditFor(env.name).map((c) => c.name))
      for (const c of tc.credit) add('Credit (training)', `credit:${c.name}`, `credit: ${c.label}`, { training: { credit: { scheme: c.name, lambda: 0.5 } } }, noHead ?? (usable.has(c.name) ? null : `${c.label} reads menu previews; ${env.name} has none`))
      for (const e of tc.estimators) add('Estimator (training)', `estimator:${e.name}`, `estimator: ${e.label}`, { training: { estimator: e.name } }, noHead)
      for (const r of tc.rewardPresets) add('Reward weights (training)', `reward:${r.name}`, `reward: ${r.label}`, { training: { reward: r.reward } }, noHead)
    }
    return out
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

  const { live } = liveSubscriptions(() => {
    const api = useApi()
    return [
      api.on('job.progress', (p) => {
        if (current.value && p.jobId === current.value.jobId) void refreshCurrent()
      }),
      api.on('job.status', (job: Job) => {
        if (job.kind !== 'ablation.run' || job.workspaceId !== runs.workspaceId) return
        void refreshList()
        if (current.value && job.params.ablationId === current.value.id) void refreshCurrent()
      }),
    ]
  })

  async function refreshList(): Promise<void> {
    const id = runs.workspaceId
    if (!id) return
    const out = await attempt(() => useApi().call('ablations.list', { workspaceId: id }))
    if (out && runs.workspaceId === id) list.value = out
  }

  // One refresh in flight; events arriving meanwhile ask for one more after it.
  let refreshing: Promise<void> | null = null
  let again = false
  async function refreshCurrent(): Promise<void> {
    if (refreshing) {
      again = true
      return refreshing
    }
    refreshing = (async () => {
      do {
        again = false
        const id = runs.workspaceId
        const ablation = current.value?.id
        if (!id || ablation === undefined) return
        const out = await attempt(() => useApi().call('ablations.get', { workspaceId: id, id: ablation }))
        if (out && current.value?.id === ablation) current.value = out
      } while (again)
    })().finally(() => {
      refreshing = null
    })
    return refreshing
  }

  async function open(ablationId: number): Promise<void> {
    const id = runs.workspaceId
    if (!id) return
    const out = await attempt(() => useApi().call('ablations.get', { workspaceId: id, id: ablationId }))
    if (out) {
      current.value = out
      if (!chartMetric.value || !out.results?.metrics.includes(chartMetric.value)) {
        // The first chart is the metric training judges by at this gold level (SP F1 or paragraph F1), as compare's default.
        const stored = out.results?.metrics ?? []
        chartMetric.value = judgedMetric(catalog.catalog?.metrics ?? [], (m) => stored.includes(m)) ?? stored.find((m) => catalog.metric(m).headline && catalog.metric(m).direction !== 'none') ?? stored[0] ?? null
      }
    }
  }

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
    const policy = basePolicy.value
    if (!id || !policy || draft.questionSetId === null) return
    const saved = await attempt(() =>
      useApi().call('ablations.save', {
        workspaceId: id,
        name: draft.name,
        config: {
          base: {
            environment: draft.environment,
            policy,
            questionSetId: draft.questionSetId!,
            ...(draft.split ? { split: draft.split } : {}),
            offset: draft.offset,
            limit: draft.limit,
            seeds: seeds.value,
            training: {
              ...(draft.trainSplit ? { split: draft.trainSplit } : {}),
              offset: draft.trainOffset,
              limit: draft.trainLimit,
              steps: draft.steps,
              evalInterval: Math.max(1, Math.ceil(draft.steps / 4)),
              // Every training row then trains this model's own weights and evaluates the trained weights (the builder asks for a model when it has training rows).
              ...(draft.trainKind === 'gguf' && draft.gguf.modelPath !== '' ? { gguf: { ...draft.gguf } } : {}),
            },
          },
          rows: chosenRows.value,
          parallel: draft.parallel,
        },
      }),
    )
    if (!saved) return
    current.value = saved
    await start(saved.id)
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

  /** Loads a saved ablation's config into the form (to change it and save it under a new name). */
  function edit(detail: AblationDetail): void {
    const b = detail.config.base
    Object.assign(draft, { name: `${detail.name} (copy)`, environment: b.environment, policyKey: policyKey(b.policy), questionSetId: b.questionSetId, split: b.split ?? '', trainSplit: b.training.split ?? '', offset: b.offset, limit: b.limit, seeds: b.seeds.join(', '), trainOffset: b.training.offset, trainLimit: b.training.limit, steps: b.training.steps, parallel: detail.config.parallel, trainKind: b.training.gguf ? 'gguf' : 'head', gguf: b.training.gguf ? { ...b.training.gguf } : ggufDefaults() })
    draft.chosen = detail.config.rows.flatMap((r) => templates.value.filter((t) => JSON.stringify(t.row) === JSON.stringify(r)).map((t) => t.key))
  }

  // ── pairwise comparison of runs ────────────────────────────────────────────────────────────────
  const baseline = ref<number | null>(null)
  const candidates = ref<number[]>([])
  const metric = ref<string | null>(null)
  const result = ref<RouteOutput<'runs.compare'> | null>(null)
  /** The metric the result was computed for (the picker may have moved on since). */
  const comparedMetric = ref<string | null>(null)

  /** Metrics to compare on: what the finished runs store, in catalogue order. */
  const metricNames = computed(() => catalog.ordered(runs.finished.flatMap((r) => Object.keys(r.metrics))))

  async function load(workspaceId: string): Promise<void> {
    if (runs.workspaceId !== workspaceId) {
      baseline.value = null
      candidates.value = []
      result.value = null
      comparedMetric.value = null
      current.value = null
      list.value = []
      draft.questionSetId = null
    }
    await Promise.all([runs.load(workspaceId), trainingCatalog.load(), models.refresh()])
    trainedRuns.value = await useApi().call('training.runs', { workspaceId }).catch(() => [])
    await refreshList()
    if (draft.questionSetId === null) {
      draft.questionSetId = runs.questionSets[0]?.id ?? null
      takeSetDefaults()
    }
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

  return {
    error,
    // matrix
    list, current, draft, chartMetric, policies, templates, chosenRows, seeds, takeSplit, takeSetDefaults, live, refreshList, refreshCurrent, open, start, cancel, saveAndRun, rerun, remove, edit,
    // comparison
    baseline, candidates, metric, result, comparedMetric, metricNames, load, compare,
  }
})
