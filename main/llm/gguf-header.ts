import { open, stat, type FileHandle } from 'node:fs/promises'
import { ModelFileError } from './errors'

/**
 * A bounds-checked reader for the GGUF header (metadata and tensor table). Every length read from the
 * file is checked against the bytes that remain before anything is allocated, so random or truncated
 * input fails fast with a typed error. node-llama-cpp's own reader zero-fills past the end of a
 * truncated file and trusts string lengths, which is fine for good files but not for a file picker.
 * Every tensor's type must be one ggml knows and its bytes must lie within the file; each refusal
 * names its cause ("truncated at byte N: tensor X needs bytes A..B", "unknown tensor type 999 in
 * tensor X"). gguf-check.ts adds the check training needs (every weight F32).
 */

export type GgufScalar = number | bigint | boolean | string

/** Arrays are kept whole when short; long ones (vocabularies, merges) keep only their length. */
export interface GgufArray {
  itemType: number
  length: number
  values?: GgufScalar[]
}

export type GgufMetaValue = GgufScalar | GgufArray

export interface GgufTensorEntry {
  name: string
  dims: number[]
  ggmlType: number
  /** Offset from the start of the data section. */
  offset: number
}

export interface GgufHeader {
  version: number
  fileSize: number
  metadata: Map<string, GgufMetaValue>
  tensors: GgufTensorEntry[]
  alignment: number
  /** Absolute offset of the tensor data section. */
  dataOffset: number
}

const KEEP_ARRAY_MAX = 256
const MAX_KEY_BYTES = 1 << 16
const MAX_DIMS = 8

// Fixed byte width of each GGUF value type (strings and arrays are variable: 0 here).
const VALUE_WIDTH: readonly number[] = [1, 1, 2, 2, 4, 4, 4, 1, 0, 0, 8, 8, 8]
const STRING = 8
const ARRAY = 9

/** Elements per block and bytes per block of every ggml tensor type (ggml.h's ggml_type; the ids it removed are absent). */
const GGML_BLOCK: Record<number, readonly [blockElements: number, blockBytes: number]> = {
  0: [1, 4], 1: [1, 2], 2: [32, 18], 3: [32, 20], 6: [32, 22], 7: [32, 24], 8: [32, 34], 9: [32, 36],
  10: [256, 84], 11: [256, 110], 12: [256, 144], 13: [256, 176], 14: [256, 210], 15: [256, 292],
  16: [256, 66], 17: [256, 74], 18: [256, 98], 19: [256, 50], 20: [32, 18], 21: [256, 110], 22: [256, 82],
  23: [256, 136], 24: [1, 1], 25: [1, 2], 26: [1, 4], 27: [1, 8], 28: [1, 8], 29: [256, 56], 30: [1, 2],
  34: [256, 54], 35: [256, 66], 39: [32, 17],
}

/** Bytes a tensor occupies, or null for a type this table does not know. */
export function tensorByteSize(ggmlType: number, elements: number): number | null {
  const block = GGML_BLOCK[ggmlType]
  if (!block) return null
  return Math.ceil(elements / block[0]) * block[1]
}

/** Whether ggml knows a tensor type id. */
export const isKnownTensorType = (ggmlType: number): boolean => GGML_BLOCK[ggmlType] !== undefined

/** Bytes a tensor of a known type occupies, exactly, however large its dimensions claim to be. */
function tensorBytes(ggmlType: number, dims: number[]): bigint {
  const [blockElements, blockBytes] = GGML_BLOCK[ggmlType]!
  const elements = dims.reduce((a, b) => a * BigInt(b), 1n)
  return ((elements + BigInt(blockElements) - 1n) / BigInt(blockElements)) * BigInt(blockBytes)
}

/** "truncated at byte N: <what> needs bytes A..B": the file ends at N, and bytes A to B (inclusive) were needed. */
export function truncatedMessage(size: number, what: string, start: number | bigint, length: number | bigint): string {
  const end = BigInt(start) + BigInt(length) - 1n
  return `truncated at byte ${size}: ${what} needs bytes ${start}..${end} (the file ends early: the download or copy is probably incomplete)`
}

class BoundedReader {
  private chunk = Buffer.alloc(0)
  private chunkStart = 0
  pos = 0

  constructor(private readonly fh: FileHandle, readonly size: number, private readonly path: string) {}

  get remaining(): number {
    return this.size - this.pos
  }

