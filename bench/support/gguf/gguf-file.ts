import { writeFileSync } from 'node:fs'

/**
 * A from-scratch GGUF v3 serialiser: typed metadata, tensor infos, then tensor data with every
 * offset aligned. Only what test fixtures need: scalar, string and array values; F32 and F16 data.
 */

export const GGUF_ALIGNMENT = 32

/** GGUF metadata value type ids. */
const ValueType = {
  u8: 0, i8: 1, u16: 2, i16: 3, u32: 4, i32: 5, f32: 6, bool: 7, string: 8, array: 9, u64: 10, i64: 11, f64: 12,
} as const

type ScalarKind = Exclude<keyof typeof ValueType, 'array'>

export type GgufValue =
  | { kind: ScalarKind; value: number | bigint | boolean | string }
  | { kind: 'array'; of: ScalarKind; values: readonly (number | bigint | boolean | string)[] }

// Small constructors keep fixture code readable: the GGUF type of a JS number is never guessed.
export const u32 = (value: number): GgufValue => ({ kind: 'u32', value })
export const i32 = (value: number): GgufValue => ({ kind: 'i32', value })
export const f32 = (value: number): GgufValue => ({ kind: 'f32', value })
export const bool = (value: boolean): GgufValue => ({ kind: 'bool', value })
export const str = (value: string): GgufValue => ({ kind: 'string', value })
export const arr = (of: ScalarKind, values: readonly (number | bigint | boolean | string)[]): GgufValue => ({ kind: 'array', of, values })

/** ggml tensor types the writer can emit. */
export const GgmlTensorType = { F32: 0, F16: 1 } as const
export type TensorType = keyof typeof GgmlTensorType

export interface GgufTensor {
  name: string
  /** ggml order: dims[0] is the contiguous (input) dimension. */
  dims: readonly number[]
  type: TensorType
  data: Float32Array
}

export interface GgufSpec {
  metadata: ReadonlyArray<readonly [string, GgufValue]>
  tensors: readonly GgufTensor[]
}

/** A growable little-endian byte buffer. */
class ByteWriter {
  private buf = Buffer.alloc(1 << 16)
  length = 0

  private reserve(n: number): void {
    if (this.length + n <= this.buf.length) return
    let size = this.buf.length * 2
    while (size < this.length + n) size *= 2
    const next = Buffer.alloc(size)
    this.buf.copy(next, 0, 0, this.length)
    this.buf = next
  }

  u8(v: number): void { this.reserve(1); this.buf.writeUInt8(v, this.length); this.length += 1 }
  i8(v: number): void { this.reserve(1); this.buf.writeInt8(v, this.length); this.length += 1 }
  u16(v: number): void { this.reserve(2); this.buf.writeUInt16LE(v, this.length); this.length += 2 }
  i16(v: number): void { this.reserve(2); this.buf.writeInt16LE(v, this.length); this.length += 2 }
  u32(v: number): void { this.reserve(4); this.buf.writeUInt32LE(v, this.length); this.length += 4 }
  i32(v: number): void { this.reserve(4); this.buf.writeInt32LE(v, this.length); this.length += 4 }
  f32(v: number): void { this.reserve(4); this.buf.writeFloatLE(v, this.length); this.length += 4 }
  f64(v: number): void { this.reserve(8); this.buf.writeDoubleLE(v, this.length); this.length += 8 }
  u64(v: number | bigint): void { this.reserve(8); this.buf.writeBigUInt64LE(BigInt(v), this.length); this.length += 8 }
  i64(v: number | bigint): void { this.reserve(8); this.buf.writeBigInt64LE(BigInt(v), this.length); this.length += 8 }

  bytes(b: Uint8Array): void {
    this.reserve(b.length)
    this.buf.set(b, this.length)
    this.length += b.length
  }

  /** GGUF string: u64 byte length, UTF-8 bytes, no terminator. */
  string(s: string): void {
    const b = Buffer.from(s, 'utf8')
    this.u64(b.length)
    this.bytes(b)
  }

  padTo(alignment: number): void {
    const pad = (alignment - (this.length % alignment)) % alignment
    this.reserve(pad)
    this.buf.fill(0, this.length, this.length + pad)
    this.length += pad
  }

  result(): Buffer {
    return this.buf.subarray(0, this.length)
  }
}

