import { defineStore } from 'pinia'
import { computed, ref } from 'vue'
import type { RouteOutput, TrainingRunSummary } from '../../../preload/contract'
import { useApi } from '../api'
import { attemptInto } from './attempt'
import { coalesce } from './coalesce'
import { pendingAction } from './pending'
import { useTrainingCatalogStore } from './training-catalog'
import { useTrainingJobs } from './training-jobs'
import { launchedRow, newRunParams, type LaunchInput } from './training-launch'
import { useTrainingSelection } from './training-selection'

export type { LaunchedRun, LaunchInput, NewTrainParams } from './training-launch'

/**
 * The Training section of the Runs page: training runs of one workspace with key figures, the selected
 * run's diagnostics and held-out comparison, the rollouts of a chosen step, and launch / stop / resume.
 * While held live it refreshes on the job events of this workspace's training jobs (progress after each
 * step, status at the end), never on a timer.
 */
export const useTrainingStore = defineStore('training', () => {
  const workspaceId = ref<string | null>(null)
  const runs = ref<TrainingRunSummary[]>([])
  const configs = ref<RouteOutput<'training.configs.list'>>([])
  const questionSets = ref<RouteOutput<'questions.sets'>>([])
  /** From the click on Start training until the job exists or is refused: the button waits, a second click starts nothing. */
  const starting = pendingAction()
  const error = ref<string | null>(null)
  const attempt = attemptInto(error)
  const selection = useTrainingSelection(workspaceId, attempt)
  const { selectedId, rollouts } = selection
  const jobs = useTrainingJobs(workspaceId, error, attempt, () => refresh())
  const { pendingJob, launched } = jobs

  const selected = computed(() => runs.value.find((r) => r.id === selectedId.value) ?? null)
  const running = computed(() => runs.value.some((r) => r.status === 'running') || pendingJob.value !== null)

  async function refreshRuns(): Promise<void> {
    const id = workspaceId.value
    if (!id) return
    const list = await attempt(() => useApi().call('training.runs', { workspaceId: id }))
    if (!list || workspaceId.value !== id) return
    runs.value = list
    const started = jobs.listed(list)
    if (started && selectedId.value !== started.id) {
      selectedId.value = started.id
      rollouts.value = null
    }
  }

  // One refresh at a time; events arriving meanwhile ask for one more, not one each.
  const refresh = coalesce(async () => {
    await refreshRuns()
    await selection.refreshDetail()
  })

  async function load(id: string): Promise<void> {
    if (workspaceId.value !== id) {
      workspaceId.value = id
      runs.value = []
      configs.value = []
      questionSets.value = []
      selection.clear()
      jobs.clear()
    }
    await Promise.all([
      useTrainingCatalogStore().load(),
      refresh(),
      attempt(() => useApi().call('training.configs.list', { workspaceId: id })).then((list) => {
        if (list && workspaceId.value === id) configs.value = list
      }),
      attempt(() => useApi().call('questions.sets', { workspaceId: id })).then((sets) => {
        if (sets && workspaceId.value === id) questionSets.value = sets
      }),
    ])
  }

  /** Starts a new run and answers its job's id (null: refused, or dropped as a second click); until the job exists (or is refused) `launching` is true. */
  async function launch(input: LaunchInput): Promise<string | null> {
    return (await starting.run(() => launchNow(input))) ?? null
  }

  async function launchNow(input: LaunchInput): Promise<string | null> {
    const id = workspaceId.value
    if (!id) return null
    const params = newRunParams(input)
    pendingJob.value = null
    const job = await jobs.start({ kind: 'train.run', workspaceId: id, params })
    if (!job) return null
    pendingJob.value = job.id
    // The row shows at once: the job's, until the worker writes the run's (with the defaults, the protocol's credit, as the backend resolved it).
    const creditShown = input.defaults ? (useTrainingCatalogStore().defaultsFor(params.config.environment)?.credit ?? '') : input.config.credit.scheme
    launched.value = [launchedRow(job, params.config, creditShown), ...launched.value]
    await refresh()
    return job.id
  }

  /** Stops the selected run between rollouts; its completed steps stay and it can be resumed. */
  async function stop(): Promise<void> {
    const jobId = selected.value?.jobId
    if (!jobId) return
    await attempt(() => useApi().call('job.cancel', { id: jobId }))
    await refresh()
  }

  /** Continues the selected run from its last completed step, in a new job. */
  async function resume(): Promise<void> {
    const id = workspaceId.value
    const runId = selectedId.value
    if (!id || runId === null || pendingJob.value) return
    const job = await jobs.start({ kind: 'train.run', workspaceId: id, params: { mode: 'resume', runId } })
    // Pending until the run shows this job as its own (the worker marks it running).
    if (job && selected.value?.jobId !== job.id) pendingJob.value = job.id
    if (job) await refresh()
  }

  const { detail, overlay, select, loadRollouts, setOverlay } = selection
  return { workspaceId, runs, configs, questionSets, selectedId, selected, detail, overlay, rollouts, pendingJob, launched, launching: starting.pending, running, error, live: jobs.live, load, refresh, select, launch, stop, resume, loadRollouts, setOverlay }
})
