/**
 * The Findings page against the real backend in-process: the claims with the paper's figures, a
 * miniature findings run (real jobs, demo world, one training step) re-opened with a card per claim
 * showing the same verdict line the CLI prints, its arms and its charts; a new run refused with the reason.
 */
import type { VueWrapper } from '@vue/test-utils'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { verdictLine } from '../../main/experiments/findings'
import type { FindingsDetail } from '../../preload/contract'
import { provideApi } from '../../renderer/src/api'
import type { TestBackend } from '../helpers/services'
import { h } from 'vue'
import { createMemoryHistory, createRouter } from 'vue-router'
import FindingsView from '../../renderer/src/views/FindingsView.vue'
import { createPinia, setActivePinia } from 'pinia'
import { useFindingsStore } from '../../renderer/src/stores/findings'
import { useRunsStore } from '../../renderer/src/stores/runs'
import { countingApi, mountShell, settle, startJobBackend, until, ingestedWorkspace } from './fixtures'

/** The Findings view under its route (the shared fixture's router holds the other pages). */
async function mountApp(path: string): Promise<VueWrapper> {
  const router = createRouter({ history: createMemoryHistory(), routes: [{ path: '/', component: { render: () => h('p', 'elsewhere') } }, { path: '/workspaces/:id/findings', component: FindingsView }] })
  await router.push(path)
  await router.isReady()
  return mountShell(router)
}

