import { createHash } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { GgmlType, GgufFileType } from 'node-llama-cpp'
import { readGgufHeader, type GgufArray, type GgufHeader, type GgufMetaValue } from './gguf-header'

/** What the model picker and run records need to know about a GGUF file, read without loading weights. */
export interface ModelFileInfo {
  path: string
  sizeBytes: number
  /** Hex SHA-256 of the whole file (streamed); null when hashing was skipped. */
  sha256: string | null
  ggufVersion: number
  architecture: string | null
  name: string | null
  /** general.type: 'model', 'adapter', ... (absent in many older files). */
  generalType: string | null
  isLoraAdapter: boolean
  loraAlpha: number | null
  /** Sum of tensor element counts: exact for the file, an estimate of the model's size class. */
  parameterCount: number
  tensorCount: number
  /** general.file_type as a name such as 'MOSTLY_Q4_K_M'; null when absent. */
  fileType: string | null
  /** Short quantisation label ('Q4_K_M', 'F16', 'F32'), from file_type or else the dominant tensor type. */
  quantization: string | null
  /** Parameters per ggml tensor type name. */
  tensorTypes: Record<string, number>
  contextLength: number | null
  embeddingLength: number | null
  layers: number | null
  headCount: number | null
  headCountKv: number | null
  vocabularySize: number | null
  tokenizerModel: string | null
  hasChatTemplate: boolean
  /** Heuristic: the file looks like an embedding/encoder model rather than a generator; see reasons. */
  isEmbeddingModel: boolean
  embeddingReasons: string[]
}

const EMBEDDING_ARCHITECTURES = new Set([
  'bert', 'nomic-bert', 'nomic-bert-moe', 'jina-bert-v2', 'jina-bert-v3', 'neo-bert', 'modern-bert', 't5encoder', 'eurobert', 'gemma-embedding',
])

/** SHA-256 of a file, streamed so multi-gigabyte models never sit in memory. */
export function sha256File(path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const hash = createHash('sha256')
    createReadStream(path, { highWaterMark: 1 << 20 })
      .on('data', (chunk) => hash.update(chunk))
      .on('error', reject)
      .on('end', () => resolve(hash.digest('hex')))
  })
}

const asString = (v: GgufMetaValue | undefined): string | null => (typeof v === 'string' ? v : null)
const asNumber = (v: GgufMetaValue | undefined): number | null => (typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : null)
const asArray = (v: GgufMetaValue | undefined): GgufArray | null => (v !== null && typeof v === 'object' ? v : null)

function quantizationLabel(fileType: number | null, tensorTypes: Record<string, number>): string | null {
  if (fileType !== null && GgufFileType[fileType] !== undefined) {
    return GgufFileType[fileType]!.replace(/^(MOSTLY|ALL)_/, '')
  }
  const dominant = Object.entries(tensorTypes).sort((a, b) => b[1] - a[1])[0]
  return dominant ? dominant[0] : null
}

function embeddingHint(header: GgufHeader, arch: string | null, name: string | null): string[] {
  const reasons: string[] = []
  if (arch && EMBEDDING_ARCHITECTURES.has(arch)) reasons.push(`architecture ${arch} is an encoder`)
  const pooling = asNumber(header.metadata.get(`${arch}.pooling_type`))
  if (pooling !== null && pooling > 0) reasons.push(`${arch}.pooling_type is ${pooling}`)
  if (header.metadata.get(`${arch}.attention.causal`) === false) reasons.push('attention is not causal')
  if (name && /embed/i.test(name)) reasons.push(`name "${name}" mentions embedding`)
  return reasons
}

/** Summarise a parsed header; exported for callers that already hold one. */
export function describeGgufHeader(path: string, header: GgufHeader, sha256: string | null): ModelFileInfo {
  const m = header.metadata
  const arch = asString(m.get('general.architecture'))
  const name = asString(m.get('general.name'))
  const generalType = asString(m.get('general.type'))
  const key = (suffix: string): number | null => (arch ? asNumber(m.get(`${arch}.${suffix}`)) : null)

  const tensorTypes: Record<string, number> = {}
  let parameterCount = 0
  for (const t of header.tensors) {
    const elements = t.dims.reduce((a, b) => a * b, 1)
    parameterCount += elements
    const typeName = GgmlType[t.ggmlType] ?? `type-${t.ggmlType}`
    tensorTypes[typeName] = (tensorTypes[typeName] ?? 0) + elements
  }
  const fileTypeId = asNumber(m.get('general.file_type'))
  const isLoraAdapter = (generalType === 'adapter' && asString(m.get('adapter.type')) === 'lora')
    || header.tensors.some((t) => t.name.endsWith('.lora_a'))
  const template = asString(m.get('tokenizer.chat_template'))
  const reasons = embeddingHint(header, arch, name)

  return {
    path,
    sizeBytes: header.fileSize,
    sha256,
    ggufVersion: header.version,
    architecture: arch,
    name,
    generalType,
    isLoraAdapter,
    loraAlpha: asNumber(m.get('adapter.lora.alpha')),
    parameterCount,
    tensorCount: header.tensors.length,
    fileType: fileTypeId !== null ? (GgufFileType[fileTypeId] ?? `file-type-${fileTypeId}`) : null,
    quantization: quantizationLabel(fileTypeId, tensorTypes),
    tensorTypes,
    contextLength: key('context_length'),
    embeddingLength: key('embedding_length'),
    layers: key('block_count'),
    headCount: key('attention.head_count'),
    headCountKv: key('attention.head_count_kv'),
    vocabularySize: asArray(m.get('tokenizer.ggml.tokens'))?.length ?? key('vocab_size'),
    tokenizerModel: asString(m.get('tokenizer.ggml.model')),
    hasChatTemplate: template !== null && template.length > 0,
    isEmbeddingModel: reasons.length > 0,
    embeddingReasons: reasons,
  }
}

/**
 * Inspect a GGUF file without loading weights. Bad input (missing, empty, not GGUF, truncated,
 * corrupt header) rejects with a ModelFileError whose `code` says which.
 */
export async function inspectModelFile(path: string, options: { hash?: boolean } = {}): Promise<ModelFileInfo> {
  const header = await readGgufHeader(path)
  const sha = options.hash === false ? null : await sha256File(path)
  return describeGgufHeader(path, header, sha)
}
