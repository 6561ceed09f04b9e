import { f32, str, u32, writeGgufFile, type GgufTensor, type GgufValue, type TensorType } from './gguf-file'
import { seededRng, type Rng } from './rng'
import { bpeVocab, spmVocab, type BpeOptions, type Vocab, type VocabKind } from './vocab'

export interface TinyLlamaOptions {
  /** 'spm' SentencePiece with byte fallback (default) or 'bpe' byte-level gpt2-style. */
  vocab?: VocabKind
  /** Extra whole-word pieces; defaults to a short English list. */
  words?: readonly string[]
  /** BPE only: write merges (default) or an empty merges list. */
  bpeMerges?: boolean
  /** BPE only: tokenizer.ggml.pre (default 'gpt-2'). */
  bpePre?: string
  embeddingLength?: number
  layers?: number
  heads?: number
  /** Grouped-query attention: defaults to heads. */
  kvHeads?: number
  feedForwardLength?: number
  contextLength?: number
  /** Type of the 2-D weight matrices; norms are always F32. */
  weightType?: TensorType
  seed?: number
  /** Standard deviation of the output projection in units of 1/sqrt(width): larger means peakier next-token distributions. */
  logitScale?: number
  chatTemplate?: string
  name?: string
  /** Further metadata keys, written after the model's own (e.g. an architecture feature a test needs). */
  extraMetadata?: ReadonlyArray<readonly [string, GgufValue]>
}

export interface TinyLlamaShape {
  vocab: Vocab
  embd: number
  layers: number
  heads: number
  kvHeads: number
  headDim: number
  ff: number
  context: number
}

export interface TinyModelInfo {
  file: string
  bytes: number
  vocabSize: number
  tokens: string[]
  bos: number
  eos: number
  parameterCount: number
  tensorCount: number
}

/** Per-block projection names and their (input, output) widths, shared by the model and LoRA writers. */
export function blockMatrices(s: TinyLlamaShape): Array<{ name: string; input: number; output: number }> {
  const kv = s.kvHeads * s.headDim
  return [
    { name: 'attn_q', input: s.embd, output: s.heads * s.headDim },
    { name: 'attn_k', input: s.embd, output: kv },
    { name: 'attn_v', input: s.embd, output: kv },
    { name: 'attn_output', input: s.heads * s.headDim, output: s.embd },
    { name: 'ffn_gate', input: s.embd, output: s.ff },
    { name: 'ffn_up', input: s.embd, output: s.ff },
    { name: 'ffn_down', input: s.ff, output: s.embd },
  ]
}

export function resolveShape(o: TinyLlamaOptions = {}): TinyLlamaShape {
  const vocab = (o.vocab ?? 'spm') === 'spm'
    ? spmVocab(o.words)
    : bpeVocab({ words: o.words, merges: o.bpeMerges, pre: o.bpePre } satisfies BpeOptions)
  const embd = o.embeddingLength ?? 64
  const heads = o.heads ?? 4
  const kvHeads = o.kvHeads ?? heads
  if (embd % heads !== 0) throw new Error(`embeddingLength ${embd} is not divisible by heads ${heads}`)
  if (heads % kvHeads !== 0) throw new Error(`heads ${heads} is not divisible by kvHeads ${kvHeads}`)
  return {
    vocab,
    embd,
    layers: o.layers ?? 2,
    heads,
    kvHeads,
    headDim: embd / heads,
    ff: o.feedForwardLength ?? embd * 2,
    context: o.contextLength ?? 512,
  }
}

function randomMatrix(rng: Rng, input: number, output: number, std: number): Float32Array {
  const data = new Float32Array(input * output)
  for (let i = 0; i < data.length; i++) data[i] = rng.normal() * std
  return data
}

function llamaMetadata(s: TinyLlamaShape, o: TinyLlamaOptions, fileType: number): Array<[string, GgufValue]> {
  return [
    ['general.architecture', str('llama')],
    ['general.name', str(o.name ?? `tiny-llama-${s.vocab.kind}`)],
    ['general.file_type', u32(fileType)],
    ['llama.vocab_size', u32(s.vocab.tokens.length)],
    ['llama.context_length', u32(s.context)],
    ['llama.embedding_length', u32(s.embd)],
    ['llama.block_count', u32(s.layers)],
    ['llama.feed_forward_length', u32(s.ff)],
    ['llama.attention.head_count', u32(s.heads)],
    ['llama.attention.head_count_kv', u32(s.kvHeads)],
    ['llama.rope.dimension_count', u32(s.headDim)],
    ['llama.rope.freq_base', f32(10000)],
    ['llama.attention.layer_norm_rms_epsilon', f32(1e-5)],
  ]
}

