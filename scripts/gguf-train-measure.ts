/**
 * Measures GGUF training updates: builds the trainer for a backend, loads a model with every layer
 * offloaded (GPU backends) or on the CPU, and times a few advantage-weighted steps on random token
 * sequences of the training context's length. Prints one `gguf-train:` line per step and a summary.
 *
 *   npx tsx scripts/gguf-train-measure.ts [cpu|cuda|vulkan] [model.gguf] [contextSize] [steps]
 */
import { availableParallelism } from 'node:os'
import { GgufTrainSchema } from '../preload/contract'
import { loadRequestFor, trainRequestFor } from '../main/experiments/training'
import { GgufTrainer, type TrainerBackend } from '../main/llm/training'

const backend = (process.argv[2] ?? 'cpu') as TrainerBackend
const model = process.argv[3] ?? '../shared/models/stories260K.gguf'
const contextSize = Number(process.argv[4] ?? 512)
const steps = Number(process.argv[5] ?? 4)

const trainer = await GgufTrainer.start({ backend, log: (l) => console.log(l) })
try {
  const gguf = GgufTrainSchema.parse({ modelPath: model, contextSize, gpuLayers: backend === 'cpu' ? 0 : -1 })
  const options = loadRequestFor(gguf, model, { baseModel: null, optimizerState: null, threads: Math.max(1, availableParallelism() - 1) })
  const estimate = await trainer.estimate({ model, optimizer: options.optimizer, contextSize: options.contextSize, lastBlocks: options.lastBlocks, withBase: false })
  console.log(`estimate: trainable ${estimate.trainable} ${estimate.reason} params ${estimate.nParams} trainable ${estimate.nTrainable} context ${estimate.contextSize} memory ~${(estimate.estimatedBytes / 2 ** 20).toFixed(0)} MiB`)
  if (!estimate.trainable) process.exit(1)
  const t0 = performance.now()
  const info = await trainer.load(options)
  console.log(`loaded in ${((performance.now() - t0) / 1000).toFixed(2)} s: ${info.nLayer} layers, vocab ${info.nVocab}, context ${info.contextSize}`)
  let seed = 12345
  const rand = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32)
  const len = info.contextSize
  const seconds: number[] = []
  for (let s = 0; s < steps; s++) {
    const tokens = Array.from({ length: len }, () => Math.floor(rand() * info.nVocab))
    // the last quarter of the sequence is "chosen", advantage +-1 alternating
    const weights = tokens.map((_, i) => (i >= (len * 3) / 4 ? (s % 2 ? -1 : 1) / (len / 4) : 0))
    const r = await trainer.train(trainRequestFor(gguf, [{ tokens, weights, klWeights: tokens.map(() => 0) }], gguf.learningRate, []))
    seconds.push(r.seconds)
    console.log(`gguf-train: ${backend} step ${s} ${r.seconds.toFixed(3)} s/update ${(r.tokensProcessed / r.seconds).toFixed(0)} tokens/s peak RSS ${(r.peakRssBytes / 2 ** 20).toFixed(0)} MiB`)
  }
  const rest = seconds.slice(1).sort((a, b) => a - b)
  const med = rest.length ? rest[Math.floor(rest.length / 2)]! : seconds[0]!
  console.log(`update: ${backend} ${med.toFixed(3)} s/update ${(len / med).toFixed(0)} tokens/s (median after the first step; model ${model}, context ${len})`)
} finally {
  await trainer.close()
}
