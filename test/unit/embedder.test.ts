import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createGgufEmbedder, type GgufEmbedder } from '../../main/llm/embedder'
import { ModelFileError, PolicyError } from '../../main/llm/errors'
import { LlamaRuntime } from '../../main/llm/llama-runtime'
import { STORIES_260K, storiesAvailable, storiesTitle, writeTinyLlama, writeTinyLoraAdapter } from '../helpers/gguf'
import { tempDir } from '../helpers/services'

const tmp = tempDir('harness-lab-embedder-')
const shape = { embeddingLength: 48, heads: 4, layers: 2, seed: 3 }
const modelFile = join(tmp.dir, 'tiny-embed.gguf')
let runtime: LlamaRuntime
let embedder: GgufEmbedder

beforeAll(async () => {
  writeTinyLlama(modelFile, shape)
  runtime = await LlamaRuntime.create({ gpu: 'cpu', threads: 1 })
  embedder = await createGgufEmbedder(modelFile, { runtime, contextSize: 64 })
}, 600_000)
afterAll(async () => {
  await embedder?.dispose()
  await runtime?.dispose()
  tmp.cleanup()
})

const norm = (v: Float32Array): number => Math.sqrt(v.reduce((s, x) => s + x * x, 0))
const dot = (a: Float32Array, b: Float32Array): number => a.reduce((s, x, i) => s + x * b[i]!, 0)

async function creationError(path: string): Promise<PolicyError> {
  const error = await createGgufEmbedder(path, { runtime }).then(() => null, (e: unknown) => e)
  expect(error).toBeInstanceOf(PolicyError)
  return error as PolicyError
}

describe('createGgufEmbedder on a tiny random llama', () => {
  it('names the model by file name and content hash, and reports the embedding width', async () => {
    expect(embedder.dimension).toBe(shape.embeddingLength)
    expect(embedder.model).toMatch(/^tiny-embed\.gguf@[0-9a-f]{12}$/)
    expect(embedder.model.split('@')[1]).toBe(embedder.file.sha256!.slice(0, 12))
    expect(embedder.contextSize).toBe(63)
    const [v] = await embedder.embed(['the cat sat on the mat'])
    expect(v).toBeInstanceOf(Float32Array)
    expect(v!.length).toBe(embedder.dimension)
  })

  it('returns unit vectors, the same vector for the same text, different ones for different texts', async () => {
    const texts = ['the cat sat on the mat', 'a dog ran in the park', 'the cat sat on the mat']
    const vectors = await embedder.embed(texts)
    for (const v of vectors) expect(norm(v)).toBeCloseTo(1, 5)
    expect(vectors[2]).toEqual(vectors[0])
    expect(dot(vectors[0]!, vectors[1]!)).toBeLessThan(0.9999)
  })

  it('a batch gives exactly the vectors of one-by-one calls', async () => {
    const texts = ['first text about rivers', 'second text about mountains', 'third', 'rivers again']
    const batch = await embedder.embed(texts)
    const single: Float32Array[] = []
    for (const t of [...texts].reverse()) single.unshift((await embedder.embed([t]))[0]!)
    expect(batch).toEqual(single)
    expect(await embedder.embed([])).toEqual([])
  })

  it('keeps the first tokens of inputs longer than the context instead of failing', async () => {
    const head = 'one two three four five six seven eight nine ten '.repeat(10)
    const before = embedder.stats.truncated
    const [a, b] = await embedder.embed([`${head}tail about the sea`, `${head}a different ending about mountains and rivers`])
    expect(embedder.stats.truncated).toBe(before + 2)
    expect(norm(a!)).toBeCloseTo(1, 5)
    expect(b).toEqual(a)
  })

  it('gives text without tokens a zero vector', async () => {
    const [v] = await embedder.embed([''])
    expect(v!.length).toBe(embedder.dimension)
    expect(norm(v!)).toBe(0)
  })

  it('the same bytes give the same id and vectors; other weights give another id', async () => {
    mkdirSync(join(tmp.dir, 'copy'))
    const copy = join(tmp.dir, 'copy', 'tiny-embed.gguf')
    writeTinyLlama(copy, shape)
    const other = join(tmp.dir, 'other.gguf')
    writeTinyLlama(other, { ...shape, seed: 4 })
    const again = await createGgufEmbedder(copy, { runtime, contextSize: 64 })
    const different = await createGgufEmbedder(other, { runtime, contextSize: 64 })
    try {
      expect(again.model).toBe(embedder.model)
      expect(different.model).not.toBe(embedder.model)
      const text = ['the cat sat on the mat']
      expect(await again.embed(text)).toEqual(await embedder.embed(text))
      expect(await different.embed(text)).not.toEqual(await embedder.embed(text))
    } finally {
      await again.dispose()
      await different.dispose()
    }
  })

  it('refuses to embed after dispose', async () => {
    const own = await createGgufEmbedder(modelFile, { threads: 1, contextSize: 32 })
    expect(own.dimension).toBe(shape.embeddingLength)
    await own.dispose()
    await expect(own.embed(['x'])).rejects.toMatchObject({ code: 'disposed' })
    await own.dispose()
  })
})

describe('createGgufEmbedder on bad files', () => {
  it('a text file, a truncated model, a missing file and a LoRA adapter fail with typed errors', async () => {
    const text = join(tmp.dir, 'notes.gguf')
    writeFileSync(text, 'These are my notes, not a model.\n')
    const notGguf = await creationError(text)
    expect(notGguf).toBeInstanceOf(ModelFileError)
    expect(notGguf.code).toBe('not-gguf')

    const bytes = readFileSync(modelFile)
    const cut = join(tmp.dir, 'cut.gguf')
    writeFileSync(cut, bytes.subarray(0, bytes.length - 100))
    const truncated = await creationError(cut)
    expect(truncated).toBeInstanceOf(ModelFileError)
    expect(truncated.code).toBe('truncated')
    expect(truncated.message).toMatch(/ends early/)

    expect((await creationError(join(tmp.dir, 'missing.gguf'))).code).toBe('file-not-found')

    const adapter = join(tmp.dir, 'adapter.gguf')
    writeTinyLoraAdapter(adapter, shape)
    const lora = await creationError(adapter)
    expect(lora.code).toBe('not-a-model')
    expect(lora.message).toMatch(/LoRA/)
  })
})

describe('createGgufEmbedder on stories260K', () => {
  it.skipIf(!storiesAvailable)(storiesTitle('embeds with a real trained model'), async () => {
    const stories = await createGgufEmbedder(STORIES_260K, { runtime, contextSize: 256 })
    try {
      expect(stories.model).toMatch(/^stories260K\.gguf@[0-9a-f]{12}$/)
      expect(stories.dimension).toBe(stories.file.embeddingLength)
      const vectors = await stories.embed(['Once upon a time there was a little girl.', 'The dog ran to the park.', 'Once upon a time there was a little girl.'])
      for (const v of vectors) expect(norm(v)).toBeCloseTo(1, 5)
      expect(vectors[2]).toEqual(vectors[0])
      expect(dot(vectors[0]!, vectors[1]!)).toBeLessThan(0.9999)
    } finally {
      await stories.dispose()
    }
  })
})
