/**
 * The native GGUF trainer's wire, checked from outside the app's own schemas (the binary spoken to directly):
 * a request with a key the command does not read is refused naming it (a misspelt option never falls back
 * to anything), figures come back at full double precision, and the memory estimate counts the optimizer's
 * state per trainable float (AdamW: gradient, start weights, two moments and the two kept for an undo;
 * SGD: gradient and start weights).
 */
import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ensureTrainerBinary, GgufTrainer, GgufTrainerUnavailableError, type TrainerBinary } from '../../main/llm/training'
import { fixtureDir, writeTinyLlama } from '../helpers/gguf'

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

const tmp = fixtureDir('harness-lab-wire-')
afterAll(() => tmp.cleanup())

/** The trainer binary driven with raw JSON lines: each request's reply line, parsed. */
async function raw(lines: object[]): Promise<Array<Record<string, unknown>>> {
  const child = spawn(binary!.path, [binary!.libDir], { stdio: ['pipe', 'pipe', 'ignore'], env: { ...process.env, GGML_NO_BACKTRACE: '1' } })
  const replies: Array<Record<string, unknown>> = []
  const done = new Promise<void>((resolve) => child.on('exit', () => resolve()))
  createInterface({ input: child.stdout }).on('line', (l) => replies.push(JSON.parse(l) as Record<string, unknown>))
  child.stdin.end(`${[...lines, { cmd: 'exit' }].map((l) => JSON.stringify(l)).join('\n')}\n`)
  await done
  return replies.slice(1) // after "ready"
}

const OPTIONS = { baseModel: null, optimizerState: null, optimizer: 'sgd' as 'sgd' | 'adamw', weightDecay: 0, beta1: 0.9, beta2: 0.999, eps: 1e-8, lastBlocks: -1, contextSize: 64, threads: 1, gpuLayers: 0, memoryLimitBytes: 0 }
const LOAD = { cmd: 'load', ...OPTIONS }

describe('GGUF trainer wire', () => {
  it('refuses a request key no command reads, naming it, and changes nothing', async (ctx) => {
    if (!binary) return ctx.skip(`GGUF trainer unavailable: ${unavailable}`)
    const model = join(tmp.dir, 'tiny.gguf')
    writeTinyLlama(model, { layers: 2, embeddingLength: 32, heads: 2 })
    const tokens = [1, 5, 9, 13, 17, 21]
    const [misspelt, loaded, before, trainMisspelt, after, logprobsLenient] = await raw([
      { ...LOAD, model, learningRate: 0.1 },
      { ...LOAD, model },
      { cmd: 'logprobs', items: [{ tokens }], base: false },
      { cmd: 'train', items: [{ tokens, weights: tokens.map(() => 1), klWeights: tokens.map(() => 0) }], lr: 0.01, maxGradNorm: 0, klTarget: 0, maxBacktracks: 0, probe: [], pack: true, epochs: 2 },
      { cmd: 'logprobs', items: [{ tokens }], base: false },
      { cmd: 'logprobs', items: [{ tokens }] },
    ])
    expect(misspelt).toMatchObject({ ok: false })
    expect(String(misspelt!['error'])).toContain('unknown key "learningRate"')
    expect(loaded).toMatchObject({ ok: true, event: 'loaded' })
    expect(String(trainMisspelt!['error'])).toContain('unknown key "epochs"')
    expect(after!['items']).toEqual(before!['items'])
    // a required key missing is an error too (before: read as false)
    expect(String(logprobsLenient!['error'])).toContain('"base"')
  }, 600_000)

  it('sends figures at full double precision', async (ctx) => {
    if (!binary) return ctx.skip(`GGUF trainer unavailable: ${unavailable}`)
    const model = join(tmp.dir, 'tiny-precision.gguf')
    writeTinyLlama(model, { layers: 2, embeddingLength: 32, heads: 2, seed: 3 })
    const tokens = [1, 7, 11, 19, 23, 29, 31, 37]
    const replies = await raw([
      { ...LOAD, model },
      { cmd: 'train', items: [{ tokens, weights: tokens.map((_, i) => (i > 3 ? 0.3 : 0)), klWeights: tokens.map(() => 0) }], lr: 0.01, maxGradNorm: 0, klTarget: 0, maxBacktracks: 0, probe: [], pack: true },
    ])
    const trained = replies[1]!
    expect(trained).toMatchObject({ ok: true, event: 'trained' })
    // at 6 significant digits (as before) each of these would be a multiple of 1e-5 of its magnitude
    const figures = ['objective', 'gradNorm', 'entropy', 'stepNorm'].map((k) => trained[k] as number)
    const digits = (x: number) => x.toPrecision(17).replace(/^-?0*\.?0*/, '').replace(/e.*$/, '').replace('.', '').replace(/0+$/, '').length
    expect(figures.some((x) => digits(x) > 10)).toBe(true)
  }, 600_000)

  it('estimates the optimizer state per trainable float: AdamW four floats more than SGD', async (ctx) => {
    if (!binary) return ctx.skip(`GGUF trainer unavailable: ${unavailable}`)
    const model = join(tmp.dir, 'tiny-estimate.gguf')
    writeTinyLlama(model, { layers: 3, embeddingLength: 32, heads: 2 })
    const trainer = await GgufTrainer.start()
    try {
      const request = { model, contextSize: 64, lastBlocks: -1, withBase: false }
      const adamw = await trainer.estimate({ ...request, optimizer: 'adamw' })
      const sgd = await trainer.estimate({ ...request, optimizer: 'sgd' })
      expect(adamw.estimatedBytes - sgd.estimatedBytes).toBe(adamw.nTrainable * 4 * 4)
      // and what a loaded AdamW trainer holds beside the weights: start weights and two moments (the undo's two come with a KL guard)
      const info = await trainer.load({ ...OPTIONS, model, optimizer: 'adamw' })
      expect(info.optimizerStateBytes).toBeGreaterThanOrEqual(info.nTrainable * 4 * 3)
      expect(info.optimizerStateBytes).toBeLessThan(info.nTrainable * 4 * 3 + 64 * 1024)
    } finally {
      await trainer.close()
    }
  }, 600_000)
})
