import { mount } from '@vue/test-utils'
import { describe, expect, it } from 'vitest'
import type { Job } from '../../preload/contract'
import JobList from '../../renderer/src/components/JobList.vue'
import ProgressBar from '../../renderer/src/components/ProgressBar.vue'

type MaintenanceJob = Extract<Job, { kind: 'db.maintenance' }>
const job = (over: Partial<MaintenanceJob>): MaintenanceJob => ({
  id: 'j1', kind: 'db.maintenance', workspaceId: 'w', status: 'running', progress: 0.42, stage: 'integrity', message: 'Checked chunks (3/7)',
  error: null, params: {}, result: null, createdAt: '2026-01-01T00:00:00Z', startedAt: '2026-01-01T00:00:01Z', finishedAt: null, ...over,
})

describe('JobList', () => {
  it('shows progress, stage and a cancel button for running jobs', async () => {
    const wrapper = mount(JobList, { props: { jobs: [job({})] } })
    expect(wrapper.get('[role=progressbar]').attributes('aria-valuenow')).toBe('42')
    expect(wrapper.text()).toContain('integrity: Checked chunks (3/7)')
    await wrapper.get('button').trigger('click')
    expect(wrapper.emitted('cancel')).toEqual([['j1']])
  })

  it('shows the error of a failed job and no cancel button for finished ones', () => {
    const wrapper = mount(JobList, { props: { jobs: [job({ id: 'a', status: 'failed', error: 'Worker crashed: boom' }), job({ id: 'b', status: 'done', progress: 1 })] } })
    expect(wrapper.text()).toContain('Worker crashed: boom')
    expect(wrapper.findAll('button')).toHaveLength(0)
  })

  it('says so when there are no jobs', () => {
    expect(mount(JobList, { props: { jobs: [] } }).text()).toContain('No jobs yet')
  })
})

describe('ProgressBar', () => {
  it('clamps to 0-100 percent', () => {
    expect(mount(ProgressBar, { props: { value: 1.7 } }).get('[role=progressbar]').attributes('aria-valuenow')).toBe('100')
    expect(mount(ProgressBar, { props: { value: -1 } }).get('[role=progressbar]').attributes('aria-valuenow')).toBe('0')
  })
})
