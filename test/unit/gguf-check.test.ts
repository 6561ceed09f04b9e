/**
 * Bad model files leave nothing behind and say why. Thirteen kinds of bad GGUF file, made from the
 * tiny-GGUF writer (test/helpers/gguf), go to the one check (main/llm/gguf-check.ts), to the model
 * registry (models.add), and to the command line (`model add`, `model trainable`: every kind through
 * main/cli.ts's own entry in the test's process, and a bad file through each command as its own process,
 * which prints the same): every one is refused with the same named cause and nothing is registered. An
 * F16 model is a good policy model (registered) but refused for training, by name.
 */
import { spawn } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { checkGgufFile } from '../../main/llm/gguf-check'
import { ModelFileError } from '../../main/llm/errors'
import { fixtureDir, writeTinyLlama } from '../helpers/gguf'
import { cliInProcess } from '../helpers/cli-in-process'
import { startBackend, type TestBackend } from '../helpers/services'

const ROOT = join(import.meta.dirname, '..', '..')
const tmp = fixtureDir('harness-lab-gguf-check-')

interface Bad {
  kind: string
  file: string
  /** The named cause, as every path gives it. */
  reason: RegExp
  /** Refused only for training (a good model otherwise). */
  trainingOnly?: true
}

/** The byte offset of a tensor's entry in the header, just after its name: [n_dims u32][dims u64...][type u32][offset u64]. */
function tensorEntry(bytes: Buffer, name: string): number {
  const at = bytes.indexOf(Buffer.from(name, 'latin1'))
  if (at < 8) throw new Error(`no tensor ${name}`)
  return at + name.length
}

function makeBadFiles(): Bad[] {
  const good = writeTinyLlama(join(tmp.dir, 'good.gguf'), { layers: 1, weightType: 'F32' })
  const bytes = readFileSync(good.file)
  const size = bytes.length
  const write = (name: string, data: Buffer | string): string => {
    const file = join(tmp.dir, `${name}.gguf`)
    writeFileSync(file, data)
    return file
  }
  const patched = (name: string, patch: (b: Buffer) => void): string => {
    const copy = Buffer.from(bytes)
    patch(copy)
    return write(name, copy)
  }
  const embd = tensorEntry(bytes, 'token_embd.weight')
  const dims = bytes.readUInt32LE(embd)
  const typeAt = embd + 4 + 8 * dims
  const range = /needs bytes \d+\.\.\d+/.source
  return [
    { kind: 'F16 weights', file: writeTinyLlama(join(tmp.dir, 'f16.gguf'), { layers: 1, weightType: 'F16' }).file, reason: /^tensor token_embd\.weight is F16: training needs F32/, trainingOnly: true },
    { kind: 'truncated to half', file: write('half', bytes.subarray(0, Math.floor(size / 2))), reason: new RegExp(`^truncated at byte ${Math.floor(size / 2)}: tensor \\S+ ${range}`) },
    { kind: 'truncated by one byte', file: write('minus-one', bytes.subarray(0, size - 1)), reason: new RegExp(`^truncated at byte ${size - 1}: tensor output\\.weight needs bytes \\d+\\.\\.${size - 1}`) },
    { kind: 'truncated in the header', file: write('header-cut', bytes.subarray(0, 64)), reason: new RegExp(`^truncated at byte 64: .+ ${range}`) },
    { kind: 'a text file', file: write('text', 'These are my notes about models, not a model.\n'), reason: /not a GGUF file \(it looks like text\)/ },
    { kind: 'empty', file: write('empty', ''), reason: /model file is empty \(0 bytes\)/ },
    { kind: 'zeros', file: write('zeros', Buffer.alloc(4096)), reason: /not a GGUF file \(it starts with 00 00 00 00, not "GGUF"\)/ },
    { kind: 'a dimension of 2^40', file: patched('dims-2-40', (b) => b.writeBigUInt64LE(2n ** 40n, embd + 4)), reason: /^tensor token_embd\.weight claims dimensions 1099511627776 x \d+ \(\d+ bytes\), more than the whole file/ },
    { kind: 'a tensor count of 2^60', file: patched('tensors-2-60', (b) => b.writeBigUInt64LE(2n ** 60n, 8)), reason: /GGUF header is corrupt: tensor count is 1152921504606846976, impossible in a file of \d+ bytes/ },
    { kind: 'a metadata count of 2^60', file: patched('keys-2-60', (b) => b.writeBigUInt64LE(2n ** 60n, 16)), reason: /GGUF header is corrupt: metadata count is 1152921504606846976, impossible/ },
    { kind: 'a key length of 2^62', file: patched('key-2-62', (b) => b.writeBigUInt64LE(2n ** 62n, 24)), reason: /GGUF header is corrupt: metadata key 0 length is 4611686018427387904, impossible/ },
    { kind: 'tensor type 999', file: patched('type-999', (b) => b.writeUInt32LE(999, typeAt)), reason: /^unknown tensor type 999 in tensor token_embd\.weight/ },
    { kind: 'GGUF version 99', file: patched('version-99', (b) => b.writeUInt32LE(99, 4)), reason: /GGUF version 99 is not supported \(expected 2 or 3\)/ },
  ]
}

