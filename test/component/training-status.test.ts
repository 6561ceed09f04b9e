/**
 * Issue 23 item 11: the Training panel showed "done" beside a chart one step short. The run list is read
 * before the run's detail, so the list's status can be newer than the detail's steps. The panel must
 * take status and chart from one response: a real run's detail, and the same detail one step earlier
 * while the list already says done.
 */
import { flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RouteOutput } from '../../preload/contract'
import { provideApi } from '../../renderer/src/api'
import TrainingRunPanel from '../../renderer/src/components/training/TrainingRunPanel.vue'
import { useTrainingStore } from '../../renderer/src/stores/training'
import { inProcessApi } from '../helpers/in-process-api'
import type { TestBackend } from '../helpers/services'
import { startJobBackend, ingestedWorkspace } from './fixtures'

describe('Training panel status and chart', () => {
  let backend: TestBackend
  let workspaceId: string
  let done: RouteOutput<'training.run'>

  beforeAll(async () => {
    backend = await startJobBackend()
    workspaceId = await ingestedWorkspace(backend, 'status', { kind: 'demo', seed: 3, size: 0.5 })
    const setId = (await backend.call('questions.sets', { workspaceId }))[0]!.id
    const config = { name: 'two steps', environment: 'graph-menu', steps: 2, groupSize: 2, questionsPerStep: 2, evalInterval: 1, train: { questionSetId: setId, offset: 0, limit: 4 }, heldOut: { questionSetId: setId, offset: 10, limit: 2 } }
    const job = await backend.call('job.start', { kind: 'train.run', workspaceId, params: { mode: 'new', config } })
    const end = await backend.services.jobs.waitFor(job.id)
    if (end.kind !== 'train.run' || end.status !== 'done' || !end.result) throw new Error(`training ${end.status}: ${end.error}`)
    done = await backend.call('training.run', { workspaceId, runId: end.result.runId })
  }, 600_000)
  afterAll(() => backend?.close())

  it('never shows the list\'s "done" beside a detail that still lacks the last step', async () => {
    expect(done.run.status).toBe('done')
    expect(done.steps).toHaveLength(2)
    provideApi(inProcessApi(backend))
    setActivePinia(createPinia())
    const training = useTrainingStore()
    // The list already read "done"; the detail was read a moment before the last step was stored.
    const earlier = { ...done, run: { ...done.run, status: 'running', stepsDone: 1 }, steps: done.steps.slice(0, 1) }
    training.$patch((state) => {
      state.workspaceId = workspaceId
      state.runs = [done.run]
      state.selectedId = done.run.id
      state.detail = earlier
    })
    const wrapper = mount(TrainingRunPanel, { props: { workspaceId }, global: { stubs: { RouterLink: true } } })
    await flushPromises()
    const panel = () => wrapper.get('[data-test=training-run]')
    const plotted = () => Number(wrapper.get('[data-test=chart-reward]').attributes('data-steps'))
    expect(panel().attributes('data-status')).toBe('running')
    expect(plotted()).toBe(1)
    expect(wrapper.get('[data-test=training-progress]').text()).toBe('1 / 2 steps')

    training.$patch((state) => {
      state.detail = done
    })
    await flushPromises()
    expect(panel().attributes('data-status')).toBe('done')
    expect(plotted()).toBe(2)
    expect(wrapper.get('[data-test=training-progress]').text()).toBe('2 / 2 steps')
    wrapper.unmount()
  })
})
