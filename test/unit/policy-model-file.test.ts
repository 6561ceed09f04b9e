import { createHash } from 'node:crypto'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { ModelFileError } from '../../main/llm/errors'
import { inspectModelFile, sha256File } from '../../main/llm/model-file'
import {
  encodeGguf, fixtureDir, seededRng, STORIES_260K, storiesAvailable, storiesTitle, str, u32,
  writeTinyLlama, writeTinyLoraAdapter,
} from '../helpers/gguf'

const tmp = fixtureDir()
afterAll(() => tmp.cleanup())

async function expectFileError(path: string, code: string): Promise<ModelFileError> {
  const error = await inspectModelFile(path).then(() => null, (e: unknown) => e)
  expect(error).toBeInstanceOf(ModelFileError)
  expect((error as ModelFileError).code).toBe(code)
  expect((error as ModelFileError).message.length).toBeGreaterThan(10)
  return error as ModelFileError
}

describe('inspectModelFile', () => {
  it('describes a tiny model without loading it', async () => {
    const written = writeTinyLlama(join(tmp.dir, 'tiny.gguf'), {
      vocab: 'spm', embeddingLength: 64, layers: 2, heads: 4, kvHeads: 2, contextLength: 1024, chatTemplate: '{{ messages }}',
    })
    const info = await inspectModelFile(written.file)
    expect(info).toMatchObject({
      architecture: 'llama',
      ggufVersion: 3,
      sizeBytes: written.bytes,
      contextLength: 1024,
      embeddingLength: 64,
      layers: 2,
      headCount: 4,
      headCountKv: 2,
      vocabularySize: written.vocabSize,
      tokenizerModel: 'llama',
      hasChatTemplate: true,
      isLoraAdapter: false,
      isEmbeddingModel: false,
      fileType: 'ALL_F32',
      quantization: 'F32',
      parameterCount: written.parameterCount,
      tensorCount: written.tensorCount,
    })
    expect(info.tensorTypes).toEqual({ F32: written.parameterCount })
    expect(info.sha256).toBe(createHash('sha256').update(readFileSync(written.file)).digest('hex'))
  })

  it('reports F16 weights, a missing chat template and skips hashing on request', async () => {
    const written = writeTinyLlama(join(tmp.dir, 'f16.gguf'), { vocab: 'bpe', weightType: 'F16' })
    const info = await inspectModelFile(written.file, { hash: false })
    expect(info.sha256).toBeNull()
    expect(info.fileType).toBe('MOSTLY_F16')
    expect(info.quantization).toBe('F16')
    expect(info.hasChatTemplate).toBe(false)
    expect(info.tokenizerModel).toBe('gpt2')
    expect(info.tensorTypes.F16).toBeGreaterThan(info.tensorTypes.F32 ?? 0)
  })

  it('recognises a LoRA adapter', async () => {
    const adapter = writeTinyLoraAdapter(join(tmp.dir, 'lora.gguf'), {}, { rank: 2, alpha: 8 })
    const info = await inspectModelFile(adapter.file)
    expect(info.isLoraAdapter).toBe(true)
    expect(info.generalType).toBe('adapter')
    expect(info.loraAlpha).toBe(8)
  })

  it('hints at embedding models from architecture and pooling', async () => {
    const file = join(tmp.dir, 'bert.gguf')
    writeFileSync(file, encodeGguf({
      metadata: [['general.architecture', str('bert')], ['general.name', str('bge-small')], ['bert.pooling_type', u32(2)], ['bert.context_length', u32(512)]],
      tensors: [],
    }))
    const info = await inspectModelFile(file)
    expect(info.isEmbeddingModel).toBe(true)
    expect(info.embeddingReasons).toHaveLength(2)
    expect(info.contextLength).toBe(512)
  })

  it.skipIf(!storiesAvailable)(storiesTitle('describes stories260K.gguf'), async () => {
    const info = await inspectModelFile(STORIES_260K)
    expect(info).toMatchObject({
      architecture: 'llama', layers: 5, embeddingLength: 64, headCount: 8, headCountKv: 4, contextLength: 2048,
      vocabularySize: 512, tensorCount: 48, parameterCount: 292_800, quantization: 'F32', isLoraAdapter: false,
      sha256: '270cba1bd5109f42d03350f60406024560464db173c0e387d91f0426d3bd256d',
    })
  })
})

