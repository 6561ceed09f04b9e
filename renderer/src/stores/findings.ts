import { defineStore } from 'pinia'
import { computed, ref, watch, type Ref } from 'vue'
import type { FindingsBudget, FindingsDetail, Job, RouteOutput } from '../../../preload/contract'
import { useApi } from '../api'
import { attemptInto } from './attempt'
import { useJobsStore } from './jobs'
import { liveSubscriptions } from './live'
import { pendingAction } from './pending'
import { useRunsStore } from './runs'

type FindingsSummary = RouteOutput<'findings.list'>[number]

/**
 * The form shows as soon as the sets are known, which may be before the page's load ends (another page of the
 * workspace read them): the draft names one from then on, so a click never finds the set unchosen. A set no
 * longer listed (another workspace, a deleted set) is replaced by the first.
 */
function keepSetChosen(sets: () => readonly { id: number }[], draft: Ref<{ questionSetId: number | null }>): void {
  watch(sets, (listed) => {
    if (!listed.some((s) => s.id === draft.value.questionSetId)) draft.value.questionSetId = listed[0]?.id ?? null
  }, { immediate: true })
}

/**
 * Findings page: the papers' claims (from the catalogue), a new findings run (question set, budget,
 * seeds) saved and started as one findings.run job, saved runs re-opened with their verdicts and charts,
 * a stopped run resumed from its finished cells, and the report written to the workspace's exports folder.
 */
export const useFindingsStore = defineStore('findings', () => {
  const runs = useRunsStore()
  const error = ref<string | null>(null)
  const attempt = attemptInto(error)
  const catalog = ref<RouteOutput<'findings.catalog'>>([])
  const list = ref<FindingsSummary[]>([])
  const current = ref<FindingsDetail | null>(null)
  const exported = ref<RouteOutput<'findings.export'> | null>(null)
  /** policy 'gguf' trains `modelPath`'s own weights in every training arm (the contract's GGUF training defaults). */
  const draft = ref({ questionSetId: null as number | null, budget: 'quick' as FindingsBudget, seeds: null as number | null, policy: 'head' as 'head' | 'gguf', modelPath: '' })
  /** The running job's last progress line. */
  const progress = ref<{ progress: number; stage: string; message: string } | null>(null)
  /** From a click on Run until the job exists or is refused: the button waits, a second click starts nothing. */
  const starting = pendingAction()

  keepSetChosen(() => runs.questionSets, draft)
  const jobs = useJobsStore()
  /** The job queued or running for a findings run: its record still says how it last stood ("saved", "cancelled") until the worker starts. */
  const activeJobOf = (findingsId: number): Job | undefined => jobs.active.find((j) => j.kind === 'findings.run' && j.workspaceId === runs.workspaceId && j.params.findingsId === findingsId)
  /** A findings run's status as the page shows it: its job's while one is queued or running, else its record's. */
  const statusOf = (f: { id: number; status: string }): string => activeJobOf(f.id)?.status ?? f.status
  const status = computed(() => (current.value ? statusOf(current.value) : null))

  const { live } = liveSubscriptions(() => {
    const api = useApi()
    return [
      api.on('job.progress', (p) => {
        if (current.value && p.jobId === current.value.jobId) progress.value = { progress: p.progress, stage: p.stage, message: p.message }
      }),
      api.on('job.status', (job: Job) => {
        if (job.kind !== 'findings.run' || job.workspaceId !== runs.workspaceId) return
        void refreshList()
        if (current.value && job.params.findingsId === current.value.id) void open(current.value.id)
      }),
    ]
  })

  async function load(workspaceId: string): Promise<void> {
    await runs.load(workspaceId)
    if (!catalog.value.length) catalog.value = (await attempt(() => useApi().call('findings.catalog', {}))) ?? []
    await refreshList()
  }

  async function refreshList(): Promise<void> {
    const id = runs.workspaceId
    if (!id) return
    const out = await attempt(() => useApi().call('findings.list', { workspaceId: id }))
    if (out && runs.workspaceId === id) list.value = out
  }

  async function open(findingsId: number): Promise<void> {
    const id = runs.workspaceId
    if (!id) return
    const out = await attempt(() => useApi().call('findings.get', { workspaceId: id, id: findingsId }))
    if (out) {
      if (current.value?.id !== out.id) exported.value = null
      current.value = out
    }
  }

  async function start(findingsId: number): Promise<void> {
    await starting.run(() => startNow(findingsId))
  }

  async function startNow(findingsId: number): Promise<void> {
    const id = runs.workspaceId
    if (!id) return
    const job = await jobs.start({ kind: 'findings.run', workspaceId: id, params: { findingsId } })
    if (!job) {
      error.value = jobs.error
      return
    }
    progress.value = null
    await open(findingsId)
    await refreshList()
  }

  /** Saves a findings run from the draft and starts it; a refused config keeps the form as it is. */
  async function create(): Promise<void> {
    await starting.run(createNow)
  }

  async function createNow(): Promise<void> {
    const id = runs.workspaceId
    const { questionSetId, budget, seeds, policy, modelPath } = draft.value
    if (!id) return
    if (questionSetId === null) {
      error.value = 'Choose the question set the claims are tested on'
      return
    }
    if (policy === 'gguf' && !modelPath.trim()) {
      error.value = 'Choose the GGUF model whose weights the training arms train (an F32 .gguf policy model)'
      return
    }
    const gguf = policy === 'gguf' ? { gguf: { modelPath: modelPath.trim() } } : {}
    const saved = await attempt(() => useApi().call('findings.save', { workspaceId: id, config: { questionSetId, budget, policy, ...gguf, ...(seeds ? { seeds } : {}) } }))
    if (saved) await startNow(saved.id)
  }

  /** Stops the open run's job, queued or running. */
  async function cancel(): Promise<void> {
    const jobId = (current.value ? activeJobOf(current.value.id)?.id : undefined) ?? current.value?.jobId
    if (jobId) await jobs.cancel(jobId)
  }

  async function exportReport(): Promise<void> {
    const id = runs.workspaceId
    if (!id || !current.value) return
    exported.value = (await attempt(() => useApi().call('findings.export', { workspaceId: id, id: current.value!.id }))) ?? null
  }

  const claims = computed(() => current.value?.results?.claims ?? [])
  return { error, catalog, list, current, status, statusOf, starting: starting.pending, draft, progress, exported, claims, live, load, refreshList, open, start, create, cancel, exportReport }
})
