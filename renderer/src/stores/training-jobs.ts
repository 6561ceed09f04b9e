import { ref, type Ref } from 'vue'
import type { Job, TrainingRunSummary } from '../../../preload/contract'
import { useApi } from '../api'
import type { attemptInto } from './attempt'
import { liveSubscriptions } from './live'
import type { LaunchedRun, TrainStart } from './training-launch'

/**
 * The jobs of a workspace's training runs, followed by their events while held live (progress after each
 * step, status at the end; never a timer): new runs' jobs shown as rows until the worker writes their runs,
 * and the job just started whose run is selected once listed.
 */
export function useTrainingJobs(workspaceId: Ref<string | null>, error: Ref<string | null>, attempt: ReturnType<typeof attemptInto>, refresh: () => Promise<void>) {
  /** A job just started whose run row the worker has not written yet: its run is selected once listed. */
  const pendingJob = ref<string | null>(null)
  /** New runs' jobs, each listed as a row from the moment its job exists (queued behind others, or starting) until the worker writes the run's own row. */
  const launched = ref<LaunchedRun[]>([])
  /** Jobs of this workspace's training runs (their progress events carry only the job id). */
  const jobIds = new Set<string>()

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

  /** Takes in the listed runs: their jobs are followed, launched rows they now show leave; answers the run the pending job started, if listed. */
  function listed(list: TrainingRunSummary[]): TrainingRunSummary | undefined {
    for (const r of list) if (r.jobId) jobIds.add(r.jobId)
    const ids = new Set(list.map((r) => r.jobId))
    if (launched.value.some((l) => ids.has(l.job.id))) launched.value = launched.value.filter((l) => !ids.has(l.job.id))
    const started = pendingJob.value ? list.find((r) => r.jobId === pendingJob.value) : undefined
    if (started) pendingJob.value = null
    return started
  }

  /** Starts a train.run job (new run or resume) and follows it. */
  async function start(input: TrainStart): Promise<Job | undefined> {
    const job = await attempt(() => useApi().call('job.start', input))
    if (job) jobIds.add(job.id)
    return job
  }

  function clear(): void {
    pendingJob.value = null
    launched.value = []
    jobIds.clear()
  }

  return { pendingJob, launched, live, listed, start, clear }
}
