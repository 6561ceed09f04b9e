import { defineStore } from 'pinia'
import { computed, ref } from 'vue'
import { trainedPolicyLabel, type Job, type PolicySpec, type RouteInput, type RouteOutput, type RunStorage, type RunSummary, type TrainingRunSummary } from '../../../preload/contract'
import { useApi } from '../api'
import { attemptInto } from './attempt'
import { liveSubscriptions } from './live'
import { useCatalogStore } from './catalog'
import { useJobsStore } from './jobs'

export type EvalInput = Extract<RouteInput<'job.start'>, { kind: 'eval.run' }>['params']

/** A policy a training run trained, offered wherever a policy is chosen. */
export interface TrainedPolicy {
  key: string
  /** "head · training run 3 · step 20 · claim 1 (ablation #4) · credit: SNC · seed 1 (graph-menu, snc credit)": the run's name says which arm it was. */
  label: string
  run: TrainingRunSummary
  spec: Extract<PolicySpec, { kind: 'head' | 'gguf-run' }>
  /** The checkpoints it can play: every completed step of a head (0..last), the last step's weights of a GGUF run. */
  steps: { first: number; last: number }
}

/**
 * The policies of the training runs that completed a step (a head, or GGUF weights): finished runs, and
 * stopped or failed ones at their checkpoints, each named by its run, step and what the run was.
 */
export function trainedPolicies(training: readonly TrainingRunSummary[]): TrainedPolicy[] {
  return training.flatMap((run) => {
    if (run.status === 'running' || run.lastStep === null) return []
    const spec = run.learner === 'gguf' ? { kind: 'gguf-run' as const, trainingRun: run.id } : { kind: 'head' as const, trainingRun: run.id }
    const stopped = run.status === 'done' ? '' : ` (${run.status} at step ${run.lastStep})`
    const what = `${run.name ? ` · ${run.name}` : ''} (${run.environment}, ${run.credit} credit)`
    return [{ key: `${spec.kind}:${run.id}`, label: `${trainedPolicyLabel(run.learner, run.id, run.lastStep)}${stopped}${what}`, run, spec, steps: { first: run.learner === 'gguf' ? run.lastStep : 0, last: run.lastStep } }]
  })
}

/** Runs of one workspace (Runs and Ablations pages): the run list with aggregates, question sets to launch on, launches; refreshed as runs end while held live. */
export const useRunsStore = defineStore('runs', () => {
  const workspaceId = ref<string | null>(null)
  const runs = ref<RunSummary[]>([])
  /** The workspace's training runs: their trained heads and GGUF weights are policies too. */
  const training = ref<TrainingRunSummary[]>([])
  const trained = computed(() => trainedPolicies(training.value))
  const questionSets = ref<RouteOutput<'questions.sets'>>([])
  const loaded = ref(false)
  /** Stored bytes per run id (Runs page disk column). */
  const storage = ref<Record<number, RunStorage>>({})
  const error = ref<string | null>(null)
  const attempt = attemptInto(error)

  // Evaluations with episodes (training runs' rollouts are not evaluations: they are compared in the Training section).
  const finished = computed(() => runs.value.filter((r) => r.kind !== 'train' && r.episodes > 0))
  /** Metric names any run of the workspace aggregates. */
  const metricNames = computed(() => [...new Set(runs.value.filter((r) => r.kind !== 'train').flatMap((r) => Object.keys(r.metrics)))])

  const { live } = liveSubscriptions(() => [
    useApi().on('job.status', (job: Job) => {
      if ((job.kind === 'eval.run' || job.kind === 'train.run') && job.workspaceId === workspaceId.value) void refresh()
    }),
  ])

  async function refresh(): Promise<void> {
    const id = workspaceId.value
    if (!id) return
    const [list, sizes, trainingRuns] = await Promise.all([
      attempt(() => useApi().call('runs.list', { workspaceId: id })),
      attempt(() => useApi().call('runs.storage', { workspaceId: id })),
      attempt(() => useApi().call('training.runs', { workspaceId: id })),
    ])
    if (list && workspaceId.value === id) runs.value = list
    if (trainingRuns && workspaceId.value === id) training.value = trainingRuns
    if (sizes && workspaceId.value === id) storage.value = Object.fromEntries(sizes.map((s) => [s.runId, s]))
  }

  /** Drops a run's stored steps, keeping its per-question results; `confirm` is the run's name. */
  async function prune(runId: number, confirm: string): Promise<RouteOutput<'runs.prune'> | undefined> {
    const id = workspaceId.value
    if (!id) return undefined
    const out = await attempt(() => useApi().call('runs.prune', { workspaceId: id, runId, confirm }))
    if (out) await refresh()
    return out
  }

  async function load(id: string): Promise<void> {
    if (workspaceId.value !== id) {
      workspaceId.value = id
      runs.value = []
      training.value = []
      storage.value = {}
      questionSets.value = []
      loaded.value = false
    }
    await Promise.all([
      useCatalogStore().load(),
      refresh(),
      attempt(() => useApi().call('questions.sets', { workspaceId: id })).then((sets) => {
        if (sets && workspaceId.value === id) questionSets.value = sets
      }),
    ])
    if (workspaceId.value === id) loaded.value = true
  }

  async function launch(params: EvalInput): Promise<Job | undefined> {
    const id = workspaceId.value
    if (!id) return undefined
    return useJobsStore().start({ kind: 'eval.run', workspaceId: id, params })
  }

  const nameOf = (runId: number): string => {
    const r = runs.value.find((x) => x.id === runId)
    return r ? `#${r.id} ${r.name}` : `#${runId}`
  }

  return { workspaceId, runs, training, trained, storage, questionSets, loaded, finished, metricNames, error, live, load, refresh, launch, prune, nameOf }
})
