import { defineStore } from 'pinia'
import { ref } from 'vue'
import type { Job, RouteOutput } from '../../../preload/contract'
import { useApi } from '../api'
import { attemptInto } from './attempt'
import { liveSubscriptions } from './live'
import { useCatalogStore } from './catalog'
import { useJobsStore } from './jobs'
import type { EvalInput } from './runs'
import { useWorkspacesStore } from './workspaces'

type EvalJob = Extract<Job, { kind: 'eval.run' }>

/**
 * "Try it" on the Models page: one episode of a chosen environment on one question with a chosen
 * policy. When its job is done, `opened` names the episode so the panel can open its trajectory.
 */
export const useTryItStore = defineStore('tryIt', () => {
  const workspaceId = ref('')
  const sets = ref<RouteOutput<'questions.sets'>>([])
  const setId = ref<number | null>(null)
  const questions = ref<RouteOutput<'questions.list'>['questions']>([])
  const job = ref<EvalJob | null>(null)
  const opened = ref<{ workspaceId: string; episodeId: number } | null>(null)
  const error = ref<string | null>(null)
  const attempt = attemptInto(error)

  function follow(j: Job): void {
    if (j.kind !== 'eval.run' || j.id !== job.value?.id || j.status === job.value.status) return
    job.value = j
    if (j.status === 'done' && j.result) void openEpisode(j.workspaceId ?? workspaceId.value, j.result.runId)
    if (j.status === 'failed') error.value = j.error
  }

  const { live } = liveSubscriptions(() => [useApi().on('job.status', follow)])

  async function init(): Promise<void> {
    const workspaces = useWorkspacesStore()
    await Promise.all([workspaces.refresh(), useCatalogStore().load()])
    if (!workspaces.list.some((w) => w.id === workspaceId.value)) await selectWorkspace(workspaces.list[0]?.id ?? '')
  }

  async function selectWorkspace(id: string): Promise<void> {
    workspaceId.value = id
    sets.value = []
    const out = id ? await attempt(() => useApi().call('questions.sets', { workspaceId: id })) : []
    if (workspaceId.value !== id) return
    sets.value = out ?? []
    await selectSet(sets.value[0]?.id ?? null)
  }

  async function selectSet(id: number | null): Promise<void> {
    setId.value = id
    questions.value = []
    const w = workspaceId.value
    if (!w || id === null) return
    const page = await attempt(() => useApi().call('questions.list', { workspaceId: w, setId: id, limit: 100 }))
    if (page && workspaceId.value === w && setId.value === id) questions.value = page.questions
  }

  async function openEpisode(w: string, runId: number): Promise<void> {
    const page = await attempt(() => useApi().call('runs.episodes', { workspaceId: w, runId, limit: 1 }))
    const episode = page?.episodes[0]
    if (episode) opened.value = { workspaceId: w, episodeId: episode.id }
  }

  async function run(environment: string, policy: EvalInput['policy'], questionIndex: number): Promise<void> {
    const w = workspaceId.value
    if (!w || setId.value === null) return
    error.value = null
    opened.value = null
    const jobs = useJobsStore()
    const started = await jobs.start({
      kind: 'eval.run',
      workspaceId: w,
      params: { name: 'try it', environment, policy, questionSetId: setId.value, offset: questionIndex, limit: 1 },
    })
    if (started?.kind !== 'eval.run') {
      error.value = jobs.error
      return
    }
    job.value = started
    // The job may have ended before its start call answered: take what the job list heard meanwhile.
    const known = jobs.jobs.find((j) => j.id === started.id)
    if (known) follow(known)
  }

  return { workspaceId, sets, setId, questions, job, opened, error, live, init, selectWorkspace, selectSet, run }
})