describe('bad model files give typed errors', () => {
  const good = writeTinyLlama(join(tmp.dir, 'good.gguf'), { layers: 1 })
  const bytes = readFileSync(good.file)

  it('empty file', async () => {
    writeFileSync(join(tmp.dir, 'empty.gguf'), '')
    await expectFileError(join(tmp.dir, 'empty.gguf'), 'file-empty')
  })

  it('missing file and a folder', async () => {
    await expectFileError(join(tmp.dir, 'nope.gguf'), 'file-not-found')
    mkdirSync(join(tmp.dir, 'folder.gguf'))
    await expectFileError(join(tmp.dir, 'folder.gguf'), 'not-a-file')
  })

  it('a text file renamed .gguf', async () => {
    writeFileSync(join(tmp.dir, 'notes.gguf'), 'These are my notes, not a model.\n')
    const error = await expectFileError(join(tmp.dir, 'notes.gguf'), 'not-gguf')
    expect(error.message).toMatch(/text/)
  })

  it('random bytes', async () => {
    const rng = seededRng(9)
    writeFileSync(join(tmp.dir, 'random.gguf'), Buffer.from(Array.from({ length: 4096 }, () => Math.floor(rng.next() * 256))))
    await expectFileError(join(tmp.dir, 'random.gguf'), 'not-gguf')
  })

  it('GGUF truncated inside the header and inside the tensor data', async () => {
    for (const cut of [3, 4, 10, 30, 200, 2000]) {
      writeFileSync(join(tmp.dir, 'head.gguf'), bytes.subarray(0, cut))
      const code = cut < 4 ? 'not-gguf' : 'truncated'
      await expectFileError(join(tmp.dir, 'head.gguf'), code)
    }
    writeFileSync(join(tmp.dir, 'data.gguf'), bytes.subarray(0, bytes.length - 100))
    const error = await expectFileError(join(tmp.dir, 'data.gguf'), 'truncated')
    expect(error.message).toMatch(/output\.weight|tensor/)
  })

  it('unsupported GGUF version', async () => {
    const copy = Buffer.from(bytes)
    copy.writeUInt32LE(1, 4)
    writeFileSync(join(tmp.dir, 'v1.gguf'), copy)
    await expectFileError(join(tmp.dir, 'v1.gguf'), 'unsupported-gguf-version')
  })

  it('a valid magic followed by garbage never crashes or allocates wildly', async () => {
    for (let seed = 1; seed <= 40; seed++) {
      const rng = seededRng(seed)
      const junk = Buffer.from(Array.from({ length: 512 }, () => Math.floor(rng.next() * 256)))
      junk.write('GGUF', 0, 'latin1')
      junk.writeUInt32LE(3, 4)
      // Small plausible counts so the reader gets into keys and values.
      junk.writeBigUInt64LE(BigInt(seed % 3), 8)
      junk.writeBigUInt64LE(BigInt(1 + (seed % 4)), 16)
      const file = join(tmp.dir, `junk-${seed}.gguf`)
      writeFileSync(file, junk)
      const error = await inspectModelFile(file).then(() => null, (e: unknown) => e)
      expect(error, `seed ${seed}`).toBeInstanceOf(ModelFileError)
      expect(['truncated', 'corrupt']).toContain((error as ModelFileError).code)
    }
  })

  it('hashes by streaming', async () => {
    expect(await sha256File(good.file)).toBe(createHash('sha256').update(bytes).digest('hex'))
  })
})
