import { ref, type Ref } from 'vue'
import type { Job, RouteInput } from '../../../preload/contract'
import { useApi } from '../api'
import type { attemptInto } from './attempt'
import { liveSubscriptions } from './live'
import { pendingAction } from './pending'

type GenerateParams = Extract<RouteInput<'job.start'>, { kind: 'questions.generate' }>['params']

/** Generating a question set from the graph as a job; while held live, its status events say when the new set is there (`done(setId)`). */
export function useQuestionGeneration(workspaceId: Ref<string | null>, attempt: ReturnType<typeof attemptInto>, done: (setId: number) => void) {
  const generating = ref<Job | null>(null)

  const { live } = liveSubscriptions(() => [
    useApi().on('job.status', (job: Job) => {
      if (job.kind !== 'questions.generate' || job.workspaceId !== workspaceId.value) return
      generating.value = job
      if (job.status === 'done' && job.result) done(job.result.setId)
    }),
  ])

  /** From the click until the generate job exists or is refused: a second click meanwhile starts nothing. */
  const starting = pendingAction()
  function generate(params: GenerateParams): Promise<Job | undefined> {
    return starting.run(async () => {
      const id = workspaceId.value
      if (!id) return undefined
      const job = await attempt(() => useApi().call('job.start', { kind: 'questions.generate', workspaceId: id, params }))
      if (job) generating.value = job
      return job
    })
  }

  return { generating, starting: starting.pending, live, generate }
}
