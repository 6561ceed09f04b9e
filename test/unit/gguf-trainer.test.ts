/**
 * The native GGUF trainer on the real stories260K: a few advantage-weighted updates raise the
 * teacher-forced log-probability of the positively rewarded continuation and lower the negatively
 * rewarded one, measured with node-llama-cpp on the saved GGUF (which loads and differs from the base);
 * each update is one optimizer step that applies its own gradient once (a fresh process per update gives
 * the same file); the KL guard and the KL term act; prompt positions carry weight 0, and quantised models
 * are refused before anything loads.
 */
import { execFile, execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import type { Token } from 'node-llama-cpp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { GgufTrainSchema, type GgufTrainConfig } from '../../preload/contract'
import { loadRequestFor, trainRequestFor } from '../../main/experiments/training'
import { ensureTrainerBinary, GgufTrainer, GgufTrainerUnavailableError, type TrainerBinary } from '../../main/llm/training'
import { evaluateTarget } from '../../main/llm/scoring'
import { STORIES_260K, storiesAvailable, storiesTitle, writeTinyLlama } from '../helpers/gguf'
import { useRuntimeFixture } from '../helpers/gguf/runtime'

let binary: TrainerBinary | null = null
let unavailable = ''
beforeAll(async () => {
  try {
    binary = await ensureTrainerBinary()
  } catch (err) {
    if (!(err instanceof GgufTrainerUnavailableError)) throw err
    unavailable = err.message
  }
}, 600_000)

const sha = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex')

describe.skipIf(!storiesAvailable)(storiesTitle('GGUF trainer on stories260K'), () => {
  const fixture = useRuntimeFixture()
  let trainer: GgufTrainer | null = null
  afterAll(async () => trainer?.close())

  async function teacherForced(modelPath: string, prompt: Token[], targets: Token[][]): Promise<number[]> {
    const loaded = await fixture.runtime().loadModel(modelPath)
    try {
      const context = await loaded.createContext({ contextSize: 256 })
      const sequence = context.getSequence()
      const out: number[] = []
      for (const target of targets) {
        await sequence.clearHistory()
        out.push((await evaluateTarget(sequence, prompt, target)).sum)
      }
      await context.dispose()
      return out
    } finally {
      await loaded.dispose()
    }
  }

  /** The contract's defaults with these edits: the trainer gets every option from them, as a run's. */
  const config = (edits: Partial<GgufTrainConfig> = {}) => GgufTrainSchema.parse({ modelPath: STORIES_260K, contextSize: 64, ...edits })
  const load = (t: GgufTrainer, gguf: GgufTrainConfig, model: string, extra: { baseModel?: string | null; optimizerState?: string | null } = {}) =>
    t.load(loadRequestFor(gguf, model, { baseModel: extra.baseModel ?? null, optimizerState: extra.optimizerState ?? null, threads: 1 }))
  const weighted = (prompt: readonly Token[], target: readonly Token[], w: number, kl = 0) => ({
    tokens: [...prompt, ...target].map(Number),
    weights: [...prompt.map(() => 0), ...target.map(() => w)],
    klWeights: [...prompt.map(() => 0), ...target.map(() => kl)],
  })
  let story: { prompt: Token[]; good: Token[]; bad: Token[] } | null = null
  const tokens = async () => {
    if (story) return story
    const base = await fixture.runtime().loadModel(STORIES_260K)
    story = {
      prompt: base.model.tokenize('Once upon a time, there was a little girl named Lily. She', true),
      good: base.model.tokenize(' went to the park', false),
      bad: base.model.tokenize(' was very sad', false),
    }
    await base.dispose()
    return story
  }

  it('moves chosen tokens in the direction of their advantages and saves a GGUF that loads', async (ctx) => {
    if (!binary) return ctx.skip(`GGUF trainer unavailable: ${unavailable}`)
    const { prompt, good, bad } = await tokens()
    const before = await teacherForced(STORIES_260K, prompt, [good, bad])
    const gguf = config({ optimizer: 'sgd', maxGradNorm: 0 })
    trainer = await GgufTrainer.start()
    const info = await load(trainer, gguf, STORIES_260K, { baseModel: STORIES_260K })
    expect(info.nTrainable).toBeGreaterThan(0)
    expect(info.estimatedBytes).toBeGreaterThan(0)
    let last = null
    for (let step = 0; step < 3; step++) last = await trainer.train(trainRequestFor(gguf, [weighted(prompt, good, 1), weighted(prompt, bad, -1)], 0.002, []))
    // one optimizer step per update, whatever the number of sequences
    expect(last!.optimizerSteps).toBe(1)
    expect(last!.totalOptimizerSteps).toBe(3)
    expect(last!.sequences).toBe(2)
    expect(last!.weightedTokens).toBe(good.length + bad.length)
    expect(last!.gradNorm).toBeGreaterThan(0)
    expect(last!.entropy).toBeGreaterThan(0)
    const kl = await trainer.kl([{ tokens: prompt.map(Number), positions: [prompt.length - 1] }])
    expect(kl.mean).toBeGreaterThan(0)
    const out = join(fixture.tmp.dir, 'trained.gguf')
    await trainer.save(out)
    await trainer.close()
    trainer = null

    expect(sha(out)).not.toBe(sha(STORIES_260K))
    const after = await teacherForced(out, prompt, [good, bad])
    expect(after[0]!).toBeGreaterThan(before[0]! + 0.1)
    expect(after[1]!).toBeLessThan(before[1]! - 0.1)
  }, 600_000)

  /**
   * The defect this guards against: ggml-opt kept adding every earlier gradient into its accumulators, so
   * the k-th update moved the weights by lr x (g1 + ... + gk). Here each update of one process must equal
   * the same update made by a fresh process loaded from the previous update's file and optimizer state:
   * byte for byte, for three updates, with AdamW and with SGD.
   */
  for (const optimizer of ['adamw', 'sgd'] as const) {
    it(`each update applies its own gradient once: one process equals a fresh process per update (${optimizer}, 3 updates)`, async (ctx) => {
      if (!binary) return ctx.skip(`GGUF trainer unavailable: ${unavailable}`)
      const { prompt, good, bad } = await tokens()
      const gguf = config({ optimizer })
      const lr = optimizer === 'adamw' ? 0.001 : 0.01
      const batches = [
        [weighted(prompt, good, 0.2), weighted(prompt, bad, -0.2)],
        [weighted(prompt, bad, 0.3)],
        [weighted(prompt, good, -0.1), weighted(prompt, bad, 0.1)],
      ]
      const dir = join(fixture.tmp.dir, `once-${optimizer}`)
      mkdirSync(dir, { recursive: true })
      const same = await GgufTrainer.start()
      const steps: Array<{ file: string; state: string; stepNorm: number }> = []
      try {
        await load(same, gguf, STORIES_260K)
        for (const [k, items] of batches.entries()) {
          const r = await same.train(trainRequestFor(gguf, items, lr, []))
          const file = join(dir, `same-${k}.gguf`)
          await same.save(file, `${file}.optimizer`)
          steps.push({ file, state: `${file}.optimizer`, stepNorm: r.stepNorm })
        }
      } finally {
        await same.close()
      }
      let previous: { file: string; state: string | null } = { file: STORIES_260K, state: null }
      for (const [k, items] of batches.entries()) {
        const fresh = await GgufTrainer.start()
        try {
          await load(fresh, gguf, previous.file, { optimizerState: previous.state })
          const r = await fresh.train(trainRequestFor(gguf, items, lr, []))
          const file = join(dir, `fresh-${k}.gguf`)
          await fresh.save(file, `${file}.optimizer`)
          expect(r.stepNorm).toBeGreaterThan(0)
          expect(r.stepNorm).toBeCloseTo(steps[k]!.stepNorm, 10)
          expect(sha(file)).toBe(sha(steps[k]!.file))
          previous = { file, state: `${file}.optimizer` }
        } finally {
          await fresh.close()
        }
      }
    }, 600_000)
  }

  it('packs sequences into shared-prefix trees: one datapoint, the same update as one padded datapoint per sequence', async (ctx) => {
    if (!binary) return ctx.skip(`GGUF trainer unavailable: ${unavailable}`)
    const { prompt, good, bad } = await tokens()
    const other = [...prompt.slice(0, 4), ...good]
    const probe = [{ tokens: prompt.map(Number), positions: [prompt.length - 1] }]
    const gguf = config({ optimizer: 'sgd', maxGradNorm: 0, klTarget: 0 })
    const batches = [
      [weighted(prompt, good, 0.5), weighted(prompt, bad, -0.5), weighted(other, bad, 0.25)],
      // the second update also carries the KL term (non-zero once the policy has moved)
      [weighted(prompt, good, 0.5, 2), weighted(prompt, bad, -0.5, 2), weighted(other, bad, 0, 2)],
    ]
    const results: Array<{ logprobs: number[][]; kl: number; replies: Awaited<ReturnType<GgufTrainer['train']>>[] }> = []
    for (const pack of [true, false]) {
      const t = await GgufTrainer.start()
      try {
        await load(t, gguf, STORIES_260K, { baseModel: STORIES_260K })
        const replies = []
        for (const items of batches) replies.push(await t.train(trainRequestFor(gguf, items, 0.01, [], pack)))
        results.push({ logprobs: await t.logprobs([[...prompt, ...good].map(Number), [...other, ...bad].map(Number)]), kl: (await t.kl(probe)).mean, replies })
      } finally {
        await t.close()
      }
    }
    const [packed, padded] = results
    expect(packed!.replies.map((r) => r.datapoints)).toEqual([1, 1])
    expect(padded!.replies.map((r) => r.datapoints)).toEqual([3, 3])
    // the shared prompt is computed once: fewer graph tokens than the sequences hold
    expect(packed!.replies[0]!.packedTokens).toBeLessThan(packed!.replies[0]!.sequenceTokens)
    expect(padded!.replies[0]!.packedTokens).toBe(padded!.replies[0]!.sequenceTokens)
    for (const [k, r] of packed!.replies.entries()) {
      const ref = padded!.replies[k]!
      expect(r.gradNorm).toBeGreaterThan(0)
      expect(Math.abs(r.gradNorm - ref.gradNorm) / ref.gradNorm).toBeLessThan(1e-3)
      expect(Math.abs(r.objective - ref.objective)).toBeLessThan(1e-4 * Math.max(1, Math.abs(ref.objective)))
    }
    expect(packed!.replies[1]!.klObjective).toBeGreaterThan(0)
    for (const [i, row] of packed!.logprobs.entries()) for (const [j, x] of row.entries()) expect(x).toBeCloseTo(padded!.logprobs[i]![j]!, 4)
    expect(packed!.kl).toBeCloseTo(padded!.kl, 5)
  }, 600_000)

  it('the KL guard halves a step that overshoots its target, and undoes one it cannot bring under it', async (ctx) => {
    if (!binary) return ctx.skip(`GGUF trainer unavailable: ${unavailable}`)
    const { prompt, good } = await tokens()
    const probe = [{ tokens: prompt.map(Number), positions: [prompt.length - 1] }]
    const gguf = config({ optimizer: 'sgd', maxGradNorm: 0, klTarget: 0.05, maxBacktracks: 10 })
    trainer = await GgufTrainer.start()
    await load(trainer, gguf, STORIES_260K, { baseModel: STORIES_260K })
    // A step large enough to move KL above the target: the guard halves it until it is under.
    const halved = await trainer.train(trainRequestFor(gguf, [weighted(prompt, good, 1)], 0.02, probe))
    expect(halved.backtracks).toBeGreaterThan(0)
    expect(halved.stepScale).toBe(0.5 ** halved.backtracks)
    expect(halved.probeKl!).toBeLessThanOrEqual(0.05)
    expect(halved.optimizerSteps).toBe(1)
    // A target no step can meet (KL already above it and the step only adds): undone, weights as before.
    const before = await trainer.logprobs([[...prompt, ...good].map(Number)])
    const undone = await trainer.train({ ...trainRequestFor(gguf, [weighted(prompt, good, 50)], 1, probe), klTarget: 1e-9, maxBacktracks: 1 })
    expect(undone.stepScale).toBe(0)
    expect(undone.optimizerSteps).toBe(0)
    expect(await trainer.logprobs([[...prompt, ...good].map(Number)])).toEqual(before)
    await trainer.close()
    trainer = null
  }, 600_000)

  it('the KL term pulls a drifted policy back toward its base', async (ctx) => {
    if (!binary) return ctx.skip(`GGUF trainer unavailable: ${unavailable}`)
    const { prompt, good } = await tokens()
    const probe = [{ tokens: prompt.map(Number), positions: [prompt.length - 1] }]
    const gguf = config({ optimizer: 'sgd', maxGradNorm: 0, klTarget: 0 })
    trainer = await GgufTrainer.start()
    await load(trainer, gguf, STORIES_260K, { baseModel: STORIES_260K })
    await trainer.train(trainRequestFor(gguf, [weighted(prompt, good, 1)], 0.01, []))
    const drifted = (await trainer.kl(probe)).mean
    expect(drifted).toBeGreaterThan(0)
    // only the KL term (no advantage): its gradient lowers KL(policy || base)
    const r = await trainer.train(trainRequestFor(gguf, [weighted(prompt, good, 0, 1)], 0.05, []))
    expect(r.klObjective).toBeGreaterThan(0)
    expect((await trainer.kl(probe)).mean).toBeLessThan(drifted)
    await trainer.close()
    trainer = null
  }, 600_000)

  it('keeps the prompt out of the loss: zero weights change nothing', async (ctx) => {
    if (!binary) return ctx.skip(`GGUF trainer unavailable: ${unavailable}`)
    const gguf = config({ optimizer: 'sgd' })
    trainer = await GgufTrainer.start()
    await load(trainer, gguf, STORIES_260K)
    const seq = [1, 100, 200, 300, 400, 50]
    const before = await trainer.logprobs([seq])
    const r = await trainer.train(trainRequestFor(gguf, [{ tokens: seq, weights: seq.map(() => 0), klWeights: seq.map(() => 0) }], 0.5, []))
    expect(r.optimizerSteps).toBe(0)
    expect(await trainer.logprobs([seq])).toEqual(before)
    await expect(trainer.train(trainRequestFor(gguf, [{ tokens: [1, 99999], weights: [0, 1], klWeights: [0, 0] }], 0.5, []))).rejects.toThrow(/out of vocabulary/)
    // every option is required on the wire: the trainer has no defaults of its own
    await expect(trainer.train({ items: [] } as never)).rejects.toThrow()
    await trainer.close()
    trainer = null
  }, 600_000)
})

describe('GGUF trainer input checks', () => {
  const fixture = useRuntimeFixture()
  it('says plainly when it cannot be built (no C++ compiler)', async () => {
    const saved = process.env['CXX']
    process.env['CXX'] = 'no-such-compiler-here'
    try {
      await expect(ensureTrainerBinary({ nativeDir: join(fixture.tmp.dir, 'native') })).rejects.toThrow(/needs a C\+\+ compiler \(no-such-compiler-here was not found\)/)
    } finally {
      if (saved === undefined) delete process.env['CXX']
      else process.env['CXX'] = saved
    }
  })

  it('two processes building into one empty folder at once both get the same trainer, and leave no partial file', async (ctx) => {
    if (!binary) return ctx.skip(`GGUF trainer unavailable: ${unavailable}`)
    // Two processes (test files, the app beside the CLI) can ask together; each keeps its own header checkout and link output until it renames them into place.
    const nativeDir = join(fixture.tmp.dir, 'native-concurrent')
    const script = join(fixture.tmp.dir, 'build-trainer.mts')
    const module = pathToFileURL(join(import.meta.dirname, '../../main/llm/training/index.ts')).href
    writeFileSync(script, `import { ensureTrainerBinary } from ${JSON.stringify(module)}\nconsole.log((await ensureTrainerBinary({ nativeDir: ${JSON.stringify(nativeDir)} })).path)\n`)
    const tsx = join(import.meta.dirname, '../../node_modules/.bin/tsx')
    const run = promisify(execFile)
    const [a, b] = await Promise.all([run(tsx, [script]), run(tsx, [script])])
    expect(a.stdout.trim()).toBe(b.stdout.trim())
    const exe = a.stdout.trim()
    expect(readdirSync(dirname(exe))).toEqual(['gguf-trainer'])
    expect(readdirSync(nativeDir).sort()).toEqual(['gguf-trainer', `llama.cpp-${binary.llamaCppRelease}`])
    // The binary both processes got is whole: it starts and says it is ready, as the cached one does.
    expect(JSON.parse(execFileSync(exe, [], { input: '', encoding: 'utf8' }).split('\n')[0]!)).toMatchObject({ ok: true, event: 'ready' })
  }, 600_000)

  it('refuses a quantised (here F16) model with a message that names the tensor', async (ctx) => {
    if (!binary) return ctx.skip(`GGUF trainer unavailable: ${unavailable}`)
    const file = writeTinyLlama(join(fixture.tmp.dir, 'f16.gguf'), { weightType: 'F16', seed: 3 }).file
    const trainer = await GgufTrainer.start()
    try {
      const gguf = GgufTrainSchema.parse({ modelPath: file })
      const est = await trainer.estimate({ model: file, optimizer: gguf.optimizer, contextSize: gguf.contextSize, lastBlocks: -1, withBase: false })
      expect(est.trainable).toBe(false)
      expect(est.reason).toMatch(/F16.*F32/)
      await expect(trainer.load(loadRequestFor(gguf, file, { baseModel: null, optimizerState: null, threads: 1 }))).rejects.toThrow(/needs every weight in F32/)
    } finally {
      await trainer.close()
    }
  }, 600_000)
})
