/**
 * Every listener a component or store registers goes away with it: API event subscriptions
 * (`api.on` returns its unsubscribe), and d3's zoom and drag handlers on the graph explorer's SVG.
 */
import { flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { createMemoryHistory, createRouter } from 'vue-router'
import type { Job } from '../../preload/contract'
import { provideApi } from '../../renderer/src/api'
import GraphExplorer from '../../renderer/src/components/graph/GraphExplorer.vue'
import { mainThreadLayout } from '../../renderer/src/components/graph/layout-engine'
import TryItPanel from '../../renderer/src/components/TryItPanel.vue'
import { useCorpusStore } from '../../renderer/src/stores/corpus'
import { useJobsStore } from '../../renderer/src/stores/jobs'
import { useRunsStore } from '../../renderer/src/stores/runs'
import { startBackend, type TestBackend } from '../helpers/services'
import { countingApi, settle, type CountingApi } from './fixtures'

const job = (over: Partial<Extract<Job, { kind: 'eval.run' }>>): Extract<Job, { kind: 'eval.run' }> => ({
  id: 'j-eval', kind: 'eval.run', workspaceId: 'w1', status: 'done', progress: 1, stage: 'done', message: '', error: null, params: {}, result: null,
  createdAt: '2026-01-01T00:00:00Z', startedAt: '2026-01-01T00:00:01Z', finishedAt: '2026-01-01T00:00:02Z', ...over,
})

describe('listeners are removed with their component or store', () => {
  let backend: TestBackend
  let counting: CountingApi
  beforeAll(async () => {
    backend = await startBackend()
    counting = countingApi(backend)
    provideApi(counting.api)
  })
  afterAll(() => backend.close())
  afterEach(() => vi.restoreAllMocks())

  it('a store holds API listeners while held live, and drops them on the last release and on dispose', async () => {
    setActivePinia(createPinia())
    const base = counting.listeners()
    const jobs = useJobsStore()
    const releaseA = jobs.live()
    const releaseB = jobs.live()
    expect(counting.listeners()).toBe(base + 2) // status + progress, once for both holders
    backend.services.events.emit('job.status', job({ id: 'seen' }))
    expect(jobs.jobs.map((j) => j.id)).toContain('seen')
    releaseA()
    releaseA() // a second release of the same hold does nothing
    expect(counting.listeners()).toBe(base + 2)
    releaseB()
    expect(counting.listeners()).toBe(base)
    backend.services.events.emit('job.status', job({ id: 'unseen' }))
    expect(jobs.jobs.map((j) => j.id)).not.toContain('unseen')

    const corpus = useCorpusStore()
    corpus.live()
    const runs = useRunsStore()
    runs.live()
    expect(counting.listeners()).toBe(base + 2)
    corpus.$dispose()
    runs.$dispose()
    expect(counting.listeners()).toBe(base)
  })

  it('the Try it panel stops listening for job events when it unmounts', async () => {
    const pinia = createPinia()
    setActivePinia(pinia)
    const router = createRouter({ history: createMemoryHistory(), routes: [{ path: '/', component: { render: () => null } }] })
    const base = counting.listeners()
    const wrapper = mount(TryItPanel, { props: { models: [] }, global: { plugins: [pinia, router] } })
    await settle()
    expect(counting.listeners()).toBe(base + 1)
    wrapper.unmount()
    expect(counting.listeners()).toBe(base)
  })

  it("the graph explorer takes d3's zoom and drag listeners off its SVG on unmount", async () => {
    const added = new Map<EventTarget, Set<string>>()
    // The prototype that really implements addEventListener for SVG elements in this DOM.
    let owner: object | null = document.createElementNS('http://www.w3.org/2000/svg', 'svg')
    while (owner && !Object.hasOwn(owner, 'addEventListener')) owner = Object.getPrototypeOf(owner)
    const proto = owner as typeof EventTarget.prototype
    const add = proto.addEventListener
    const remove = proto.removeEventListener
    vi.spyOn(proto, 'addEventListener').mockImplementation(function (this: EventTarget, type, listener, options) {
      if (!added.has(this)) added.set(this, new Set())
      added.get(this)!.add(type)
      return add.call(this, type, listener, options)
    })
    vi.spyOn(proto, 'removeEventListener').mockImplementation(function (this: EventTarget, type, listener, options) {
      added.get(this)?.delete(type)
      return remove.call(this, type, listener, options)
    })
    const load = vi.fn(async (center: string) => ({ nodes: [{ id: center, kind: 'entity' as const, label: 'Ada', degree: 0 }], edges: [], truncated: false }))
    const wrapper = mount(GraphExplorer, { props: { load, search: async () => [], layout: mainThreadLayout(), initialCenter: 'e:1', searchDelayMs: 0 }, attachTo: document.body })
    await flushPromises()
    const svg = wrapper.get('svg.graph-canvas').element
    const nodes = wrapper.get('g.nodes').element
    expect([...(added.get(svg) ?? [])]).toEqual(expect.arrayContaining(['wheel', 'mousedown']))
    expect([...(added.get(nodes) ?? [])]).toEqual(expect.arrayContaining(['mousedown']))
    wrapper.unmount()
    expect([...(added.get(svg) ?? [])]).toEqual([])
    expect([...(added.get(nodes) ?? [])]).toEqual([])
  })
})