describe('Findings page', () => {
  let backend: TestBackend
  let workspaceId: string
  let finished: FindingsDetail
  let wrapper: VueWrapper | undefined

  beforeAll(async () => {
    backend = await startJobBackend()
    provideApi(countingApi(backend).api)
    workspaceId = await ingestedWorkspace(backend, 'Findings page', { kind: 'demo', seed: 3, size: 0.5 })
    const setId = (await backend.call('questions.sets', { workspaceId }))[0]!.id
    const saved = await backend.call('findings.save', { workspaceId, config: { questionSetId: setId, overrides: { heldOut: 3, train: 4, steps: 1, groupSize: 2, questionsPerStep: 1 } } })
    const job = await backend.call('job.start', { kind: 'findings.run', workspaceId, params: { findingsId: saved.id } })
    const done = await backend.services.jobs.waitFor(job.id)
    if (done.status !== 'done') throw new Error(`findings ${done.status}: ${done.error}`)
    finished = await backend.call('findings.get', { workspaceId, id: saved.id })
  }, 600_000)
  afterAll(() => backend?.close())
  afterEach(() => {
    wrapper?.unmount()
    wrapper = undefined
  })

  it('lists the claims, re-opens a finished run and shows each verdict line with its arms and charts', async () => {
    const w = (wrapper = await mountApp(`/workspaces/${workspaceId}/findings`))
    await until(() => w.find('[data-test=findings-list] a').exists(), 'the findings list')
    expect(w.text()).toContain('Harness-G Fig. 1')
    await w.get('[data-test=findings-list] a').trigger('click')
    await until(() => w.findAll('[data-test=findings-claim]').length === 5, 'five claim cards')
    const cards = w.findAll('[data-test=findings-claim]')
    finished.results!.claims.forEach((c, i) => {
      expect(cards[i]!.attributes('data-verdict')).toBe(c.verdict)
      expect(cards[i]!.get('[data-test=findings-verdict-line] code').text()).toBe(verdictLine(c))
      // Three held-out questions cannot carry a verdict: each card says no evidence with its reason, labelled.
      expect(c.verdict).toBe('no evidence')
      expect(verdictLine(c)).toBe(`claim ${c.number} ${c.name}: no evidence (${c.reason})`)
      expect(cards[i]!.get('[data-test=findings-verdict]').text()).toBe('no evidence')
      expect(cards[i]!.get('[data-test=findings-verdict]').classes()).toContain('no-evidence')
      expect(cards[i]!.findAll('[data-test=findings-arms] tbody tr').length).toBe(c.arms.length)
      expect(cards[i]!.findAll('[data-test=findings-series]').length).toBe(c.series.length)
    })
    expect(w.get('[data-test=findings-current]').attributes('data-status')).toBe('done')
    await w.get('[data-test=findings-export]').trigger('click')
    await until(() => w.find('[data-test=findings-exported]').exists(), 'the report written')
    expect(w.get('[data-test=findings-exported]').text()).toMatch(/findings-\d+: \d+ files/)
  })

  it('keeps the form and says why when a new run is refused', async () => {
    const w = (wrapper = await mountApp(`/workspaces/${workspaceId}/findings`))
    await until(() => w.find('[data-test=findings-seeds]').exists(), 'the form')
    await w.get('[data-test=findings-seeds]').setValue('11')
    await w.get('[data-test=findings-new]').trigger('submit')
    await settle()
    await until(() => w.find('[data-test=findings-error]').exists(), 'the refusal')
    expect(w.get('[data-test=findings-error]').text()).toMatch(/seeds/)
    expect((w.get('[data-test=findings-seeds]').element as HTMLInputElement).value).toBe('11')
  })

  it('names a question set as soon as the sets are known, before the page has finished loading', async () => {
    // The runs store already holds the sets (another page of this workspace read them), so the form shows at
    // once; the page's own reload of them is held, and a click then must not find the set unchosen.
    const pinia = createPinia()
    setActivePinia(pinia)
    await useRunsStore().load(workspaceId)
    const setId = useRunsStore().questionSets[0]!.id
    const inner = countingApi(backend).api
    const held: (() => void)[] = []
    provideApi({
      async call(route, input) {
        const reply = await inner.call(route, input)
        if (route === 'questions.sets') await new Promise<void>((release) => held.push(release))
        return reply
      },
      on: (event, listener) => inner.on(event, listener),
    })
    try {
      const router = createRouter({ history: createMemoryHistory(), routes: [{ path: '/workspaces/:id/findings', component: FindingsView }] })
      await router.push(`/workspaces/${workspaceId}/findings`)
      await router.isReady()
      const w = (wrapper = await mountShell(router, pinia))
      await until(() => held.length > 0, 'the page reading the sets')
      await until(() => w.find('[data-test=findings-set]').exists(), 'the form')
      expect(useFindingsStore().draft.questionSetId).toBe(setId)
      expect((w.get('[data-test=findings-set]').element as HTMLSelectElement).value).toBe(String(setId))
    } finally {
      held.forEach((release) => release())
      provideApi(countingApi(backend).api)
    }
  })

  it('offers the GGUF policy and refuses a model file that is not there, saving nothing', async () => {
    const before = (await backend.call('findings.list', { workspaceId })).length
    const w = (wrapper = await mountApp(`/workspaces/${workspaceId}/findings`))
    await until(() => w.find('[data-test=findings-policy]').exists(), 'the form')
    await w.get('[data-test=findings-policy]').setValue('gguf')
    // No F32 policy model is registered here: the page says so (or why the native trainer cannot run).
    const blocked = () => w.find('[data-test=findings-gguf-blocked]')
    await until(() => blocked().exists() && !blocked().text().startsWith('Checking'), 'the reason nothing can train')
    expect(blocked().text()).toMatch(/^(No policy model is registered: add an F32 GGUF model on the Models page|GGUF weights cannot train here: )/)
    await w.get('[data-test=findings-new]').trigger('submit')
    await until(() => w.find('[data-test=findings-error]').exists(), 'the missing model named')
    expect(w.get('[data-test=findings-error]').text()).toMatch(/Choose the GGUF model/)
    await w.get('[data-test=findings-gguf-path]').setValue('/nowhere/policy.gguf')
    await w.get('[data-test=findings-new]').trigger('submit')
    await settle()
    await until(() => /No GGUF model file at \/nowhere\/policy\.gguf/.test(w.find('[data-test=findings-error]').text()), 'the refusal')
    expect((await backend.call('findings.list', { workspaceId })).length).toBe(before)
  })
})
