/** Export formats as declarations: one format per file in main/exports/formats/, each registered under its own name. */
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { exportFormats } from '../../main/exports'

const FORMATS_DIR = fileURLToPath(new URL('../../main/exports/formats', import.meta.url))

describe('export format declarations', () => {
  it('declares each format in a file of its own, registered under its name', async () => {
    const seen = new Map<string, string>()
    for (const file of readdirSync(FORMATS_DIR).filter((f) => f.endsWith('.ts'))) {
      const mod = (await import(join(FORMATS_DIR, file))) as Record<string, unknown>
      const formats = Object.values(mod).filter((v): v is { name: string; write: unknown } => typeof v === 'object' && v !== null && 'write' in v && 'name' in v)
      expect(formats.length, `${file} declares ${formats.length} formats`).toBeLessThanOrEqual(1)
      for (const f of formats) {
        expect(file, f.name).toBe(`${f.name}.ts`)
        expect(exportFormats[f.name as keyof typeof exportFormats], f.name).toBe(f)
        seen.set(f.name, file)
      }
    }
    expect([...seen.keys()].sort()).toEqual(Object.keys(exportFormats).sort())
  })
})
