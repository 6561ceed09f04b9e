/**
 * Exports leave nothing behind and write through no symlink: a `.partial` left by an export killed with
 * SIGKILL is removed by the next start of the backend and by the next export of the same file, and
 * `runs export --out FILE` refuses a symlink at `FILE.partial` as the API does (its target untouched).
 */
import { execFile } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import { Command } from 'commander'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cliContext } from '../../main/cli/context'
import { registerRunCommands } from '../../main/cli/runs'
import { writeExport } from '../../main/exports'
import { defaultIngestOptions, runIngest } from '../../main/ingest/run'
import { quiet } from '../helpers/corpus'
import { startBackend, tempDir } from '../helpers/services'

const run = promisify(execFile)
const ROOT = join(import.meta.dirname, '..', '..')
const url = (p: string) => JSON.stringify(pathToFileURL(join(ROOT, p)).href)

describe('export files', () => {
  const tmp = tempDir('harness-lab-partials-')
  const dataDir = join(tmp.dir, 'data')
  let workspaceId: string
  let exportsDir: string

  beforeAll(async () => {
    const backend = await startBackend(dataDir)
    workspaceId = (await backend.call('workspace.create', { name: 'exports' })).id
    const { raw } = await backend.services.workspaces.handle(workspaceId)
    await runIngest(raw, { kind: 'demo', seed: 3, size: 0.1 }, defaultIngestOptions(), quiet)
    exportsDir = join(dirname(await backend.services.workspaces.databaseFile(workspaceId)), 'exports')
    await backend.close()
  }, 600_000)
  afterAll(() => tmp.cleanup())

  /** Exports question set 1 as Parquet to `file` in a child process that SIGKILLs itself once the bytes are written, before the rename. */
  const killedExport = async (file: string): Promise<void> => {
    const code = `
      const { createServices } = await import(${url('main/app/services.ts')})
      const { writeExport } = await import(${url('main/exports/index.ts')})
      const services = await createServices({ dataDir: ${JSON.stringify(dataDir)}, worker: (await import(${url('main/job-kinds/source-entry.ts')})).sourceWorkerEntry() })
      const { raw } = await services.workspaces.handle(${JSON.stringify(workspaceId)})
      await writeExport(raw, { source: 'questions', questionSetId: 1, format: 'questions-verl-parquet' }, ${JSON.stringify(file)}, { progress: () => process.kill(process.pid, 'SIGKILL') })
      process.stdout.write('finished')`
    const exit = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { cwd: ROOT }).catch((err: { signal?: string; stdout?: string }) => err)
    expect(exit).toMatchObject({ signal: 'SIGKILL', stdout: '' })
  }

  it('a start of the backend removes what an export killed mid-way left in the exports folder', async () => {
    mkdirSync(exportsDir, { recursive: true })
    const file = join(exportsDir, 'questions-1-verl-killed.parquet')
    await killedExport(file)
    expect(readdirSync(exportsDir)).toEqual(['questions-1-verl-killed.parquet.partial'])
    const restarted = await startBackend(dataDir)
    try {
      expect(readdirSync(exportsDir)).toEqual([])
    } finally {
      await restarted.close()
    }
  }, 600_000)

  it('the next export of the same file replaces the debris and completes', async () => {
    const folder = join(tmp.dir, 'elsewhere')
    mkdirSync(folder)
    const file = join(folder, 'questions.parquet')
    await killedExport(file)
    expect(existsSync(`${file}.partial`)).toBe(true)
    const backend = await startBackend(dataDir)
    try {
      const { raw } = await backend.services.workspaces.handle(workspaceId)
      const r = await writeExport(raw, { source: 'questions', questionSetId: 1, format: 'questions-verl-parquet' }, file)
      expect(r.rows).toBeGreaterThan(0)
      expect(readFileSync(file).subarray(0, 4).toString()).toBe('PAR1')
      expect(readdirSync(folder)).toEqual(['questions.parquet'])
    } finally {
      await backend.close()
    }
  }, 600_000)

  it('runs export --out refuses a symlink at FILE.partial and leaves its target alone; so does every export', async () => {
    const victim = join(tmp.dir, 'victim.txt')
    writeFileSync(victim, 'keep me')
    const out = join(tmp.dir, 'results.csv')
    symlinkSync(victim, `${out}.partial`)
    const program = new Command().option('-d, --data-dir <dir>').option('--json').exitOverride()
    registerRunCommands(cliContext(program))
    await expect(program.parseAsync(['--data-dir', dataDir, 'runs', 'export', workspaceId, '1', '--out', out], { from: 'user' })).rejects.toThrow(`Refused to write ${out}.partial: it is a symbolic link`)
    expect(readFileSync(victim, 'utf8')).toBe('keep me')
    expect(existsSync(out)).toBe(false)
    // The file sink itself refuses too, whoever calls it.
    const backend = await startBackend(dataDir)
    try {
      const { raw } = await backend.services.workspaces.handle(workspaceId)
      await expect(writeExport(raw, { source: 'questions', questionSetId: 1, format: 'questions-verl-jsonl' }, out)).rejects.toThrow(/symbolic link/)
      expect(readFileSync(victim, 'utf8')).toBe('keep me')
    } finally {
      await backend.close()
    }
  }, 600_000)
})
