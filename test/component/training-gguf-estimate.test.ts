/**
 * The Training launcher's GGUF run time against the real backend in-process (real job worker, real native
 * trainer, a real tiny llama written by the test): with no measured rate the form says so, proposes a small
 * shape and offers Measure speed; the speed check is a real one-step run, listed under its name; once it is
 * done the expected duration of the form's shape shows, from the rates the backend read from that run, and
 * follows the shape; Fit sets the largest shape within the budget; a running run's panel shows its time left.
 */
import { join } from 'node:path'
import type { VueWrapper } from '@vue/test-utils'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { expectedRunSeconds, fitRunShape, formatDuration, remainingSeconds, RUN_SHAPES, type GgufRates, type RunShape } from '../../common'
import { provideApi } from '../../renderer/src/api'
import { SMALL_SHAPE, SPEED_CHECK_HELD_OUT, UNMEASURED_SHAPE } from '../../renderer/src/stores/gguf-rates'
import { useTrainingStore } from '../../renderer/src/stores/training'
// The writer itself: test/helpers/gguf also resolves the stories model by URL, which happy-dom's URL cannot.
import { writeTinyLlama } from '../../bench/support/gguf/tiny-llama'
import { tempDir, type TestBackend } from '../helpers/services'
import { countingApi, ingestedWorkspace, mountApp, settle, startJobBackend, until } from './fixtures'

