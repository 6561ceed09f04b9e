import { defineStore } from 'pinia'
import { computed, ref } from 'vue'
import type { GgufTrainConfig, Job, RouteInput, RouteOutput, SavedTrainConfig, TrainingRunDetail, TrainingRunSummary } from '../../../preload/contract'
import { useApi } from '../api'
import { attemptInto } from './attempt'
import { liveSubscriptions } from './live'
import { pendingAction } from './pending'
import { useTrainingCatalogStore } from './training-catalog'

type TrainStart = Extract<RouteInput<'job.start'>, { kind: 'train.run' }>
export type NewTrainParams = Extract<TrainStart['params'], { mode: 'new' }>

/** A run launched from this page whose run row the worker has not written yet: its job, and what the row shows meanwhile. */
export interface LaunchedRun {
  job: Job
  name: string
  environment: string
  credit: string
  steps: number
}

export interface LaunchInput {
  config: SavedTrainConfig
  /** The defaults, not a saved config: reward, credit and estimator are left to the backend, which picks the reward for the set's gold level and the environment's protocol's credit and estimator. */
  defaults?: boolean
  name: string
  environment: string
  questionSetId: number
  /** Offset and limit apply within the stored split, when one is named. */
  train: { offset: number; limit: number; split?: string }
  heldOut: { offset: number; limit: number; split?: string }
  /** Empty: the lexical stand-in. */
  answererPath: string
  /** Train this F32 GGUF's own weights (model path, optimiser, tensors); absent or null: the saved config's policy (the head). */
  gguf?: GgufTrainConfig | null
}

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
  const selectedId = ref<number | null>(null)
  const detail = ref<TrainingRunDetail | null>(null)
  const rollouts = ref<{ step: number; page: RouteOutput<'training.rollouts'> } | null>(null)
  /** A job just started whose run row the worker has not written yet: its run is selected once listed. */
  const pendingJob = ref<string | null>(null)
  /** New runs' jobs, each listed as a row from the moment its job exists (queued behind others, or starting) until the worker writes the run's own row. */
  const launched = ref<LaunchedRun[]>([])
  /** From the click on Start training until the job exists or is refused: the button waits, a second click starts nothing. */
  const starting = pendingAction()
  const error = ref<string | null>(null)
  const attempt = attemptInto(error)
  /** Jobs of this workspace's training runs (their progress events carry only the job id). */
  const jobIds = new Set<string>()

  const selected = computed(() => runs.value.find((r) => r.id === selectedId.value) ?? null)
  const running = computed(() => runs.value.some((r) => r.status === 'running') || pendingJob.value !== null)

  async function refreshRuns(): Promise<void> {
    const id = workspaceId.value
    if (!id) return
    const list = await attempt(() => useApi().call('training.runs', { workspaceId: id }))
    if (!list || workspaceId.value !== id) return
    runs.value = list
    for (const r of list) if (r.jobId) jobIds.add(r.jobId)
    const listed = new Set(list.map((r) => r.jobId))
    if (launched.value.some((l) => listed.has(l.job.id))) launched.value = launched.value.filter((l) => !listed.has(l.job.id))
    const started = pendingJob.value ? list.find((r) => r.jobId === pendingJob.value) : undefined
    if (started) {
      pendingJob.value = null
      if (selectedId.value !== started.id) {
        selectedId.value = started.id
        rollouts.value = null
      }
    }
  }

  /** Another run drawn over the selected one's charts (W&B's overlay), read once when picked. */
  const overlay = ref<TrainingRunDetail | null>(null)
  async function setOverlay(runId: number | null): Promise<void> {
    const id = workspaceId.value
    if (!id || runId === null) {
      overlay.value = null
      return
    }
    const out = await attempt(() => useApi().call('training.run', { workspaceId: id, runId }))
    overlay.value = out && workspaceId.value === id ? out : null
  }

  async function refreshDetail(): Promise<void> {
    const id = workspaceId.value
    const runId = selectedId.value
    if (!id || runId === null) return
    const out = await attempt(() => useApi().call('training.run', { workspaceId: id, runId }))
    if (out && workspaceId.value === id && selectedId.value === runId) detail.value = out
  }

  // One refresh at a time; events arriving meanwhile ask for one more, not one each.
  let inFlight: Promise<void> | null = null
  let again = false
  function refresh(): Promise<void> {
    if (inFlight) {
      again = true
      return inFlight
    }
    inFlight = (async () => {
      do {
        again = false
        await refreshRuns()
        await refreshDetail()
      } while (again)
      inFlight = null
    })()
    return inFlight
  }

  const { live } = liveSubscriptions(() => {
    const api = useApi()
    return [
      api.on('job.progress', (p) => {
        if (jobIds.has(p.jobId)) void refresh()
      }),
      api.on('job.status', (job: Job) => {
        if (job.kind !== 'train.run' || job.workspaceId !== workspaceId.value) return
        jobIds.add(job.id)
        const ended = job.status !== 'queued' && job.status !== 'running'
        const row = launched.value.find((l) => l.job.id === job.id)
        if (row) {
          // A job that ended before its run showed it (failed at once, or cancelled while queued) leaves the list; a failure's reason shows.
          launched.value = ended ? launched.value.filter((l) => l !== row) : launched.value.map((l) => (l === row ? { ...l, job } : l))
          if (ended && job.status === 'failed') error.value = job.error ?? 'The training job failed before its run started'
        }
        if (job.id === pendingJob.value && ended) pendingJob.value = null
        void refresh()
      }),
    ]
  })

  async function load(id: string): Promise<void> {
    if (workspaceId.value !== id) {
      workspaceId.value = id
      runs.value = []
      configs.value = []
      questionSets.value = []
      selectedId.value = null
      detail.value = null
      rollouts.value = null
      pendingJob.value = null
      launched.value = []
      jobIds.clear()
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

  async function select(runId: number): Promise<void> {
    if (selectedId.value !== runId) {
      selectedId.value = runId
      detail.value = null
      rollouts.value = null
    }
    await refreshDetail()
  }

  async function start(input: TrainStart): Promise<Job | undefined> {
    const job = await attempt(() => useApi().call('job.start', input))
    if (job) jobIds.add(job.id)
    return job
  }

  /** Starts a new run and answers its job's id (null: refused, or dropped as a second click); until the job exists (or is refused) `launching` is true. */
  async function launch(input: LaunchInput): Promise<string | null> {
    return (await starting.run(() => launchNow(input))) ?? null
  }

  async function launchNow(input: LaunchInput): Promise<string | null> {
    const id = workspaceId.value
    if (!id) return null
    const { reward, credit, estimator, ...rest } = input.config
    const config: NewTrainParams['config'] = {
      ...rest,
      ...(input.defaults ? {} : { reward, credit, estimator }),
      name: input.name.trim() || input.config.name,
      environment: input.environment,
      // The saved config's environment options belong to its environment.
      envConfig: input.environment === input.config.environment ? input.config.envConfig : {},
      train: { questionSetId: input.questionSetId, ...input.train },
      heldOut: { questionSetId: input.questionSetId, ...input.heldOut },
      ...(input.gguf?.modelPath.trim() ? { gguf: { ...input.gguf, modelPath: input.gguf.modelPath.trim() } } : {}),
    }
    const answerer = input.answererPath.trim() ? { kind: 'gguf' as const, modelPath: input.answererPath.trim() } : { kind: 'lexical' as const }
    pendingJob.value = null
    const job = await start({ kind: 'train.run', workspaceId: id, params: { mode: 'new', config, answerer } })
    if (!job) return null
    pendingJob.value = job.id
    // The row shows at once: the job's, until the worker writes the run's (with the defaults, the protocol's credit, as the backend resolved it).
    const creditShown = input.defaults ? (useTrainingCatalogStore().defaultsFor(config.environment)?.credit ?? '') : credit.scheme
    launched.value = [{ job, name: config.name || `training run (job ${job.id.slice(0, 8)})`, environment: config.environment, credit: creditShown, steps: config.steps ?? 0 }, ...launched.value]
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
    const job = await start({ kind: 'train.run', workspaceId: id, params: { mode: 'resume', runId } })
    // Pending until the run shows this job as its own (the worker marks it running).
    if (job && selected.value?.jobId !== job.id) pendingJob.value = job.id
    if (job) await refresh()
  }

  async function loadRollouts(step: number): Promise<void> {
    const id = workspaceId.value
    const runId = selectedId.value
    if (!id || runId === null) return
    const page = await attempt(() => useApi().call('training.rollouts', { workspaceId: id, runId, step, limit: 500 }))
    if (page && workspaceId.value === id && selectedId.value === runId) rollouts.value = { step, page }
  }

  return { workspaceId, runs, configs, questionSets, selectedId, selected, detail, overlay, rollouts, pendingJob, launched, launching: starting.pending, running, error, live, load, refresh, select, launch, stop, resume, loadRollouts, setOverlay }
})