function writeScalar(w: ByteWriter, kind: ScalarKind, value: number | bigint | boolean | string): void {
  switch (kind) {
    case 'u8': return w.u8(Number(value))
    case 'i8': return w.i8(Number(value))
    case 'u16': return w.u16(Number(value))
    case 'i16': return w.i16(Number(value))
    case 'u32': return w.u32(Number(value))
    case 'i32': return w.i32(Number(value))
    case 'f32': return w.f32(Number(value))
    case 'f64': return w.f64(Number(value))
    case 'u64': return w.u64(typeof value === 'bigint' ? value : Number(value))
    case 'i64': return w.i64(typeof value === 'bigint' ? value : Number(value))
    case 'bool': return w.u8(value ? 1 : 0)
    case 'string': return w.string(String(value))
  }
}

function writeValue(w: ByteWriter, v: GgufValue): void {
  if (v.kind === 'array') {
    w.u32(ValueType[v.of])
    w.u64(v.values.length)
    for (const item of v.values) writeScalar(w, v.of, item)
  } else {
    writeScalar(w, v.kind, v.value)
  }
}

/** IEEE 754 binary16 from a float, round-to-nearest-even (Node 20 has no Float16Array). */
export function toHalf(value: number): number {
  const f = new Float32Array([value])
  const x = new Uint32Array(f.buffer)[0]!
  const sign = (x >>> 16) & 0x8000
  const exp = (x >>> 23) & 0xff
  let mant = x & 0x7fffff
  if (exp === 0xff) return sign | 0x7c00 | (mant ? 0x200 : 0)
  let e = exp - 127 + 15
  if (e >= 0x1f) return sign | 0x7c00
  if (e <= 0) {
    if (e < -10) return sign
    mant |= 0x800000
    const shift = 14 - e
    let half = mant >>> shift
    const rest = mant & ((1 << shift) - 1)
    const mid = 1 << (shift - 1)
    if (rest > mid || (rest === mid && (half & 1))) half += 1
    return sign | half
  }
  let half = (e << 10) | (mant >>> 13)
  const rest = mant & 0x1fff
  if (rest > 0x1000 || (rest === 0x1000 && (half & 1))) half += 1
  return sign | half
}

function tensorBytes(t: GgufTensor): Buffer {
  const count = t.dims.reduce((a, b) => a * b, 1)
  if (t.data.length !== count) throw new Error(`tensor ${t.name}: ${t.data.length} values for dims [${t.dims.join(', ')}]`)
  if (t.type === 'F32') return Buffer.from(t.data.buffer, t.data.byteOffset, t.data.byteLength)
  const out = Buffer.alloc(count * 2)
  for (let i = 0; i < count; i++) out.writeUInt16LE(toHalf(t.data[i]!), i * 2)
  return out
}

/** Serialise a GGUF v3 file into memory. */
export function encodeGguf(spec: GgufSpec): Buffer {
  const names = new Set<string>()
  for (const t of spec.tensors) {
    if (names.has(t.name)) throw new Error(`duplicate tensor ${t.name}`)
    names.add(t.name)
  }
  const payloads = spec.tensors.map(tensorBytes)

  const w = new ByteWriter()
  w.bytes(Buffer.from('GGUF', 'latin1'))
  w.u32(3)
  w.u64(spec.tensors.length)
  w.u64(spec.metadata.length)
  for (const [key, value] of spec.metadata) {
    w.string(key)
    w.u32(ValueType[value.kind])
    writeValue(w, value)
  }

  // Offsets are relative to the start of the data section; each one is aligned.
  let offset = 0
  spec.tensors.forEach((t, i) => {
    w.string(t.name)
    w.u32(t.dims.length)
    for (const d of t.dims) w.u64(d)
    w.u32(GgmlTensorType[t.type])
    w.u64(offset)
    offset += payloads[i]!.length
    offset += (GGUF_ALIGNMENT - (offset % GGUF_ALIGNMENT)) % GGUF_ALIGNMENT
  })

  w.padTo(GGUF_ALIGNMENT)
  for (const payload of payloads) {
    w.bytes(payload)
    w.padTo(GGUF_ALIGNMENT)
  }
  return w.result()
}

export function writeGgufFile(file: string, spec: GgufSpec): number {
  const bytes = encodeGguf(spec)
  writeFileSync(file, bytes)
  return bytes.length
}