  /** The `length` bytes of `what`, from here, go past the end. */
  truncated(what: string, length: number | bigint): ModelFileError {
    return new ModelFileError('truncated', truncatedMessage(this.size, what, this.pos, length), { path: this.path })
  }

  corrupt(what: string): ModelFileError {
    return new ModelFileError('corrupt', `GGUF header is corrupt: ${what}`, { path: this.path })
  }

  private async bytes(n: number, what: string): Promise<Buffer> {
    if (n > this.remaining) throw this.truncated(what, n)
    const offsetInChunk = this.pos - this.chunkStart
    if (offsetInChunk < 0 || offsetInChunk + n > this.chunk.length) {
      const want = Math.min(Math.max(n, 1 << 20), this.remaining)
      const buf = Buffer.alloc(want)
      const { bytesRead } = await this.fh.read(buf, 0, want, this.pos)
      if (bytesRead < n) throw this.truncated(what, n)
      this.chunk = buf.subarray(0, bytesRead)
      this.chunkStart = this.pos
    }
    const start = this.pos - this.chunkStart
    this.pos += n
    return this.chunk.subarray(start, start + n)
  }

  async u32(what: string): Promise<number> { return (await this.bytes(4, what)).readUInt32LE(0) }

  /** u64 as a number; values beyond 2^53 are never valid sizes or counts here. */
  async count(what: string): Promise<number> {
    const v = (await this.bytes(8, what)).readBigUInt64LE(0)
    if (v > BigInt(Number.MAX_SAFE_INTEGER)) throw this.corrupt(`${what} is ${v}, impossible in a file of ${this.size} bytes`)
    return Number(v)
  }

  async string(what: string, maxBytes = Number.MAX_SAFE_INTEGER): Promise<string> {
    const length = await this.count(`${what} length`)
    if (length > maxBytes) throw this.corrupt(`${what} claims ${length} bytes (at most ${maxBytes})`)
    if (length > this.remaining) throw this.truncated(what, length)
    return (await this.bytes(length, what)).toString('utf8')
  }

  async scalar(type: number, what: string): Promise<GgufScalar> {
    if (type === STRING) return this.string(what)
    const b = await this.bytes(VALUE_WIDTH[type]!, what)
    switch (type) {
      case 0: return b.readUInt8(0)
      case 1: return b.readInt8(0)
      case 2: return b.readUInt16LE(0)
      case 3: return b.readInt16LE(0)
      case 4: return b.readUInt32LE(0)
      case 5: return b.readInt32LE(0)
      case 6: return b.readFloatLE(0)
      case 7: return b.readUInt8(0) !== 0
      case 10: return safeNumber(b.readBigUInt64LE(0))
      case 11: return safeNumber(b.readBigInt64LE(0))
      case 12: return b.readDoubleLE(0)
      default: throw this.corrupt(`${what} has unknown value type ${type}`)
    }
  }
}

function safeNumber(v: bigint): number | bigint {
  return v <= BigInt(Number.MAX_SAFE_INTEGER) && v >= BigInt(Number.MIN_SAFE_INTEGER) ? Number(v) : v
}

async function readValue(r: BoundedReader, type: number, key: string): Promise<GgufMetaValue> {
  if (type > 12) throw r.corrupt(`key ${key} has unknown value type ${type}`)
  if (type !== ARRAY) return r.scalar(type, `value of ${key}`)
  const itemType = await r.u32(`item type of ${key}`)
  if (itemType > 12 || itemType === ARRAY) throw r.corrupt(`array ${key} has item type ${itemType}`)
  const length = await r.count(`length of ${key}`)
  // A string takes at least its 8-byte length; a fixed-width item its width.
  const minItemBytes = itemType === STRING ? 8 : VALUE_WIDTH[itemType]!
  if (length * minItemBytes > r.remaining) throw r.truncated(`array ${key} (${length} items)`, length * minItemBytes)
  const keep = length <= KEEP_ARRAY_MAX
  const values: GgufScalar[] = []
  for (let i = 0; i < length; i++) {
    const v = await r.scalar(itemType, `item ${i} of ${key}`)
    if (keep) values.push(v)
  }
  return keep ? { itemType, length, values } : { itemType, length }
}

