/**
 * The Ablations page's matrix against the real backend in-process: the builder offers rows from what
 * the environments and training catalogue declare (and says why a row cannot be chosen), a refused
 * config keeps the form and says why, and a launched ablation shows per-cell progress, then its table.
 */
import type { VueWrapper } from '@vue/test-utils'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { provideApi } from '../../renderer/src/api'
import type { TestBackend } from '../helpers/services'
import { countingApi, type DemoRuns, demoRuns, mountApp, settle, startJobBackend, until } from './fixtures'

describe('Ablations page: the matrix', () => {
  let backend: TestBackend
  let demo: DemoRuns
  let wrapper: VueWrapper | undefined

  beforeAll(async () => {
    backend = await startJobBackend()
    provideApi(countingApi(backend).api)
    demo = await demoRuns(backend)
  }, 600_000)
  afterAll(() => backend?.close())
  afterEach(() => {
    wrapper?.unmount()
    wrapper = undefined
  })

  async function mountAt(path: string): Promise<VueWrapper> {
    wrapper = await mountApp(path)
    return wrapper
  }
  const rowLabel = (w: VueWrapper, key: string) => w.find(`[data-test=ablation-builder] label[data-row="${key}"]`)

  it('offers the Harness-1 switches, the transcript and training deltas, and says why SNC credit and LoRA cannot be chosen', async () => {
    const w = await mountAt(`/workspaces/${demo.workspaceId}/ablations`)
    await until(() => w.find('[data-test=ablation-environment]').exists(), 'the builder')
    await w.get('[data-test=ablation-environment]').setValue('stateful')
    await settle()
    for (const preset of ['no-auto-seed', 'no-importance-tags', 'no-evidence-graph', 'no-verification', 'no-compression', 'no-dedup', 'no-review-docs', 'all-off', 'transcript']) {
      expect(rowLabel(w, `preset:${preset}`).exists(), preset).toBe(true)
    }
    expect(rowLabel(w, 'env:transcript').exists()).toBe(true)
    expect(rowLabel(w, 'credit:outcome').find('input').attributes('disabled')).toBeUndefined()
    expect(rowLabel(w, 'credit:snc').find('input').attributes('disabled')).toBeDefined()
    expect(rowLabel(w, 'credit:snc').text()).toMatch(/reads menu previews; stateful has none/)
    expect(rowLabel(w, 'lora:none').text()).toMatch(/LoRA adapter/)
    expect(rowLabel(w, 'policy:head:after').exists()).toBe(true)
    // Reward-weight edits over the published Harness-1 weights, scored at evaluation.
    expect(rowLabel(w, 'weights:no-diversity').text()).toContain('w/o tool diversity')
  })

  it('keeps the form and says why when the backend refuses the config, then runs it and shows cells and the table', async () => {
    const w = await mountAt(`/workspaces/${demo.workspaceId}/ablations`)
    await until(() => w.find('[data-test=ablation-environment]').exists(), 'the builder')
    await w.get('[data-test=ablation-environment]').setValue('graph-menu')
    await settle()
    await w.get('[data-test=ablation-name]').setValue('component')
    await w.get('[data-test=ablation-offset]').setValue('100000')
    await w.get('[data-test=ablation-limit]').setValue('2')
    await rowLabel(w, 'policy:scripted:oracle').get('input').setValue(true)
    await w.get('[data-test=ablation-run]').trigger('click')
    const note = () => w.find('[data-test=ablations-error]')
    await until(() => note().exists() && note().text().includes('has no questions from offset 100000'), 'the refusal')
    expect((w.get('[data-test=ablation-name]').element as HTMLInputElement).value).toBe('component')
    expect((rowLabel(w, 'policy:scripted:oracle').get('input').element as HTMLInputElement).checked).toBe(true)

    await w.get('[data-test=ablation-offset]').setValue('0')
    await w.get('[data-test=ablation-run]').trigger('click')
    await until(() => w.find('[data-test=ablation-cells]').exists(), 'the cells')
    expect(w.findAll('[data-test=ablation-cells] tbody tr')).toHaveLength(2)
    await until(() => w.find('[data-test=ablation-matrix]').exists(), 'the results table')
    expect(w.get('[data-test=ablation-current]').attributes('data-status')).toBe('done')
    expect(w.findAll('[data-test=ablation-matrix] tbody tr')).toHaveLength(2)
    expect(w.get('[data-test=ablation-matrix] tr[data-label="scripted: oracle"] td[data-metric="sp.f1"]').text()).toMatch(/\d+\.\d%/)
    // The table opens on the judged metric (SP F1 on sentence gold), not the answerer's EM, and shows the headline metrics only.
    expect(w.findAll('[data-test=ablation-matrix] thead th[data-metric]').map((th) => th.attributes('data-metric'))[0]).toBe('sp.f1')
    expect(w.find('[data-test=ablation-matrix] thead th[data-metric="sp.recall"]').exists()).toBe(false)
    expect(w.find('[data-test=ablation-list] tr[data-status=done]').exists()).toBe(true)
  }, 600_000)
})
