import { mount } from '@vue/test-utils'
import { describe, expect, it } from 'vitest'
import { JobKind, jobKinds, type Job } from '../../preload/contract'
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

  it("shows a queued job's place in the queue and what it waits for", () => {
    const wrapper = mount(JobList, { props: { jobs: [job({ id: 'q', status: 'queued', progress: 0, startedAt: null, queue: { position: 2, waitingFor: 'db.maintenance running in this workspace' } })] } })
    expect(wrapper.get('[data-test=queue-position]').text()).toBe('#2 in queue')
    expect(wrapper.get('.job-message').text()).toBe('Waiting for db.maintenance running in this workspace')
    expect(wrapper.find('button').exists()).toBe(true)
  })

  it('names every kind by its declared label, never its raw name (a findings run is "Findings run")', () => {
    const findings = { ...job({ id: 'fr' }), kind: 'findings.run', params: { findingsId: 3 } } as unknown as Job
    const wrapper = mount(JobList, { props: { jobs: [findings, job({ id: 'd', status: 'done', progress: 1 })] } })
    expect(wrapper.get('[data-job-id=fr] strong').text()).toBe('Findings run')
    expect(wrapper.get('[data-job-id=d] strong').text()).toBe('Integrity check & vacuum')
    expect(wrapper.text()).not.toContain('findings.run')
    for (const kind of JobKind.options) expect(jobKinds[kind].label, kind).not.toMatch(/\./)
  })

  it('keeps running jobs as cards and lists finished ones as compact lines without progress bars', () => {
    const wrapper = mount(JobList, { props: { jobs: [job({ id: 'r' }), job({ id: 'd', status: 'done', progress: 1, message: 'Run #4: 3 episodes' }), job({ id: 'f', status: 'failed', error: 'boom' })] } })
    expect(wrapper.findAll('[data-test=running-jobs] li').map((li) => li.attributes('data-job-id'))).toEqual(['r'])
    expect(wrapper.findAll('[data-test=finished-jobs] li').map((li) => li.attributes('data-job-id'))).toEqual(['d', 'f'])
    expect(wrapper.findAll('[data-test=finished-jobs] [role=progressbar]')).toHaveLength(0)
    expect(wrapper.get('[data-test=finished-jobs] li[data-job-id=f] .job-message').classes()).toContain('error')
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
