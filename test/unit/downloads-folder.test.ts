/** A folder export (FlashRAG, one file per split) downloads as a ZIP of its regular files, only from inside the data folder. */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import JSZip from 'jszip'
import { afterAll, describe, expect, it } from 'vitest'
import { zippedFolder } from '../../main/adapters/downloads'

describe('folder downloads', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'harness-lab-dlfolder-'))
  afterAll(() => rmSync(tmp, { recursive: true, force: true }))

  it('zips the files of a folder inside the roots, leaving out links and subfolders; refuses anything else', async () => {
    const data = join(tmp, 'data')
    const folder = join(data, 'questions-1-flashrag')
    mkdirSync(join(folder, 'sub'), { recursive: true })
    writeFileSync(join(folder, 'train.jsonl'), '{"id":"a"}\n')
    writeFileSync(join(folder, 'dev.jsonl'), '{"id":"b"}\n')
    writeFileSync(join(tmp, 'secret.txt'), 'secret')
    symlinkSync(join(tmp, 'secret.txt'), join(folder, 'link.jsonl'))
    const zipped = await zippedFolder(folder, [data])
    expect(zipped?.name).toBe('questions-1-flashrag.zip')
    const zip = await JSZip.loadAsync(zipped!.bytes)
    expect(Object.keys(zip.files).sort()).toEqual(['dev.jsonl', 'train.jsonl'])
    expect(await zip.file('train.jsonl')!.async('string')).toBe('{"id":"a"}\n')
    expect(await zippedFolder(folder, [join(tmp, 'elsewhere')])).toBeNull()
    expect(await zippedFolder(join(folder, 'train.jsonl'), [data])).toBeNull()
    expect(await zippedFolder(join(data, 'missing'), [data])).toBeNull()
  })
})
