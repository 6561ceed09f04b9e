import { mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createRouter, createMemoryHistory } from 'vue-router'
import { provideApi } from '../../renderer/src/api'
import WorkspacesView from '../../renderer/src/views/WorkspacesView.vue'
import { inProcessApi } from '../helpers/in-process-api'
import { startBackend, type TestBackend } from '../helpers/services'
import { settle } from './fixtures'

describe('WorkspacesView', () => {
  let backend: TestBackend
  beforeAll(async () => {
    backend = await startBackend()
    provideApi(inProcessApi(backend))
  })
  afterAll(() => backend.close())

  const mountView = () => {
    const pinia = createPinia()
    setActivePinia(pinia)
    const router = createRouter({ history: createMemoryHistory(), routes: [{ path: '/', component: WorkspacesView }, { path: '/workspaces/:id', component: { template: '<p>ws</p>' } }] })
    return mount(WorkspacesView, { global: { plugins: [pinia, router] }, attachTo: document.body })
  }

  it('shows an empty state, then a workspace created from the form', async () => {
    const wrapper = mountView()
    await settle()
    // The empty first screen offers the demo world beside the form.
    expect(wrapper.get('[data-test=first-run]').text()).toContain('Start with the demo world')
    expect(wrapper.find('[data-test=create-demo-workspace]').exists()).toBe(true)
    await wrapper.get('[data-test=new-workspace-name]').setValue('Pilot study')
    expect(wrapper.get('[data-test=create-workspace]').attributes('disabled')).toBeUndefined()
    await wrapper.get('form.create-form').trigger('submit')
    await settle()
    expect(wrapper.get('[data-test=workspace-table]').text()).toContain('Pilot study')
    expect(wrapper.find('[data-test=first-run]').exists()).toBe(false)
    expect((await backend.call('workspace.list', {})).map((w) => w.name)).toEqual(['Pilot study'])
    wrapper.unmount()
  })

  it('shows the backend validation error for a name that is too long', async () => {
    const wrapper = mountView()
    await settle()
    await wrapper.get('[data-test=new-workspace-name]').setValue('x'.repeat(130))
    await wrapper.get('form.create-form').trigger('submit')
    await settle()
    expect(wrapper.get('[data-test=error]').text()).toMatch(/at most 120 characters/)
    wrapper.unmount()
  })

  it('deletes only after the exact name is typed', async () => {
    const wrapper = mountView()
    await settle()
    await wrapper.get('[data-test=delete]').trigger('click')
    const confirm = wrapper.get('[data-test=confirm-button]')
    expect(confirm.attributes('disabled')).toBeDefined()
    await wrapper.get('[data-test=confirm-input]').setValue('Pilot')
    expect(wrapper.get('[data-test=confirm-button]').attributes('disabled')).toBeDefined()
    await wrapper.get('[data-test=confirm-input]').setValue('Pilot study')
    await wrapper.get('[data-test=confirm-button]').trigger('click')
    await settle()
    expect(wrapper.find('[data-test=first-run]').exists()).toBe(true)
    expect(await backend.call('workspace.list', {})).toEqual([])
    wrapper.unmount()
  })
})
