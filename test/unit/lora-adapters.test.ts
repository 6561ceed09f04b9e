/**
 * LoRA back into the app: a GGUF adapter (written by the test GGUF writer) registered against a tiny base
 * model through the API (shapes checked from the headers; a mismatch names the tensor), listed with the
 * models, and evaluated as base + LoRA through the evaluation's own policy spec on a real demo workspace.
 */
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EvalParams } from '../../preload/contract'
import { runEvaluation } from '../../main/experiments/runs/evaluate'
import { policyFor } from '../../main/experiments/factories'
import { createEnvironment, runEpisode } from '../../main/harness'
import { LexicalAnswerer } from '../../main/policy/answerer'
import { checkLoraFit } from '../../main/policy/llm-policy'
import { openDemoWorkspace, type DemoWorkspace } from '../helpers/corpus'
import { writeTinyLlama, writeTinyLoraAdapter } from '../helpers/gguf'
import { startBackend, tempDir, type TestBackend } from '../helpers/services'
import { getSharedRuntime } from '../../main/llm/llama-runtime'

const tmp = tempDir('harness-lab-lora-')
const baseOptions = { seed: 4 }
const basePath = join(tmp.dir, 'base.gguf')
const adapterPath = join(tmp.dir, 'adapter-r4.gguf')
const wrongPath = join(tmp.dir, 'adapter-wrong-width.gguf')

beforeAll(() => {
  writeTinyLlama(basePath, baseOptions)
  writeTinyLoraAdapter(adapterPath, baseOptions, { rank: 4, alpha: 8, bScale: 2 })
  writeTinyLoraAdapter(wrongPath, { ...baseOptions, embeddingLength: 32 }, { rank: 4 })
})
afterAll(() => tmp.cleanup())

describe('LoRA registration', () => {
  let backend: TestBackend
  beforeAll(async () => {
    backend = await startBackend()
  })
  afterAll(() => backend.close())

  it('checks the fit from the headers and names the mismatching tensor', async () => {
    const fit = await checkLoraFit(adapterPath, basePath)
    expect(fit).toMatchObject({ architecture: 'llama', rank: 4, alpha: 8 })
    expect(fit.targets).toEqual(['blk.0.attn_q.weight', 'blk.0.attn_v.weight', 'blk.1.attn_q.weight', 'blk.1.attn_v.weight'])
    await expect(checkLoraFit(wrongPath, basePath)).rejects.toThrow(/does not fit base model .*blk\.0\.attn_q\.weight: base is \[64, 64\], adapter lora_a \[32, 4\]/)
    await expect(checkLoraFit(basePath, basePath)).rejects.toThrow(/not a LoRA adapter/)
    await expect(checkLoraFit(adapterPath, adapterPath)).rejects.toThrow(/not a base model/)
  })

  it('registers an adapter against a base, lists the pairing on both, refuses a mismatch and forgets it with the base', async () => {
    const base = await backend.call('models.add', { path: basePath })
    const adapter = await backend.call('models.add', { path: adapterPath })
    const wrong = await backend.call('models.add', { path: wrongPath })
    expect([base.role, adapter.role, wrong.role]).toEqual(['policy', 'adapter', 'adapter'])

    const pairing = await backend.call('models.registerLora', { adapterId: adapter.id, baseId: base.id, scale: 0.5 })
    expect(pairing).toMatchObject({ adapterPath, basePath, scale: 0.5, rank: 4, alpha: 8 })
    const listed = await backend.call('models.list', {})
    expect(listed.find((m) => m.id === base.id)!.lora).toEqual([pairing])
    expect(listed.find((m) => m.id === adapter.id)!.lora).toEqual([pairing])
    expect(listed.find((m) => m.id === wrong.id)!.lora).toEqual([])

    const refused = await backend.call('models.registerLora', { adapterId: wrong.id, baseId: base.id }).catch((e: { body: unknown }) => e.body)
    expect(refused).toMatchObject({ code: 'VALIDATION', message: expect.stringMatching(/blk\.0\.attn_q\.weight: base is \[64, 64\]/) })
    const swapped = await backend.call('models.registerLora', { adapterId: base.id, baseId: adapter.id }).catch((e: { body: unknown }) => e.body)
    expect(swapped).toMatchObject({ code: 'VALIDATION', message: expect.stringMatching(/not a LoRA adapter/) })
    await expect(backend.call('models.load', { id: adapter.id })).rejects.toThrow(/applied to a base model/)

    // Re-registering updates the scale; removing the base drops its pairings (foreign key cascade).
    expect((await backend.call('models.registerLora', { adapterId: adapter.id, baseId: base.id, scale: 1 })).scale).toBe(1)
    expect((await backend.call('models.list', {})).find((m) => m.id === adapter.id)!.lora).toHaveLength(1)
    await backend.call('models.remove', { id: base.id })
    expect((await backend.call('models.list', {})).find((m) => m.id === adapter.id)!.lora).toEqual([])
    await expect(backend.call('models.unregisterLora', { adapterId: adapter.id, baseId: base.id })).rejects.toThrow(/No LoRA pairing/)
  })
})

