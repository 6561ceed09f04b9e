/** ZIPs written by hand, so that an entry can lie about its size (the zip-bomb cases of the ingest and its bench). */
import { crc32, deflateRawSync } from 'node:zlib'

/** An entry as written: its bytes (raw deflate unless stored), the CRC-32 of the content and the size it claims. */
export interface RawZipEntry {
  name: string
  body: Uint8Array
  crc: number
  declaredSize: number
  stored?: boolean
}

export function rawZip(entries: readonly RawZipEntry[]): Buffer {
  const locals: Buffer[] = []
  const centrals: Buffer[] = []
  let offset = 0
  for (const e of entries) {
    const name = Buffer.from(e.name)
    const method = e.stored ? 0 : 8
    const local = Buffer.alloc(30)
    local.writeUInt32LE(0x04034b50, 0)
    local.writeUInt16LE(20, 4)
    local.writeUInt16LE(method, 8)
    local.writeUInt32LE(e.crc >>> 0, 14)
    local.writeUInt32LE(e.body.length, 18)
    local.writeUInt32LE(e.declaredSize, 22)
    local.writeUInt16LE(name.length, 26)
    const central = Buffer.alloc(46)
    central.writeUInt32LE(0x02014b50, 0)
    central.writeUInt16LE(20, 4)
    central.writeUInt16LE(20, 6)
    central.writeUInt16LE(method, 10)
    central.writeUInt32LE(e.crc >>> 0, 16)
    central.writeUInt32LE(e.body.length, 20)
    central.writeUInt32LE(e.declaredSize, 24)
    central.writeUInt16LE(name.length, 28)
    central.writeUInt32LE(offset, 42)
    locals.push(local, name, Buffer.from(e.body))
    centrals.push(central, name)
    offset += local.length + name.length + e.body.length
  }
  const directory = Buffer.concat(centrals)
  const end = Buffer.alloc(22)
  end.writeUInt32LE(0x06054b50, 0)
  end.writeUInt16LE(entries.length, 8)
  end.writeUInt16LE(entries.length, 10)
  end.writeUInt32LE(directory.length, 12)
  end.writeUInt32LE(offset, 16)
  return Buffer.concat([...locals, directory, end])
}

/** Entries from their content: deflated (or stored), with the true CRC and, unless given, the true size. */
export const handZip = (entries: readonly { name: string; data: Uint8Array; declaredSize?: number; stored?: boolean }[]): Uint8Array =>
  new Uint8Array(rawZip(entries.map((e) => ({ name: e.name, body: e.stored ? e.data : deflateRawSync(e.data), crc: crc32(e.data), declaredSize: e.declaredSize ?? e.data.length, stored: e.stored ?? false }))))

/** `name` holding `deflated` (raw deflate of the entry), with the entry's CRC-32 and the size it claims to inflate to. */
export const oneEntryZip = (name: string, deflated: Uint8Array, crc: number, declaredSize: number): Buffer => rawZip([{ name, body: deflated, crc, declaredSize }])
