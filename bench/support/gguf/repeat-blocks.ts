import { readFileSync, writeFileSync } from 'node:fs'
import { tensorByteSize } from '../../../main/llm/gguf-header'

/**
 * A deeper copy of a GGUF model: its blocks repeated to `layers` (block i is a copy of block i mod n),
 * every other key and tensor as it is, `<arch>.block_count` set to `layers`. Real trained weights at a
 * real depth, for tests and benchmarks of what depth does to training (stories260K has 5 blocks; the
 * models researchers bring have 16-32). The metadata is copied byte for byte, so vocabularies and
 * merges of any length survive; only the tensor table and data are rewritten.
 */

const VALUE_WIDTH: readonly number[] = [1, 1, 2, 2, 4, 4, 4, 1, 0, 0, 8, 8, 8]
const STRING = 8
const ARRAY = 9
const U32 = 4

class Cursor {
  constructor(readonly buf: Buffer, public at = 0) {}
  need(n: number, what: string): void {
    if (this.at + n > this.buf.length) throw new Error(`GGUF truncated at byte ${this.at}: ${what} needs ${n} bytes`)
  }
  u32(): number { this.need(4, 'a u32'); const v = this.buf.readUInt32LE(this.at); this.at += 4; return v }
  u64(): number { this.need(8, 'a u64'); const v = Number(this.buf.readBigUInt64LE(this.at)); this.at += 8; return v }
  str(): string { const n = this.u64(); this.need(n, 'a string'); const s = this.buf.toString('utf8', this.at, this.at + n); this.at += n; return s }
  skipValue(type: number): void {
    if (type === STRING) { this.str(); return }
    if (type === ARRAY) {
      const of = this.u32()
      const n = this.u64()
      if (of === STRING) for (let i = 0; i < n; i++) this.str()
      else this.skip(n * this.width(of))
      return
    }
    this.skip(this.width(type))
  }
  private width(type: number): number {
    const w = VALUE_WIDTH[type]
    if (!w) throw new Error(`unknown GGUF value type ${type} at byte ${this.at}`)
    return w
  }
  skip(n: number): void { this.need(n, 'a value'); this.at += n }
}

interface TensorInfo { name: string; dims: number[]; type: number; offset: number; bytes: number }

const pad = (n: number, align: number) => (align - (n % align)) % align

export interface RepeatedModel { file: string; layers: number; sourceLayers: number; tensors: number; bytes: number }

export function repeatBlocks(source: string, target: string, layers: number): RepeatedModel {
  if (!Number.isInteger(layers) || layers < 1) throw new Error(`layers must be a positive integer, not ${layers}`)
  const buf = readFileSync(source)
  const c = new Cursor(buf)
  c.need(4, 'the magic')
  if (buf.toString('latin1', 0, 4) !== 'GGUF') throw new Error(`${source} is not a GGUF file`)
  c.at = 4
  const version = c.u32()
  const nTensors = c.u64()
  const nKv = c.u64()
  const kvStart = c.at
  let arch = ''
  let alignment = 32
  const u32Slots = new Map<string, number>()
  for (let i = 0; i < nKv; i++) {
    const key = c.str()
    const type = c.u32()
    if (type === U32) u32Slots.set(key, c.at)
    if (key === 'general.architecture' && type === STRING) {
      const at = c.at
      arch = c.str()
      c.at = at
    }
    if (key === 'general.alignment' && type === U32) alignment = buf.readUInt32LE(c.at)
    c.skipValue(type)
  }
  const kv = Buffer.from(buf.subarray(kvStart, c.at))
  const blockSlot = u32Slots.get(`${arch}.block_count`)
  if (!arch || blockSlot === undefined) throw new Error(`${source} has no ${arch || '<arch>'}.block_count (a u32): not a model with blocks`)
  const sourceLayers = buf.readUInt32LE(blockSlot)
  kv.writeUInt32LE(layers, blockSlot - kvStart)
  const infos: TensorInfo[] = []
  for (let i = 0; i < nTensors; i++) {
    const name = c.str()
    const nd = c.u32()
    const dims = Array.from({ length: nd }, () => c.u64())
    const type = c.u32()
    const offset = c.u64()
    const bytes = tensorByteSize(type, dims.reduce((a, b) => a * b, 1))
    if (bytes === null) throw new Error(`tensor ${name} has unknown type ${type}`)
    infos.push({ name, dims, type, offset, bytes })
  }
  const dataStart = c.at + pad(c.at, alignment)
  const block = (name: string) => /^blk\.(\d+)\./.exec(name)
  const outside = infos.filter((t) => !block(t.name))
  const byBlock = (b: number) => infos.filter((t) => Number(block(t.name)?.[1]) === b)
  const tensors: Array<{ name: string; from: TensorInfo }> = outside.map((t) => ({ name: t.name, from: t }))
  for (let i = 0; i < layers; i++) {
    for (const t of byBlock(i % sourceLayers)) tensors.push({ name: t.name.replace(/^blk\.\d+\./, `blk.${i}.`), from: t })
  }
  const parts: Buffer[] = []
  const head = Buffer.alloc(24)
  head.write('GGUF', 0, 'latin1')
  head.writeUInt32LE(version, 4)
  head.writeBigUInt64LE(BigInt(tensors.length), 8)
  head.writeBigUInt64LE(BigInt(nKv), 16)
  parts.push(head, kv)
  let offset = 0
  for (const t of tensors) {
    const name = Buffer.from(t.name, 'utf8')
    const info = Buffer.alloc(8 + name.length + 4 + 8 * t.from.dims.length + 4 + 8)
    let at = info.writeBigUInt64LE(BigInt(name.length), 0)
    at += name.copy(info, at)
    at = info.writeUInt32LE(t.from.dims.length, at)
    for (const d of t.from.dims) at = info.writeBigUInt64LE(BigInt(d), at)
    at = info.writeUInt32LE(t.from.type, at)
    info.writeBigUInt64LE(BigInt(offset), at)
    parts.push(info)
    offset += t.from.bytes + pad(t.from.bytes, alignment)
  }
  const tableEnd = parts.reduce((n, p) => n + p.length, 0)
  parts.push(Buffer.alloc(pad(tableEnd, alignment)))
  for (const t of tensors) {
    const start = dataStart + t.from.offset
    if (start + t.from.bytes > buf.length) throw new Error(`tensor ${t.from.name}'s data runs past the end of ${source}`)
    parts.push(buf.subarray(start, start + t.from.bytes), Buffer.alloc(pad(t.from.bytes, alignment)))
  }
  const out = Buffer.concat(parts)
  writeFileSync(target, out)
  return { file: target, layers, sourceLayers, tensors: tensors.length, bytes: out.length }
}