describe('Training launcher: the expected run time of a GGUF run', () => {
  const tmp = tempDir('harness-lab-gguf-estimate-')
  const model = writeTinyLlama(join(tmp.dir, 'tiny-f32.gguf'), { seed: 5, contextLength: 2048 }).file
  let backend: TestBackend
  let workspaceId: string
  let trainer = ''
  let wrapper: VueWrapper | undefined

  beforeAll(async () => {
    backend = await startJobBackend()
    provideApi(countingApi(backend).api)
    workspaceId = await ingestedWorkspace(backend, 'GGUF estimate', { kind: 'demo', seed: 4, size: 0.3 })
    const status = await backend.call('training.ggufTrainer', {})
    trainer = status.available ? '' : (status.reason ?? 'unavailable')
    if (!trainer) await backend.call('models.add', { path: model })
  }, 600_000)
  afterAll(() => backend?.close().finally(() => tmp.cleanup()))
  afterEach(() => void wrapper?.unmount())

  const value = (w: VueWrapper, field: string) => Number((w.get(`[data-test=${field}]`).element as HTMLInputElement).value)
  const formShape = (w: VueWrapper): RunShape => ({
    steps: value(w, 'train-steps'),
    groupSize: value(w, 'train-group-size'),
    questionsPerStep: value(w, 'train-questions-per-step'),
    evalInterval: value(w, 'train-eval-interval'),
    heldOutQuestions: value(w, 'heldout-limit'),
  })
  const duration = (w: VueWrapper) => w.get('[data-test=gguf-expected-duration]').text()
  const readRates = async (): Promise<GgufRates> => (await backend.call('training.ggufRates', { workspaceId, modelPath: model, environment: 'graph-menu', contextSize: 512 }))!.rates

  async function chooseGguf(): Promise<VueWrapper> {
    wrapper = await mountApp(`/workspaces/${workspaceId}/training`)
    const w = wrapper
    await until(() => w.find('[data-test=train-config]').exists(), 'the training launcher')
    await w.get('[data-test=train-environment]').setValue('graph-menu')
    await w.get('[data-test=train-policy-kind]').setValue('gguf')
    await until(() => w.findAll('[data-test=train-gguf-model] option').some((o) => o.attributes('value') === model), 'the registered model offered')
    return w
  }

  it('says no rate is measured, proposes a small shape, measures speed with a real one-step run, then shows the expected duration as the shape changes and fits a budget', async (ctx) => {
    if (trainer) return ctx.skip(`GGUF trainer unavailable: ${trainer}`)
    const w = await chooseGguf()
    // No model chosen yet: nothing to look up, and the GGUF shape is already the small one, not the head's 30 x 8 x 16.
    expect(w.get('[data-test=gguf-estimate]').text()).toContain('Choose a model')
    expect(formShape(w)).toMatchObject({ steps: UNMEASURED_SHAPE.steps, groupSize: UNMEASURED_SHAPE.groupSize, questionsPerStep: UNMEASURED_SHAPE.questionsPerStep })
    // Back to the head: its own shape (the Defaults') again.
    const defaults = (await backend.call('training.catalog', {})).defaults
    await w.get('[data-test=train-policy-kind]').setValue('head')
    await settle()
    expect(formShape(w)).toMatchObject({ steps: defaults.steps, groupSize: defaults.groupSize, questionsPerStep: defaults.questionsPerStep, evalInterval: defaults.evalInterval })
    await w.get('[data-test=train-policy-kind]').setValue('gguf')
    await settle()
    await w.get('[data-test=train-gguf-model]').setValue(model)
    await until(() => w.find('[data-test=gguf-no-rates]').exists(), 'the no-rates note')
    expect(w.get('[data-test=gguf-no-rates]').text()).toMatch(/No speed measured yet for this model, environment and context on this machine/)
    expect(w.find('[data-test=gguf-expected]').exists()).toBe(false)
    expect(formShape(w)).toMatchObject({ steps: UNMEASURED_SHAPE.steps, groupSize: UNMEASURED_SHAPE.groupSize, questionsPerStep: UNMEASURED_SHAPE.questionsPerStep })
    const measure = w.get('[data-test=gguf-measure]')
    expect(measure.text()).toBe('Measure speed')
    expect(measure.attributes('disabled')).toBeUndefined()

    await measure.trigger('click')
    await settle()
    // The speed check is a normal run, listed under its name.
    // The button waits while the check runs.
    await until(() => w.get('[data-test=gguf-measure]').text() === 'Measuring speed…', 'the button measuring')
    expect(w.get('[data-test=gguf-measure]').attributes('disabled')).toBeDefined()
    await until(() => w.findAll('[data-test=select-training-run]').some((r) => r.text().endsWith('speed check: tiny-f32.gguf (1 step)')), 'the speed check listed')
    const runs = await backend.call('training.runs', { workspaceId })
    const check = runs.find((r) => r.name === 'speed check: tiny-f32.gguf (1 step)')!
    expect(check).toBeDefined()
    await until(() => w.find('[data-test=gguf-expected]').exists(), 'the expected duration after the speed check', 600_000)
    const detail = await backend.call('training.run', { workspaceId, runId: check.id })
    expect(detail.run.status).toBe('done')
    expect(detail.config).toMatchObject({ steps: 1, groupSize: SMALL_SHAPE.groupSize, questionsPerStep: SMALL_SHAPE.questionsPerStep, environment: 'graph-menu', gguf: { modelPath: model } })
    expect(detail.config.heldOut.limit).toBeLessThanOrEqual(SPEED_CHECK_HELD_OUT)

    // The figure is the backend's rates from that run applied to the form's shape, which the form fitted to 10 minutes.
    const measured = await backend.call('training.ggufRates', { workspaceId, modelPath: model, environment: 'graph-menu', contextSize: 512 })
    expect(measured?.runId).toBe(check.id)
    const rates = measured!.rates
    expect(w.get('[data-test=gguf-expected]').text()).toContain(`measured on run #${check.id}`)
    const every = defaults.evalInterval
    const fitted = fitRunShape(rates, 600, value(w, 'heldout-limit'), every)
    expect(formShape(w)).toEqual({ steps: fitted.steps, groupSize: fitted.groupSize, questionsPerStep: fitted.questionsPerStep, evalInterval: fitted.evalInterval, heldOutQuestions: fitted.heldOutQuestions })
    expect(duration(w)).toBe(formatDuration(expectedRunSeconds(rates, formShape(w))))

    // The figure follows the shape.
    for (const [steps, group] of [[1, 1], [200, 16]] as const) {
      await w.get('[data-test=train-steps]').setValue(String(steps))
      await w.get('[data-test=train-group-size]').setValue(String(group))
      await settle()
      expect(duration(w)).toBe(formatDuration(expectedRunSeconds(rates, formShape(w))))
    }
    const small = formatDuration(expectedRunSeconds(rates, { ...formShape(w), steps: 1, groupSize: 1 }))
    expect(duration(w)).not.toBe(small)

    // Fit to a budget between two shapes picks the larger one that fits, and its expected time is within it.
    const sized = RUN_SHAPES.map((s) => expectedRunSeconds(rates, { ...s, heldOutQuestions: value(w, 'heldout-limit'), evalInterval: Math.min(every, s.steps) }))
    const budgetSeconds = (sized[4]! + sized[5]!) / 2
    await w.get('[data-test=gguf-budget]').setValue(String(budgetSeconds / 60))
    await settle()
    await w.get('[data-test=gguf-fit]').trigger('click')
    await settle()
    const chosen = formShape(w)
    expect(expectedRunSeconds(rates, chosen)).toBeLessThanOrEqual(budgetSeconds)
    const index = RUN_SHAPES.findIndex((s) => s.steps === chosen.steps && s.groupSize === chosen.groupSize && s.questionsPerStep === chosen.questionsPerStep)
    expect(index).toBeGreaterThanOrEqual(0)
    // every larger shape is over the budget
    for (const over of sized.slice(0, index)) expect(over).toBeGreaterThan(budgetSeconds)
    expect(duration(w)).toBe(formatDuration(expectedRunSeconds(rates, chosen)))
    // rates read again are the same run's (no other run measured them)
    expect(await readRates()).toEqual(rates)
  }, 900_000)

  it("a running GGUF run's panel shows the time left its finished steps measure", async (ctx) => {
    if (trainer) return ctx.skip(`GGUF trainer unavailable: ${trainer}`)
    const w = await chooseGguf()
    await w.get('[data-test=train-gguf-model]').setValue(model)
    await until(() => w.find('[data-test=gguf-expected]').exists(), 'the estimate from the earlier speed check')
    for (const [field, v] of [['train-steps', 4], ['train-group-size', 2], ['train-questions-per-step', 2], ['train-eval-interval', 2]] as const) await w.get(`[data-test=${field}]`).setValue(String(v))
    await w.get('[data-test=train-name]').setValue('timed run')
    await w.get('[data-test=training-launcher]').trigger('submit')
    const training = useTrainingStore()
    const left = () => w.find('[data-test=training-time-left]')
    await until(() => left().exists(), 'the running run', 600_000)
    // The figure is remainingSeconds over the steps the page holds (the progress lines' rule), once a step has finished.
    const stated = () => {
      const steps = training.detail?.steps ?? []
      const last = steps.at(-1)
      return last ? `about ${formatDuration(remainingSeconds(steps, { steps: 4, evalInterval: 2 }, last.step)!)} left after step ${last.step}` : 'time left known once a step has finished'
    }
    await until(() => left().exists() && left().text() === stated() && training.detail!.steps.length > 0, 'the time left after a step', 600_000)
    // Stop the run: this test is about the panel.
    await w.get('[data-test=training-stop]').trigger('click')
    await until(() => w.get('[data-test=training-run]').attributes('data-status') !== 'running', 'the stopped run')
    expect(left().exists()).toBe(false)
  }, 900_000)
})