type Outcome = { code: number | null; stdout: string; stderr: string }

function cli(args: string[], dataDir: string): Promise<Outcome> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'main', 'cli.ts'), '--data-dir', dataDir, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, HARNESS_LAB_DATA_DIR: '' } })
  let stdout = ''
  let stderr = ''
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d))
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d))
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stdout, stderr })))
}

describe('bad GGUF files', () => {
  const bad = makeBadFiles()
  let backend: TestBackend
  beforeAll(async () => {
    backend = await startBackend(join(tmp.dir, 'data'))
  }, 600_000)
  afterAll(async () => {
    await backend?.close()
    tmp.cleanup()
  })

  it('thirteen kinds, each a named cause from the one check', async () => {
    expect(bad).toHaveLength(13)
    for (const b of bad) {
      const training = await checkGgufFile(b.file, { forTraining: true }).then(() => null, (e: unknown) => e)
      expect(training, b.kind).toBeInstanceOf(ModelFileError)
      expect((training as Error).message, b.kind).toMatch(b.reason)
      const plain = await checkGgufFile(b.file, { forTraining: false }).then(() => null, (e: unknown) => e as Error)
      if (b.trainingOnly) expect(plain, b.kind).toBeNull()
      else expect(plain?.message, b.kind).toBe((training as Error).message)
    }
    // The good file passes both.
    await expect(checkGgufFile(join(tmp.dir, 'good.gguf'), { forTraining: true })).resolves.toMatchObject({ version: 3 })
  })

  it('the registry refuses each with its cause and registers nothing', async () => {
    for (const b of bad.filter((x) => !x.trainingOnly)) {
      await expect(backend.call('models.add', { path: b.file }), b.kind).rejects.toThrow(b.reason)
    }
    expect(await backend.call('models.list', {})).toEqual([])
  })

  it('`model add` and `model trainable` refuse each with the same cause; only the F16 policy model is registered', async () => {
    const dataDir = join(tmp.dir, 'cli-data')
    // Every kind through the command line's own entry (main/cli.ts) in this process, one command at a time.
    const results: Array<{ b: Bad; add: Outcome; trainable: Outcome }> = []
    for (const b of bad) results.push({ b, add: await cliInProcess(dataDir, ['model', 'add', b.file]), trainable: await cliInProcess(dataDir, ['model', 'trainable', b.file]) })
    for (const { b, add, trainable } of results) {
      expect(trainable.code, `${b.kind}: ${trainable.stderr}`).toBe(1)
      expect(trainable.stderr, b.kind).toMatch(new RegExp(`^Not trainable: ${b.reason.source.replace(/^\^/, '')}`, 'm'))
      if (b.trainingOnly) {
        expect(add.code, `${b.kind}: ${add.stderr}`).toBe(0)
        continue
      }
      expect(add.code, `${b.kind}: ${add.stderr}`).toBe(1)
      expect(add.stderr, b.kind).toMatch(new RegExp(`^Error: ${b.reason.source.replace(/^\^/, '')}`, 'm'))
    }
    // And as their own processes (`npm run cli`): the same exit code and the same line on stderr for a bad file; the
    // registry as another process reads it holds the F16 model alone.
    const sample = results.find((r) => !r.b.trainingOnly)!
    const [add, trainable, list] = await Promise.all([cli(['model', 'add', sample.b.file], dataDir), cli(['model', 'trainable', sample.b.file], dataDir), cli(['--json', 'model', 'list'], dataDir)])
    expect([add.code, add.stderr], sample.b.kind).toEqual([1, sample.add.stderr])
    expect([trainable.code, trainable.stderr], sample.b.kind).toEqual([1, sample.trainable.stderr])
    const models = JSON.parse(list.stdout) as Array<{ path: string; role: string; quantization: string }>
    expect(models.map((m) => [m.path, m.role])).toEqual([[bad[0]!.file, 'policy']])
  }, 600_000)
})
