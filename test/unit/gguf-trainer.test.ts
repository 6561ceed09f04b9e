/**
 * The native GGUF trainer on the real stories260K: a few advantage-weighted updates raise the
 * teacher-forced log-probability of the positively rewarded continuation and lower the negatively
 * rewarded one, measured with node-llama-cpp on the saved GGUF (which loads and differs from the base);
 * prompt positions carry weight 0, and quantised models are refused before anything loads.
 */
import { execFile, execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import type { Token } from 'node-llama-cpp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
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

  it('moves chosen tokens in the direction of their advantages and saves a GGUF that loads', async (ctx) => {
    if (!binary) return ctx.skip(`GGUF trainer unavailable: ${unavailable}`)
    const base = await fixture.runtime().loadModel(STORIES_260K)
    const prompt = base.model.tokenize('Once upon a time, there was a little girl named Lily. She', true)
    const good = base.model.tokenize(' went to the park', false)
    const bad = base.model.tokenize(' was very sad', false)
    await base.dispose()
    const before = await teacherForced(STORIES_260K, prompt, [good, bad])

    trainer = await GgufTrainer.start()
    const info = await trainer.load({ model: STORIES_260K, baseModel: STORIES_260K, optimizer: 'sgd', lr: 0.002, contextSize: 64, threads: 1 })
    expect(info.nTrainable).toBeGreaterThan(0)
    expect(info.estimatedBytes).toBeGreaterThan(0)
    const item = (target: Token[], advantage: number) => ({
      tokens: [...prompt, ...target].map(Number),
      weights: [...prompt.map(() => 0), ...target.map(() => advantage)],
    })
    let last = null
    for (let step = 0; step < 3; step++) last = await trainer.train([item(good, 1), item(bad, -1)])
    expect(last!.optimizerSteps).toBe(2)
    expect(last!.weightedTokens).toBe(good.length + bad.length)
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

  it('keeps the prompt out of the loss: zero weights change nothing', async (ctx) => {
    if (!binary) return ctx.skip(`GGUF trainer unavailable: ${unavailable}`)
    trainer = await GgufTrainer.start()
    await trainer.load({ model: STORIES_260K, optimizer: 'sgd', lr: 0.5, contextSize: 64, threads: 1 })
    const seq = [1, 100, 200, 300, 400, 50]
    const before = await trainer.logprobs([seq])
    const r = await trainer.train([{ tokens: seq, weights: seq.map(() => 0) }])
    expect(r.optimizerSteps).toBe(0)
    expect(await trainer.logprobs([seq])).toEqual(before)
    await expect(trainer.train([{ tokens: [1, 99999], weights: [0, 1] }])).rejects.toThrow(/out of vocabulary/)
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
      const est = await trainer.estimate({ model: file })
      expect(est.trainable).toBe(false)
      expect(est.reason).toMatch(/F16.*F32/)
      await expect(trainer.load({ model: file })).rejects.toThrow(/needs every weight in F32/)
    } finally {
      await trainer.close()
    }
  }, 600_000)
})
