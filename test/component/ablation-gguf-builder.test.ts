/**
 * The ablation builder's GGUF training choice against the real backend in-process: the training rows
 * train the head or a registered GGUF policy's own weights; the builder offers only F32 policy models
 * (the ones llama.cpp trains), says why when none can train here, and the saved ablation's training
 * carries the gguf block with the options chosen on the page.
 */
import { join } from 'node:path'
import type { VueWrapper } from '@vue/test-utils'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { provideApi } from '../../renderer/src/api'
import { GgufTrainSchema } from '../../preload/contract'
// The writer itself: test/helpers/gguf also resolves the stories model by URL, which happy-dom's URL cannot.
import { writeTinyLlama } from '../../bench/support/gguf/tiny-llama'
import { tempDir, type TestBackend } from '../helpers/services'
import { countingApi, mountApp, settle, startJobBackend, until, ingestedWorkspace } from './fixtures'

describe('Ablations page: a GGUF training row', () => {
  const tmp = tempDir('harness-lab-ablation-gguf-builder-')
  const f32 = writeTinyLlama(join(tmp.dir, 'tiny-f32.gguf'), { seed: 5, contextLength: 2048 }).file
  const f16 = writeTinyLlama(join(tmp.dir, 'tiny-f16.gguf'), { seed: 6, weightType: 'F16' }).file
  let backend: TestBackend
  let workspaceId: string
  let wrapper: VueWrapper | undefined

  beforeAll(async () => {
    backend = await startJobBackend()
    provideApi(countingApi(backend).api)
    workspaceId = await ingestedWorkspace(backend, 'Ablation GGUF builder', { kind: 'demo', seed: 4, size: 0.3 })
  }, 600_000)
  afterAll(async () => {
    await backend?.close()
    tmp.cleanup()
  })
  afterEach(() => {
    wrapper?.unmount()
    wrapper = undefined
  })

  const rowLabel = (w: VueWrapper, key: string) => w.find(`[data-test=ablation-builder] label[data-row="${key}"]`)
  const blocked = (w: VueWrapper) => w.find('[data-test=ablation-gguf-blocked]')
  const modelOptions = (w: VueWrapper) => w.findAll('[data-test=ablation-gguf-model] option').map((o) => o.attributes('value')).filter((v) => v !== '')

  async function chooseGgufTraining(): Promise<VueWrapper> {
    wrapper = await mountApp(`/workspaces/${workspaceId}/ablations`)
    const w = wrapper
    await until(() => w.find('[data-test=ablation-environment]').exists(), 'the builder')
    await w.get('[data-test=ablation-environment]').setValue('graph-menu')
    await settle()
    await w.get('[data-test=ablation-name]').setValue('gguf weights')
    await rowLabel(w, 'credit:outcome').get('input').setValue(true)
    await until(() => w.find('[data-test=ablation-train-kind]').exists(), 'the training choice')
    await w.get('[data-test=ablation-train-kind]').setValue('gguf')
    await until(() => w.find('[data-test=ablation-gguf-options]').exists(), 'the GGUF fields')
    return w
  }

  it('says why no model can train: none registered, then only an F16 one', async () => {
    const w = await chooseGgufTraining()
    // Wait for the trainer's answer (the first ask may build it), then read the reason.
    await until(() => blocked(w).exists() && !blocked(w).text().startsWith('Checking'), 'the trainer check')
    const trainerMissing = blocked(w).text().startsWith('GGUF weights cannot train here')
    expect(blocked(w).text()).toMatch(trainerMissing ? /GGUF weights cannot train here: / : /No policy model is registered: add an F32 GGUF model on the Models page/)
    expect(w.get('[data-test=ablation-run]').attributes('disabled')).toBeDefined()
    if (trainerMissing) return

    await backend.call('models.add', { path: f16 })
    w.unmount()
    const again = await chooseGgufTraining()
    await until(() => blocked(again).exists() && blocked(again).text().includes('No registered policy model is F32'), 'the F16 reason')
    expect(blocked(again).text()).toMatch(/\(tiny-f16\.gguf: F16\): llama\.cpp trains F32 weights only/)
    expect(modelOptions(again)).toEqual([])
    expect(again.get('[data-test=ablation-run]').attributes('disabled')).toBeDefined()
  })

  it('saves the ablation with the gguf block the page set (model, optimiser, learning rate, context, max tokens)', async (ctx) => {
    const status = await backend.call('training.ggufTrainer', {})
    if (!status.available) return ctx.skip(`GGUF trainer unavailable: ${status.reason}`)
    await backend.call('models.add', { path: f32 })
    const w = await chooseGgufTraining()
    // Nothing blocks once the trainer has answered; only the F32 policy model is offered, not the F16 one (registered above).
    await until(() => modelOptions(w).length > 0 && !blocked(w).exists(), 'the F32 model offered')
    expect(modelOptions(w)).toEqual([f32])
    // "After training" says it trains, and what: new GGUF weights, with the short run's credit and steps.
    expect(w.get('[data-test=ablation-policy] option[value="head:after"]').text()).toBe('trains new GGUF weights: outcome, 4 steps')
    // The contract's defaults stand in the fields.
    const defaults = GgufTrainSchema.parse({ modelPath: f32 })
    const other = defaults.optimizer === 'sgd' ? 'adamw' : 'sgd'
    expect((w.get('[data-test=ablation-gguf-lr]').element as HTMLInputElement).value).toBe(String(defaults.learningRate))
    expect((w.get('[data-test=ablation-gguf-optimizer]').element as HTMLSelectElement).value).toBe(defaults.optimizer)
    expect((w.get('[data-test=ablation-gguf-kl-target]').element as HTMLInputElement).value).toBe(String(defaults.klTarget))
    const fields: Record<string, string> = {
      'ablation-gguf-model': f32,
      'ablation-gguf-optimizer': other,
      'ablation-gguf-lr': '0.0005',
      'ablation-gguf-kl-coef': '0.1',
      'ablation-gguf-kl-target': '2',
      'ablation-gguf-context': '1024',
      'ablation-gguf-max-tokens': '32',
      'ablation-offset': '0',
      'ablation-limit': '2',
      'ablation-train-offset': '2',
      'ablation-train-limit': '4',
      'ablation-steps': '1',
    }
    for (const [field, value] of Object.entries(fields)) await w.get(`[data-test=${field}]`).setValue(value)
    await settle()
    expect(w.get('[data-test=ablation-run]').attributes('disabled')).toBeUndefined()
    await w.get('[data-test=ablation-run]').trigger('click')
    await until(() => w.find('[data-test=ablation-current]').exists(), 'the saved ablation')

    const [summary] = await backend.call('ablations.list', { workspaceId })
    const saved = await backend.call('ablations.get', { workspaceId, id: summary!.id })
    // the fields set, the contract's defaults for the rest
    expect(saved.config.base.training.gguf).toEqual({ ...defaults, optimizer: other, learningRate: 0.0005, klCoef: 0.1, klTarget: 2, contextSize: 1024, maxTokens: 32 })
    expect(saved.config.rows).toEqual([expect.objectContaining({ training: { credit: { scheme: 'outcome', lambda: 0.5 } } })])
    // The training row trains the model's own weights and its cells play the trained weights.
    expect(saved.resolved[1]).toMatchObject({ kind: 'train', policy: { kind: 'gguf', stage: 'after', modelPath: f32 }, unavailable: null })
    // The page started the job; stop it (this test is about the config) and wait for it to end.
    const jobId = (await backend.call('ablations.get', { workspaceId, id: saved.id })).jobId
    if (jobId) {
      await backend.call('job.cancel', { id: jobId }).catch(() => undefined)
      await backend.services.jobs.waitFor(jobId)
    }
  })
})
