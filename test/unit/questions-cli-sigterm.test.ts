/**
 * `questions import` stops on SIGTERM while it reads a large file: the file is read by a
 * questions.import job in a worker thread, so the CLI's main thread is idle and the signal ends the
 * process at once, and nothing is written (a set is written whole or not at all). The file the CLI
 * staged for its job is removed by the next import.
 */
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { existsSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { ownerFiles } from '../../main/jobs/owner-lock'
import { startBackend, tempDir } from '../helpers/services'

const ROOT = join(import.meta.dirname, '..', '..')

describe('questions import on SIGTERM', () => {
  const tmp = tempDir('harness-lab-qsig-')
  afterAll(() => tmp.cleanup())

  it('ends the CLI mid-import and writes no set', async () => {
    const dataDir = join(tmp.dir, 'data')
    const backend = await startBackend(dataDir)
    const workspaceId = (await backend.call('workspace.create', { name: 'sigterm' })).id
    await backend.close()
    const file = join(tmp.dir, 'big.jsonl')
    const rows: string[] = []
    for (let i = 0; i < 100_000; i++) rows.push(JSON.stringify({ id: `q${i}`, question: `Which river flows through Example ${i}?`, answers: [`River ${i}`], supporting_facts: [[`Example ${i}`, 0]] }))
    writeFileSync(file, `${rows.join('\n')}\n`)

    const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'main', 'cli.ts'), '--data-dir', dataDir, 'questions', 'import', workspaceId, file, '--name', 'big'], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, HARNESS_LAB_DATA_DIR: '' },
    })
    const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>
    let stdout = ''
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d))
    // The CLI registers as a job owner once its services are up, then stages the file for its import job.
    const record = ownerFiles(dataDir, child.pid!).record
    const uploads = join(dataDir, 'uploads', 'questions')
    const staged = (): boolean => existsSync(uploads) && readdirSync(uploads).length > 0
    while (!(existsSync(record) && staged()) && child.exitCode === null) await new Promise((r) => setTimeout(r, 20))
    child.kill('SIGTERM')
    const [code, signal] = await exited
    expect(signal === 'SIGTERM' || code !== 0).toBe(true)
    expect(stdout).not.toContain('Question set #')

    const after = await startBackend(dataDir)
    try {
      expect(await after.call('questions.sets', { workspaceId })).toEqual([])
      expect(staged()).toBe(true)
      await after.call('questions.import', { workspaceId, name: 'small', content: '{"question": "Who?", "answer": "me"}\n', fileName: 'small.jsonl' })
      expect(staged()).toBe(false)
    } finally {
      await after.close()
    }
  }, 600_000)
})
