import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { getLlama, LlamaLogLevel, readGgufFileInfo, type Llama, type LlamaModel } from 'node-llama-cpp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  encodeGguf, fixtureDir, f32, GGUF_ALIGNMENT, str, toHalf, u32, writeTinyLlama, writeTinyLoraAdapter,
} from '../helpers/gguf'

const TEXT = 'Once upon a time, the little girl saw a big day.\nÜnïcödé ✓ 42'

describe('GGUF v3 encoder', () => {
  it('writes the header, aligns every tensor and the data section, and reads back in node-llama-cpp', async () => {
    const { dir, cleanup } = fixtureDir()
    try {
      const bytes = encodeGguf({
        metadata: [['general.architecture', str('llama')], ['x.count', u32(7)], ['x.eps', f32(0.5)]],
        tensors: [
          { name: 'a', dims: [3], type: 'F32', data: new Float32Array([1, 2, 3]) },
          { name: 'b', dims: [2, 5], type: 'F16', data: new Float32Array(10).fill(0.25) },
        ],
      })
      expect(bytes.subarray(0, 4).toString('latin1')).toBe('GGUF')
      expect(bytes.readUInt32LE(4)).toBe(3)
      expect(bytes.readBigUInt64LE(8)).toBe(2n)
      expect(bytes.readBigUInt64LE(16)).toBe(3n)
      const file = join(dir, 'small.gguf')
      writeFileSync(file, bytes)
      const info = await readGgufFileInfo(file, { logWarnings: false })
      expect(info.version).toBe(3)
      const tensors = info.tensorInfo!
      expect(tensors.map((t) => t.name)).toEqual(['a', 'b'])
      expect(tensors[1]!.dimensions.map(Number)).toEqual([2, 5])
      for (const t of tensors) expect(Number(t.fileOffset) % GGUF_ALIGNMENT).toBe(0)
      // F16 payload: 0.25 is 0x3400.
      expect(bytes.readUInt16LE(Number(tensors[1]!.fileOffset))).toBe(0x3400)
      expect(bytes.readFloatLE(Number(tensors[0]!.fileOffset) + 8)).toBe(3)
    } finally {
      cleanup()
    }
  })

  it('converts to half precision with rounding, subnormals and infinities', () => {
    expect(toHalf(1)).toBe(0x3c00)
    expect(toHalf(-2)).toBe(0xc000)
    expect(toHalf(65504)).toBe(0x7bff)
    expect(toHalf(1e6)).toBe(0x7c00)
    expect(toHalf(2 ** -24)).toBe(0x0001)
    expect(toHalf(0)).toBe(0)
    expect(toHalf(1 + 2 ** -11)).toBe(0x3c00) // ties to even
    expect(toHalf(Number.NaN) & 0x7c00).toBe(0x7c00)
  })

  it('is deterministic for a seed and differs across seeds', () => {
    const { dir, cleanup } = fixtureDir()
    try {
      writeTinyLlama(join(dir, 'a.gguf'), { seed: 5 })
      writeTinyLlama(join(dir, 'b.gguf'), { seed: 5 })
      writeTinyLlama(join(dir, 'c.gguf'), { seed: 6 })
      const [a, b, c] = ['a', 'b', 'c'].map((n) => readFileSync(join(dir, `${n}.gguf`)))
      expect(a!.equals(b!)).toBe(true)
      expect(a!.equals(c!)).toBe(false)
    } finally {
      cleanup()
    }
  })

  it('rejects inconsistent shapes', () => {
    expect(() => writeTinyLlama('/nonexistent/x.gguf', { embeddingLength: 30, heads: 4 })).toThrow(/divisible/)
    expect(() => encodeGguf({ metadata: [], tensors: [{ name: 't', dims: [4], type: 'F32', data: new Float32Array(3) }] })).toThrow(/3 values/)
  })
})

