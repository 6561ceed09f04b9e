/**
 * The lexical answerer's caveat as a page shows it (the real component over the real metric catalogue):
 * the case, head EM 17.4 % vs greedy 30.4 % with higher SP F1, is named with both figures in the
 * catalogue's labels and units; rows a model answered, or rankings that agree, get no note.
 */
import { mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { provideApi } from '../../renderer/src/api'
import AnswerCaveat from '../../renderer/src/components/AnswerCaveat.vue'
import { useCatalogStore } from '../../renderer/src/stores/catalog'
import { inProcessApi } from '../helpers/in-process-api'
import type { TestBackend } from '../helpers/services'
import { startJobBackend } from './fixtures'

describe('AnswerCaveat', () => {
  let backend: TestBackend
  beforeAll(async () => {
    backend = await startJobBackend()
    provideApi(inProcessApi(backend))
  }, 300_000)
  afterAll(() => backend?.close())

  const head = { label: '#12 head', lexical: true, metrics: { 'answer.em.official': 4 / 23, 'sp.f1': 0.52 } }
  const greedy = { label: '#10 greedy', lexical: true, metrics: { 'answer.em.official': 7 / 23, 'sp.f1': 0.44 } }
  const metrics = ['sp.f1', 'answer.em.official', 'turns']

  it('names the pair whose EM ranks opposite to SP F1, with both figures', async () => {
    setActivePinia(createPinia())
    await useCatalogStore().load()
    const w = mount(AnswerCaveat, { props: { rows: [greedy, head], metrics } })
    const items = w.findAll('[data-test=answer-inversion]')
    expect(items).toHaveLength(1)
    expect(items[0]!.text()).toBe('EM (official HotpotQA/2Wiki) ranks #12 head below #10 greedy (17.4% vs 30.4%) though SP F1 ranks it above (52.0% vs 44.0%).')
    expect(w.get('[data-test=answer-caveat]').text()).toContain('judge these runs by SP F1')
  })

  it('says nothing where a model answered, where the rankings agree, or without the evidence metric beside EM', async () => {
    setActivePinia(createPinia())
    await useCatalogStore().load()
    expect(mount(AnswerCaveat, { props: { rows: [greedy, { ...head, lexical: false }], metrics } }).find('[data-test=answer-caveat]').exists()).toBe(false)
    expect(mount(AnswerCaveat, { props: { rows: [greedy, { ...head, metrics: { ...head.metrics, 'answer.em.official': 0.5 } }], metrics } }).find('[data-test=answer-caveat]').exists()).toBe(false)
    expect(mount(AnswerCaveat, { props: { rows: [greedy, head], metrics: ['answer.em.official', 'turns'] } }).find('[data-test=answer-caveat]').exists()).toBe(false)
  })
})
