/**
 * How far one device agrees with itself: the same 3 updates from the same start, once packed (several
 * sequences per datapoint under a tree mask) and once unpacked (one sequence per datapoint). The two are
 * the same mathematics in a different summation order, so their weight changes differ only by float
 * rounding; the cosine between them is the best agreement any second backend (a GPU) can be expected to
 * reach with this CPU. Printed per optimizer: SGD passes rounding through linearly, AdamW divides each
 * coordinate by its own gradient scale, so coordinates whose gradient is near zero amplify it.
 *
 *   npx tsx scripts/gguf-adam-sensitivity.ts [model.gguf ...]   (default ../shared/models/stories260K.gguf)
 */
import { mkdtempSync, openSync, readSync, closeSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { readGgufHeader } from '../main/llm/gguf-header'
import { GgufTrainer } from '../main/llm/training'
import type { TrainItem } from '../main/llm/training/protocol'

const models = process.argv.slice(2).length ? process.argv.slice(2) : ['../shared/models/stories260K.gguf']
const UPDATES = 3
const F32 = 0

/** Seeded batches like the GPU check's: 8 sequences of 60-240 tokens, the last quarter weighted +-1/len with a KL term. */
function batches(vocab: number, seed: number): TrainItem[][] {
  let s = seed >>> 0
  const rand = () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32
  return Array.from({ length: UPDATES }, (_, u) =>
    Array.from({ length: 8 }, (_, k) => {
      const n = 60 + Math.floor(rand() * 181)
      const sign = (k + u) % 2 === 0 ? 1 : -1
      const tokens = Array.from({ length: n }, () => 3 + Math.floor(rand() * (vocab - 3)))
      return {
        tokens,
        weights: tokens.map((_, i) => (i >= Math.floor((3 * n) / 4) ? sign / (n / 4) : 0)),
        klWeights: tokens.map((_, i) => (i >= Math.floor((3 * n) / 4) ? 0.05 / (n / 4) : 0)),
      }
    }),
  )
}

/** The F32 tensors of a GGUF file other than the token embedding, by name. */
async function weights(path: string): Promise<Map<string, Float32Array>> {
  const header = await readGgufHeader(path)
  const fd = openSync(path, 'r')
  try {
    const out = new Map<string, Float32Array>()
    for (const t of header.tensors) {
      if (t.ggmlType !== F32 || t.name === 'token_embd.weight' || t.name === 'rope_freqs.weight') continue
      const n = t.dims.reduce((a, b) => a * Number(b), 1)
      const buf = Buffer.alloc(n * 4)
      readSync(fd, buf, 0, buf.length, header.dataOffset + t.offset)
      out.set(t.name, new Float32Array(buf.buffer, buf.byteOffset, n))
    }
    return out
  } finally {
    closeSync(fd)
  }
}

function changeCosine(base: Map<string, Float32Array>, a: Map<string, Float32Array>, b: Map<string, Float32Array>): { cosine: number; normA: number; normB: number } {
  let dot = 0, na = 0, nb = 0
  for (const [name, w0] of base) {
    const wa = a.get(name)!, wb = b.get(name)!
    for (let i = 0; i < w0.length; i++) {
      const da = wa[i]! - w0[i]!, db = wb[i]! - w0[i]!
      dot += da * db
      na += da * da
      nb += db * db
    }
  }
  return { cosine: dot / Math.sqrt(na * nb), normA: Math.sqrt(na), normB: Math.sqrt(nb) }
}

const work = mkdtempSync(join(tmpdir(), 'adam-sensitivity-'))
try {
  for (const model of models) {
    const base = await weights(model)
    for (const optimizer of ['sgd', 'adamw'] as const) {
      const saved: Record<string, string> = {}
      let objectives = ''
      for (const pack of [true, false]) {
        const trainer = await GgufTrainer.start()
        try {
          const info = await trainer.load({ model, baseModel: model, optimizerState: null, optimizer, weightDecay: 0, beta1: 0.9, beta2: 0.999, eps: 1e-8, lastBlocks: -1, contextSize: 512, threads: 2, gpuLayers: 0, memoryLimitBytes: 0 })
          const replies = []
          for (const items of batches(info.nVocab, info.nLayer)) replies.push(await trainer.train({ items, lr: 1e-4, maxGradNorm: 0, klTarget: 0, maxBacktracks: 0, probe: [], pack }))
          objectives += ` ${pack ? 'packed' : 'unpacked'} objectives ${replies.map((r) => r.objective.toPrecision(8)).join(' ')} (${replies[0]!.datapoints} datapoints);`
          saved[String(pack)] = join(work, `${optimizer}-${pack}.gguf`)
          await trainer.save(saved[String(pack)]!)
        } finally {
          await trainer.close()
        }
      }
      const c = changeCosine(base, await weights(saved.true!), await weights(saved.false!))
      console.log(`adam-sensitivity: ${model} ${optimizer} weight-change cosine packed vs unpacked on the CPU ${c.cosine.toFixed(9)} (1 - cosine ${(1 - c.cosine).toExponential(2)}) after ${UPDATES} updates (|dw| ${c.normA.toPrecision(4)} vs ${c.normB.toPrecision(4)});${objectives}`)
    }
  }
} finally {
  rmSync(work, { recursive: true, force: true })
}