describe('tiny llama models in node-llama-cpp', () => {
  let llama: Llama
  const tmp = fixtureDir()
  beforeAll(async () => {
    llama = await getLlama({ gpu: false, maxThreads: 1, build: 'never', logLevel: LlamaLogLevel.error })
  })
  afterAll(async () => {
    await llama.dispose()
    tmp.cleanup()
  })

  async function roundTrip(model: LlamaModel): Promise<number[]> {
    const tokens = model.tokenize(TEXT)
    expect(tokens.length).toBeGreaterThan(5)
    expect(model.detokenize(tokens)).toBe(TEXT)
    return tokens
  }

  it('SentencePiece vocabulary: loads, merges word pieces, falls back to bytes, round-trips text', async () => {
    const info = writeTinyLlama(join(tmp.dir, 'spm.gguf'), { vocab: 'spm', layers: 2, embeddingLength: 64 })
    expect(info.bytes).toBeLessThan(1_000_000)
    const model = await llama.loadModel({ modelPath: info.file })
    try {
      expect(model.vocabularyType).toBe('spm')
      expect(model.tokens.bos).toBe(1)
      expect(model.tokens.eos).toBe(2)
      const tokens = await roundTrip(model)
      // ' little' is one word piece, and 'Ü' needs byte-fallback tokens.
      expect(tokens).toContain(info.tokens.indexOf('\u2581little'))
      expect(tokens.some((t) => /^<0x[0-9A-F]{2}>$/.test(info.tokens[t]!))).toBe(true)
      expect(model.fileInsights.totalLayers).toBe(3)
    } finally {
      await model.dispose()
    }
  })

  it('byte-level BPE vocabulary: with merges and with an empty merges list', async () => {
    for (const merges of [true, false]) {
      const info = writeTinyLlama(join(tmp.dir, `bpe-${merges}.gguf`), { vocab: 'bpe', bpeMerges: merges, seed: 3 })
      const model = await llama.loadModel({ modelPath: info.file })
      try {
        expect(model.vocabularyType).toBe('bpe')
        const tokens = await roundTrip(model)
        if (merges) expect(tokens).toContain(info.tokens.indexOf('\u0120little'))
        else expect(tokens.length).toBe(Buffer.byteLength(TEXT))
      } finally {
        await model.dispose()
      }
    }
  })

  it('F16 weights load and predict almost what the F32 model predicts', async () => {
    const distribution = async (weightType: 'F32' | 'F16'): Promise<Map<number, number>> => {
      const info = writeTinyLlama(join(tmp.dir, `w-${weightType}.gguf`), { seed: 8, weightType })
      const model = await llama.loadModel({ modelPath: info.file })
      const context = await model.createContext({ contextSize: 64 })
      const prompt = model.tokenize('the big day')
      const out = await context.getSequence().controlledEvaluate([...prompt.slice(0, -1), [prompt.at(-1)!, { generateNext: { probabilities: true } }]])
      await model.dispose()
      return out.at(-1)!.next.probabilities!
    }
    const full = await distribution('F32')
    const half = await distribution('F16')
    const tvDistance = [...full].reduce((acc, [t, p]) => acc + Math.abs(p - (half.get(t) ?? 0)), 0) / 2
    expect(tvDistance).toBeLessThan(0.05)
  })

  it('generates from a context and carries the chat template key', async () => {
    const template = "{% for m in messages %}<|im_start|>{{ m.role }}\n{{ m.content }}<|im_end|>\n{% endfor %}"
    const info = writeTinyLlama(join(tmp.dir, 'chat.gguf'), { vocab: 'bpe', chatTemplate: template, layers: 1, heads: 2, kvHeads: 1 })
    const model = await llama.loadModel({ modelPath: info.file })
    try {
      expect(model.fileInfo.metadata.tokenizer?.chat_template).toBe(template)
      expect(model.tokenize('<|im_start|>', true)).toEqual([info.tokens.indexOf('<|im_start|>')])
      const context = await model.createContext({ contextSize: 128 })
      const sequence = context.getSequence()
      const out: number[] = []
      for await (const token of sequence.evaluate(model.tokenize('the day'))) {
        out.push(token)
        if (out.length === 5) break
      }
      expect(out).toHaveLength(5)
      await context.dispose()
    } finally {
      await model.dispose()
    }
  })

  it('LoRA adapter loads onto a context and changes the next-token distribution', async () => {
    const base = { vocab: 'spm' as const, seed: 11 }
    const model = await llama.loadModel({ modelPath: writeTinyLlama(join(tmp.dir, 'base.gguf'), base).file })
    const adapter = writeTinyLoraAdapter(join(tmp.dir, 'lora.gguf'), base, { rank: 4, targets: ['attn_q', 'attn_v', 'ffn_up'] })
    expect(adapter.tensorCount).toBe(2 * 3 * 2)
    const adapterInfo = await readGgufFileInfo(adapter.file, { logWarnings: false })
    expect((adapterInfo.metadata.general as { type?: string }).type).toBe('adapter')
    try {
      const prompt = model.tokenize('the little girl')
      const topToken = async (lora?: string): Promise<Map<number, number>> => {
        const context = await model.createContext({ contextSize: 64, lora })
        const out = await context.getSequence().controlledEvaluate([
          ...prompt.slice(0, -1),
          [prompt.at(-1)!, { generateNext: { probabilities: true } }],
        ])
        await context.dispose()
        return out.at(-1)!.next.probabilities!
      }
      const plain = await topToken()
      const adapted = await topToken(adapter.file)
      const diff = [...plain].reduce((acc, [t, p]) => acc + Math.abs(p - (adapted.get(t) ?? 0)), 0)
      expect(diff).toBeGreaterThan(1e-3)
    } finally {
      await model.dispose()
    }
  })
})