/**
 * Write a valid GGUF v3 llama model with seeded random weights. A 64-wide, 2-layer model is about
 * half a megabyte in F32 and loads in node-llama-cpp in tens of milliseconds.
 */
export function writeTinyLlama(file: string, options: TinyLlamaOptions = {}): TinyModelInfo {
  const s = resolveShape(options)
  const rng = seededRng(options.seed ?? 1)
  const weightType = options.weightType ?? 'F32'
  const nVocab = s.vocab.tokens.length
  const ones = (n: number): Float32Array => new Float32Array(n).fill(1)
  const matrix = (name: string, input: number, output: number, std: number): GgufTensor =>
    ({ name, dims: [input, output], type: weightType, data: randomMatrix(rng, input, output, std) })

  const tensors: GgufTensor[] = [matrix('token_embd.weight', s.embd, nVocab, 1)]
  for (let layer = 0; layer < s.layers; layer++) {
    tensors.push({ name: `blk.${layer}.attn_norm.weight`, dims: [s.embd], type: 'F32', data: ones(s.embd) })
    tensors.push({ name: `blk.${layer}.ffn_norm.weight`, dims: [s.embd], type: 'F32', data: ones(s.embd) })
    for (const m of blockMatrices(s)) {
      // Scaled like a standard init so activations stay O(1) through the residual stream.
      tensors.push(matrix(`blk.${layer}.${m.name}.weight`, m.input, m.output, 1 / Math.sqrt(m.input)))
    }
  }
  tensors.push({ name: 'output_norm.weight', dims: [s.embd], type: 'F32', data: ones(s.embd) })
  tensors.push(matrix('output.weight', s.embd, nVocab, (options.logitScale ?? 3) / Math.sqrt(s.embd)))

  const metadata: Array<[string, GgufValue]> = [
    ...llamaMetadata(s, options, weightType === 'F32' ? 0 : 1),
    ...s.vocab.metadata,
  ]
  if (options.chatTemplate !== undefined) metadata.push(['tokenizer.chat_template', str(options.chatTemplate)])
  for (const [k, v] of options.extraMetadata ?? []) metadata.push([k, v])

  const bytes = writeGgufFile(file, { metadata, tensors })
  return {
    file,
    bytes,
    vocabSize: nVocab,
    tokens: s.vocab.tokens,
    bos: s.vocab.bos,
    eos: s.vocab.eos,
    parameterCount: tensors.reduce((sum, t) => sum + t.data.length, 0),
    tensorCount: tensors.length,
  }
}

export interface TinyLoraOptions {
  rank?: number
  alpha?: number
  seed?: number
  /** Block projections to adapt; defaults to attn_q and attn_v. */
  targets?: readonly string[]
  /** Standard deviation of lora_b; non-zero so the adapter visibly changes the output. */
  bScale?: number
}

/**
 * Write a LoRA adapter GGUF for a model written by writeTinyLlama with the same base options.
 * llama.cpp checks lora_a as [input, rank] and lora_b as [rank, output] in ggml order.
 */
export function writeTinyLoraAdapter(file: string, base: TinyLlamaOptions = {}, options: TinyLoraOptions = {}): { file: string; bytes: number; tensorCount: number } {
  const s = resolveShape(base)
  const rank = options.rank ?? 4
  const rng = seededRng(options.seed ?? 7)
  const targets = new Set(options.targets ?? ['attn_q', 'attn_v'])
  const tensors: GgufTensor[] = []
  for (let layer = 0; layer < s.layers; layer++) {
    for (const m of blockMatrices(s)) {
      if (!targets.has(m.name)) continue
      const name = `blk.${layer}.${m.name}.weight`
      tensors.push({ name: `${name}.lora_a`, dims: [m.input, rank], type: 'F32', data: randomMatrix(rng, m.input, rank, 1 / Math.sqrt(m.input)) })
      tensors.push({ name: `${name}.lora_b`, dims: [rank, m.output], type: 'F32', data: randomMatrix(rng, rank, m.output, options.bScale ?? 0.5) })
    }
  }
  if (tensors.length === 0) throw new Error('no LoRA targets matched the block projections')
  const metadata: Array<[string, GgufValue]> = [
    ['general.architecture', str('llama')],
    ['general.type', str('adapter')],
    ['general.name', str(`tiny-lora-r${rank}`)],
    ['adapter.type', str('lora')],
    ['adapter.lora.alpha', f32(options.alpha ?? rank)],
  ]
  const bytes = writeGgufFile(file, { metadata, tensors })
  return { file, bytes, tensorCount: tensors.length }
}

