/**
 * The Training section on paragraph-level gold (the MuSiQue-format fixture, real importer, real job
 * worker): with no saved config the launcher offers the defaults and a run launched with them trains on
 * the paragraph reward; a finished run shows paragraph metrics (run list headline, held-out chart with
 * points, paired table rows, rollout column) with labels from the metric catalogue.
 */
import type { VueWrapper } from '@vue/test-utils'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { provideApi } from '../../renderer/src/api'
import { join } from 'node:path'
import type { TestBackend } from '../helpers/services'
import { countingApi, mountApp, settle, startJobBackend, until, ingestedWorkspace } from './fixtures'

describe('Training section on paragraph gold', () => {
  let backend: TestBackend
  let workspaceId: string
  let wrapper: VueWrapper | undefined

  beforeAll(async () => {
    backend = await startJobBackend()
    provideApi(countingApi(backend).api)
    workspaceId = await ingestedWorkspace(backend, 'Paragraph gold', { kind: 'benchmark', benchmark: 'musique', questionsFile: join(import.meta.dirname, '..', 'fixtures', 'gold', 'musique-repeated-titles.jsonl') })
  }, 600_000)
  afterAll(() => backend?.close())
  afterEach(() => {
    wrapper?.unmount()
    wrapper = undefined
  })

  it('launches with the defaults (no saved config): the run trains on the paragraph reward', async () => {
    const w = (wrapper = await mountApp(`/workspaces/${workspaceId}/training`))
    await until(() => w.find('[data-test=train-config]').exists(), 'the training launcher')
    expect(w.get('[data-test=no-configs]').text()).toContain('Trains with the defaults')
    expect((w.get('[data-test=train-config]').element as HTMLSelectElement).value).toBe('')
    await w.get('[data-test=train-limit]').setValue('3')
    await w.get('[data-test=heldout-offset]').setValue('3')
    await w.get('[data-test=heldout-limit]').setValue('2')
    await settle()
    await w.get('[data-test=training-launcher]').trigger('submit')
    await until(() => w.find('[data-test=training-run]').exists(), 'the launched run selected')
    const run = (await backend.call('training.runs', { workspaceId }))[0]!
    // The stored config carries the reward the backend picked for the set's gold level; stop the (30-step) run.
    const detail = await backend.call('training.run', { workspaceId, runId: run.id })
    expect(Object.keys(detail.config.reward.weights)).toEqual(['paragraph.f1', 'paragraph.allGold'])
    expect(run.headlineMetric).toBe('paragraph.f1')
    await backend.call('job.cancel', { id: run.jobId! })
    await backend.services.jobs.waitFor(run.jobId!)
  }, 600_000)

  it('a finished run shows paragraph metrics: run list headline, held-out chart, paired table and rollouts', async () => {
    const job = await backend.call('job.start', {
      kind: 'train.run', workspaceId,
      params: { mode: 'new', config: { name: 'paragraph run', environment: 'graph-menu', steps: 2, groupSize: 2, questionsPerStep: 2, evalInterval: 1, credit: { scheme: 'outcome', lambda: 0 }, train: { questionSetId: 1, offset: 0, limit: 3 }, heldOut: { questionSetId: 1, offset: 3, limit: 2 } } },
    })
    const done = await backend.services.jobs.waitFor(job.id)
    expect(done.status, done.error ?? '').toBe('done')
    expect(done.message).toContain('held-out Paragraph F1 (evidence)')
    const runId = (await backend.call('training.runs', { workspaceId })).find((r) => r.name === 'paragraph run')!.id
    const w = (wrapper = await mountApp(`/workspaces/${workspaceId}/training`))
    await until(() => w.find(`[data-test=training-runs] tr[data-run="${runId}"]`).exists(), 'the run listed')
    const row = w.get(`[data-test=training-runs] tr[data-run="${runId}"]`)
    expect(row.get('[data-test=heldout-headline]').text()).toMatch(/^Paragraph F1 \(evidence\) \d{1,3}\.\d% → \d{1,3}\.\d%$/)
    await row.get('[data-test=select-training-run]').trigger('click')
    await until(() => w.find('[data-test=chart-held-out]').exists(), 'the charts')
    expect(w.get('[data-test=chart-held-out] figcaption').text()).toContain('Paragraph F1 (evidence)')
    expect(w.findAll('[data-test=chart-held-out] circle').map((c) => Number(c.attributes('data-step')))).toEqual([0, 1, 2])
    const table = w.get('[data-test=held-out-table]')
    expect(table.findAll('tbody tr').map((r) => r.attributes('data-metric'))).toEqual(['paragraph.f1', 'paragraph.recall', 'paragraph.precision', 'paragraph.allGold', 'evidence.count'])
    expect(table.get('tbody tr[data-metric="paragraph.f1"] td .value').text()).toMatch(/^\d{1,3}\.\d%$/)
    await w.get('[data-test=rollout-step]').setValue('1')
    await until(() => w.find('[data-test=rollouts-table]').exists(), 'the rollouts of step 1')
    expect(w.get('[data-test=rollout-headline]').text()).toBe('Paragraph F1 (evidence)')
  }, 600_000)
})