describe('evaluating base + LoRA', () => {
  let demo: DemoWorkspace
  beforeAll(async () => {
    demo = await openDemoWorkspace(5, 0.4)
  }, 600_000)
  afterAll(() => demo?.close())

  it('runs an evaluation with the adapter from the eval policy spec; the run records it and the adapter changes the policy', async () => {
    const withLora = EvalParams.parse({ environment: 'graph-menu', policy: { kind: 'llm', modelPath: basePath, lora: { path: adapterPath } }, questionSetId: 1, limit: 3 })
    expect(withLora.policy).toMatchObject({ lora: { path: adapterPath, scale: 1 } })
    const plain = EvalParams.parse({ environment: 'graph-menu', policy: { kind: 'llm', modelPath: basePath }, questionSetId: 1, limit: 3 })

    const loraPolicy = await policyFor(withLora.policy, 'graph-menu', undefined, {}, getSharedRuntime)
    const basePolicy = await policyFor(plain.policy, 'graph-menu', undefined, {}, getSharedRuntime)
    try {
      expect(loraPolicy.value.name).toMatch(/^llm-menu:base\.gguf@[0-9a-f]{12}\+lora:adapter-r4\.gguf@[0-9a-f]{12}\*1$/)
      expect(basePolicy.value.name).not.toContain('+lora:')

      const deps = { answerer: new LexicalAnswerer(), appVersion: 'test', jobId: null, progress: () => undefined, throwIfCancelled: () => undefined }
      const spec = { ...withLora, name: 'base + LoRA', policy: withLora.policy, answerer: { kind: 'lexical' as const } }
      const summary = await runEvaluation(demo.db.raw, spec, { ...deps, policy: loraPolicy.value })
      expect(summary.episodes).toBe(3)
      const config = JSON.parse(demo.db.raw.prepare('select config_json from runs where id = ?').pluck().get(summary.runId) as string) as { policy: { name: string; lora: unknown } }
      expect(config.policy).toMatchObject({ name: loraPolicy.value.name, lora: { path: adapterPath, scale: 1 } })

      // Same question, seed and greedy decoding: the adapter moves the chosen action's log-probability.
      const q = demo.questions[0]!
      const a = await runEpisode(createEnvironment('graph-menu', demo.ctx), basePolicy.value, q, 1, { snapshots: false })
      const b = await runEpisode(createEnvironment('graph-menu', demo.ctx), loraPolicy.value, q, 1, { snapshots: false })
      expect(a.steps[0]!.decision.logprob).toEqual(expect.any(Number))
      expect(Math.abs(a.steps[0]!.decision.logprob! - b.steps[0]!.decision.logprob!)).toBeGreaterThan(1e-6)
    } finally {
      await loraPolicy.dispose()
      await basePolicy.dispose()
    }
  }, 600_000)

  it('refuses an adapter that does not fit the base before any context is made', async () => {
    const spec = EvalParams.parse({ environment: 'graph-menu', policy: { kind: 'llm', modelPath: basePath, lora: { path: wrongPath } }, questionSetId: 1 })
    await expect(policyFor(spec.policy, 'graph-menu', undefined, {}, getSharedRuntime)).rejects.toThrow(/does not fit base model/)
  })
})
