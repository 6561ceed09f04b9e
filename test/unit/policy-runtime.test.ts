import { readFileSync, writeFileSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PolicyError } from '../../main/llm/errors'
import { defaultThreadCount, LlamaRuntime } from '../../main/llm/llama-runtime'
import { LogprobScorer } from '../../main/llm/scoring'
import { encodeGguf, fixtureDir, str, u32, writeTinyLlama, writeTinyLoraAdapter } from '../helpers/gguf'
import { useRuntimeFixture } from '../helpers/gguf/runtime'

const fixture = useRuntimeFixture()
const tmp = fixture.tmp

async function loadError(path: string): Promise<PolicyError> {
  const error = await fixture.runtime().loadModel(path).then(() => null, (e: unknown) => e)
  expect(error).toBeInstanceOf(PolicyError)
  return error as PolicyError
}

describe('LlamaRuntime', () => {
  it('reports the backend it got and uses the real core count for threads', async () => {
    const info = await fixture.runtime().info()
    expect(['cpu', 'cuda', 'vulkan', 'metal']).toContain(info.backend)
    expect(info.threads).toBe(defaultThreadCount())
    expect(fixture.runtime().llama.maxThreads).toBe(info.threads)
    if (info.backend === 'cpu') expect(info.gpuDevices).toEqual([])
    expect(info.llamaCppRelease).toMatch(/\w/)
  })

  it('derives the thread count from the real core count', async () => {
    expect(defaultThreadCount(1)).toBe(1)
    expect(defaultThreadCount(2)).toBe(1)
    expect(defaultThreadCount(16)).toBe(15)
    expect(defaultThreadCount()).toBe(Math.max(1, availableParallelism() - 1))
    const fixed = await LlamaRuntime.create({ gpu: 'cpu', threads: 3 })
    expect(fixed.threads).toBe(3)
    expect(fixed.backend).toBe('cpu')
    await fixed.dispose()
  })

  it('loads a model, reports offloading, and creates a context with parallel sequences', async () => {
    const file = writeTinyLlama(join(tmp.dir, 'tiny.gguf'), { layers: 3 }).file
    const loaded = await fixture.runtime().loadModel(file)
    expect(loaded.loadMs).toBeGreaterThan(0)
    expect(loaded.totalLayers).toBe(4)
    if (loaded.backend === 'cpu') expect(loaded.gpuLayers).toBe(0)
    const context = await loaded.createContext({ sequences: 3, contextSize: 128 })
    expect(context.totalSequences).toBe(3)
    expect(context.contextSize).toBeGreaterThanOrEqual(128)
    expect(context.idealThreads).toBe(fixture.runtime().threads)
    await context.dispose()
    await loaded.dispose()
    expect(loaded.model.disposed).toBe(true)
  })

  it('a sequence pool lends each sequence to one caller at a time', async () => {
    const loaded = await fixture.runtime().loadModel(writeTinyLlama(join(tmp.dir, 'pool.gguf')).file)
    const pool = await loaded.createSequencePool({ sequences: 2, contextSize: 64 })
    let active = 0
    let peak = 0
    const seen = new Set<unknown>()
    await Promise.all(Array.from({ length: 7 }, () => pool.use(async (sequence) => {
      seen.add(sequence)
      peak = Math.max(peak, ++active)
      await new Promise((r) => setTimeout(r, 5))
      active--
    })))
    expect(peak).toBe(2)
    expect(seen.size).toBe(2)
    // Callers still waiting when the pool goes away are told so instead of hanging.
    const holders = [0, 1, 2].map(() => pool.use(() => new Promise((r) => setTimeout(r, 20))))
    const disposing = pool.dispose()
    await expect(holders[2]).rejects.toMatchObject({ code: 'disposed' })
    await Promise.allSettled(holders)
    await disposing
    await expect(pool.use(async () => 1)).rejects.toMatchObject({ code: 'disposed' })
    await loaded.dispose()
  })

  it('applies LoRA adapters to a context', async () => {
    const base = { seed: 4 }
    const loaded = await fixture.runtime().loadModel(writeTinyLlama(join(tmp.dir, 'lora-base.gguf'), base).file)
    const adapter = writeTinyLoraAdapter(join(tmp.dir, 'lora-ok.gguf'), base, { rank: 4 })
    const request = { prompt: 'the little girl', target: ' saw a big day' }
    const plain = await loaded.createSequencePool({ contextSize: 64 })
    const adapted = await loaded.createSequencePool({ contextSize: 64, lora: [{ path: adapter.file, scale: 1 }] })
    const [a, b] = await Promise.all([new LogprobScorer(plain).score(request), new LogprobScorer(adapted).score(request)])
    expect(Math.abs(a.sum - b.sum)).toBeGreaterThan(1e-3)
    await plain.dispose()
    await adapted.dispose()
    await loaded.dispose()
  })

  it('refuses a LoRA adapter made for another shape with a typed error, and the model keeps working', async () => {
    const loaded = await fixture.runtime().loadModel(writeTinyLlama(join(tmp.dir, 'lora-base-2.gguf'), { seed: 4 }).file)
    const wrong = writeTinyLoraAdapter(join(tmp.dir, 'lora-wrong.gguf'), { seed: 4, embeddingLength: 32 }, { rank: 4 })
    await expect(loaded.createSequencePool({ contextSize: 64, lora: [{ path: wrong.file, scale: 1 }] })).rejects.toMatchObject({
      code: 'context-failed',
      message: expect.stringMatching(/LoRA adapter/),
    })
    const plain = await loaded.createSequencePool({ contextSize: 64 })
    expect((await new LogprobScorer(plain).score({ prompt: 'the little girl', target: ' saw' })).targetTokens.length).toBeGreaterThan(0)
    await plain.dispose()
    await loaded.dispose()
  })

  it('refuses bad files with typed errors before llama.cpp sees them', async () => {
    writeFileSync(join(tmp.dir, 'text.gguf'), 'not a model at all')
    expect((await loadError(join(tmp.dir, 'text.gguf'))).code).toBe('not-gguf')

    const good = writeTinyLlama(join(tmp.dir, 'cut.gguf'), { layers: 1 })
    writeFileSync(good.file, readFileSync(good.file).subarray(0, good.bytes - 64))
    expect((await loadError(good.file)).code).toBe('truncated')

    const adapter = writeTinyLoraAdapter(join(tmp.dir, 'adapter.gguf'), {}, { rank: 2 })
    expect((await loadError(adapter.file)).code).toBe('not-a-model')

    const alien = join(tmp.dir, 'alien.gguf')
    writeFileSync(alien, encodeGguf({ metadata: [['general.architecture', str('frobnicator')]], tensors: [] }))
    const unsupported = await loadError(alien)
    expect(unsupported.code).toBe('unsupported-architecture')
    expect(unsupported.message).toMatch(/frobnicator/)
  })

  it('passes llama.cpp\'s own reason through when loading fails', async () => {
    // A llama header with no tensors: the header is valid, the model is not.
    const hollow = join(tmp.dir, 'hollow.gguf')
    writeFileSync(hollow, encodeGguf({
      metadata: [
        ['general.architecture', str('llama')],
        ['llama.context_length', u32(64)], ['llama.embedding_length', u32(8)], ['llama.block_count', u32(1)],
        ['llama.feed_forward_length', u32(16)], ['llama.attention.head_count', u32(2)],
      ],
      tensors: [],
    }))
    const error = await loadError(hollow)
    expect(error.code).toBe('load-failed')
    expect(error.detail?.log?.length).toBeGreaterThan(0)
    expect(error.message).toMatch(/hollow\.gguf: .+/)
  })
})
