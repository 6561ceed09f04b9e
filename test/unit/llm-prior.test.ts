import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createEnvironment, runEpisode } from '../../main/harness'
import { resolveTrainConfig, runTraining, TrainingStore } from '../../main/experiments/training'
import { defaultWarmStartFor } from '../../main/experiments/training/config/resolve-config'
import { LexicalAnswerer } from '../../main/policy/answerer/lexical-answerer'
import { createHead, restoreHead } from '../../main/policy/head'
import { candidateBuilder, headInputDim, HeadPolicy } from '../../main/policy/head-policy'
import { LlamaRuntime } from '../../main/llm/llama-runtime'
import { createPolicy, disposeModelCache, menuPrior, type MenuLlmPolicy } from '../../main/policy/llm-policy'
import { openDemoWorkspace, type DemoWorkspace } from '../helpers/corpus'
import { fixtureDir, writeTinyLlama } from '../helpers/gguf'

const tmp = fixtureDir()
let runtime: LlamaRuntime
let demo: DemoWorkspace
let llm: MenuLlmPolicy
let modelPath = ''

beforeAll(async () => {
  runtime = await LlamaRuntime.create({ gpu: 'cpu', threads: 1 })
  demo = await openDemoWorkspace(7, 0.6)
  modelPath = writeTinyLlama(join(tmp.dir, 'prior.gguf'), { seed: 3, contextLength: 4096 }).file
  llm = (await createPolicy({ kind: 'llm-menu', modelPath, contextSize: 4096, sequences: 2 }, runtime)) as MenuLlmPolicy
}, 600_000)
afterAll(async () => {
  await llm?.dispose()
  await disposeModelCache(runtime)
  await runtime?.dispose()
  await demo?.close()
  tmp.cleanup()
})

describe('LLM prior + trainable head', () => {
  it("adds beta times the frozen model's log-probability of each menu id, and trains beta", async () => {
    const head = createHead('linear', { inputDim: headInputDim('sentence-menu'), seed: 2, initialBeta: 0.5 })
    const policy = new HeadPolicy(head, candidateBuilder('sentence-menu'), { mode: 'sample', prior: menuPrior(llm) })
    const env = createEnvironment('graph-menu', demo.ctx)
    const t = await runEpisode(env, policy, demo.questions[0]!, 4, { observations: true })
    expect(t.outcome.formatErrors).toBe(0)
    expect(policy.records.length).toBe(t.steps.length)
    for (const [i, r] of policy.records.entries()) {
      const step = t.steps[r.t]!
      expect(r.prior).not.toBeNull()
      expect(r.prior!.every((p) => Number.isFinite(p) && p < 0)).toBe(true)
      // The prior is the model's own score of each id at that state.
      const ids = step.actions.kind === 'menu' ? step.actions.items.map((x) => x.id) : []
      expect(await llm.menuLogprobs(step.observation!, step.actions, ids)).toEqual(r.prior)
      // And it moves the policy: the logits are beta * prior + head(features).
      const withPrior = head.forward(r.rows, r.prior!).logp
      const without = head.forward(r.rows).logp
      if (i === 0) expect(withPrior).not.toEqual(without)
      expect(withPrior[r.chosen]).toBeCloseTo(r.logp, 10)
    }
    // beta receives a gradient through the prior.
    head.zeroGrad()
    const r = policy.records[0]!
    head.accumulate(head.forward(r.rows, r.prior!).cache, r.chosen, -1)
    expect(head.grad[head.segments.find((seg) => seg.name === 'beta')!.offset]).not.toBe(0)
  })

  it('trains with the prior in a run: the run stores the model, beta moves, the model file is unchanged', async () => {
    const total = Number(demo.db.raw.prepare('select count(*) from questions').pluck().get())
    const before = readFileSync(modelPath)
    const r = await runTraining(demo.db.raw, {
      environment: 'graph-menu', steps: 2, groupSize: 2, questionsPerStep: 2, evalInterval: 5, seed: 3, learningRate: 0.05,
      head: { arch: 'linear', hidden: 8 }, prior: { modelPath },
      // graph-menu's default warm start (the prior scores every state the teacher plays), on the first 4 train questions, not all.
      warmStart: { ...defaultWarmStartFor('graph-menu')!, questions: 4 },
      train: { questionSetId: 1, offset: 0, limit: total - 4 }, heldOut: { questionSetId: 1, offset: total - 4, limit: 4 },
    }, { answerer: new LexicalAnswerer(), appVersion: 'test', jobId: null, progress: () => {}, throwIfCancelled: () => {}, llm: async () => runtime })
    const checkpoint = new TrainingStore(demo.db.raw).lastCheckpoint(r.runId)!
    const head = restoreHead(checkpoint.head)
    expect(head.beta).not.toBe(1)
    expect(readFileSync(modelPath).equals(before)).toBe(true)
    expect(() => resolveTrainConfig(demo.db.raw, { environment: 'free-query', credit: { scheme: 'outcome', lambda: 0 }, prior: { modelPath }, train: { questionSetId: 1, offset: 0, limit: 5 }, heldOut: { questionSetId: 1, offset: 5, limit: 5 } })).toThrow(/An LLM prior scores menu ids/)
  })
})