export async function readGgufHeader(path: string): Promise<GgufHeader> {
  let size: number
  try {
    const s = await stat(path)
    if (!s.isFile()) throw new ModelFileError('not-a-file', `${path} is not a regular file`, { path })
    size = s.size
  } catch (error) {
    if (error instanceof ModelFileError) throw error
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT') throw new ModelFileError('file-not-found', `model file not found: ${path}`, { path, cause: error })
    throw new ModelFileError('unreadable', `cannot read ${path}: ${(error as Error).message}`, { path, cause: error })
  }
  if (size === 0) throw new ModelFileError('file-empty', `model file is empty (0 bytes): ${path}`, { path })

  const fh = await open(path, 'r')
  try {
    const r = new BoundedReader(fh, size, path)
    const magicBytes = Buffer.alloc(Math.min(4, size))
    await fh.read(magicBytes, 0, magicBytes.length, 0)
    if (magicBytes.toString('latin1') !== 'GGUF') {
      const looksText = /^[\x09\x0a\x0d\x20-\x7e]*$/.test(magicBytes.toString('latin1'))
      const hex = [...magicBytes].map((b) => b.toString(16).padStart(2, '0')).join(' ')
      throw new ModelFileError('not-gguf', `not a GGUF file (${looksText ? 'it looks like text' : `it starts with ${hex}, not "GGUF"`}): ${path}`, { path })
    }
    r.pos = 4
    const version = await r.u32('version')
    if (version !== 2 && version !== 3) {
      throw new ModelFileError('unsupported-gguf-version', `GGUF version ${version} is not supported (expected 2 or 3)`, { path })
    }
    const tensorCount = await r.count('tensor count')
    const kvCount = await r.count('metadata count')
    // Each key-value pair takes at least 13 bytes and each tensor entry at least 24.
    if (kvCount * 13 > r.remaining) throw r.truncated(`${kvCount} metadata entries (at least 13 bytes each)`, kvCount * 13)
    if (tensorCount * 24 > r.remaining) throw r.truncated(`${tensorCount} tensor entries (at least 24 bytes each)`, tensorCount * 24)

    const metadata = new Map<string, GgufMetaValue>()
    for (let i = 0; i < kvCount; i++) {
      const key = await r.string(`metadata key ${i}`, MAX_KEY_BYTES)
      const type = await r.u32(`type of ${key}`)
      metadata.set(key, await readValue(r, type, key))
    }

    const tensors: GgufTensorEntry[] = []
    for (let i = 0; i < tensorCount; i++) {
      const name = await r.string(`tensor name ${i}`, MAX_KEY_BYTES)
      const nDims = await r.u32(`dimension count of ${name}`)
      if (nDims < 1 || nDims > MAX_DIMS) throw r.corrupt(`tensor ${name} has ${nDims} dimensions`)
      const dims: number[] = []
      for (let d = 0; d < nDims; d++) dims.push(await r.count(`dimension ${d} of ${name}`))
      const ggmlType = await r.u32(`type of ${name}`)
      const offset = await r.count(`offset of ${name}`)
      tensors.push({ name, dims, ggmlType, offset })
    }

    const alignmentValue = metadata.get('general.alignment')
    const alignment = typeof alignmentValue === 'number' && alignmentValue > 0 ? alignmentValue : 32
    const dataOffset = Math.ceil(r.pos / alignment) * alignment

    for (const t of tensors) {
      if (!isKnownTensorType(t.ggmlType)) throw new ModelFileError('corrupt', `unknown tensor type ${t.ggmlType} in tensor ${t.name}: not a ggml type this build reads (the file is corrupt, or from a newer llama.cpp)`, { path })
      if (t.offset % alignment !== 0) throw r.corrupt(`tensor ${t.name} offset ${t.offset} is not aligned to ${alignment}`)
      const bytes = tensorBytes(t.ggmlType, t.dims)
      if (bytes > BigInt(size)) {
        throw new ModelFileError('corrupt', `tensor ${t.name} claims dimensions ${t.dims.join(' x ')} (${bytes} bytes), more than the whole file (${size} bytes): the header is corrupt`, { path })
      }
      const start = BigInt(dataOffset) + BigInt(t.offset)
      if (start + bytes > BigInt(size)) throw new ModelFileError('truncated', truncatedMessage(size, `tensor ${t.name}`, start, bytes), { path })
    }
    return { version, fileSize: size, metadata, tensors, alignment, dataOffset }
  } finally {
    await fh.close()
  }
}
