/** The command line as `npm run cli` runs it (its own process, under tsx) over a test's data folder, and real services on that folder between commands. */
import { execFile, spawn } from 'node:child_process'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { startBackend, type TestBackend } from './services'

const run = promisify(execFile)
export const ROOT = join(import.meta.dirname, '..', '..')
export const TSX = join(ROOT, 'node_modules', '.bin', 'tsx')
export const CLI_ENTRY = join(ROOT, 'main', 'cli.ts')

/** Runs one command on `dataDir` and resolves with its stdout (rejects when it exits non-zero). */
export const cliOn =
  (dataDir: string) =>
  async (...args: string[]): Promise<string> =>
    (await run(TSX, [CLI_ENTRY, '--data-dir', dataDir, ...args], { cwd: ROOT, maxBuffer: 64 << 20, env: { ...process.env, HARNESS_LAB_DATA_DIR: '' } })).stdout

/** Real services on `dataDir` for the length of `fn`, closed afterwards. */
export async function withBackend<T>(dataDir: string, fn: (b: TestBackend) => Promise<T>): Promise<T> {
  const b = await startBackend(dataDir)
  try {
    return await fn(b)
  } finally {
    await b.services.close()
  }
}

export interface CliOutcome {
  code: number | null
  stdout: string
  stderr: string
  /** Each stderr line with the ms from when it arrived to the exit. */
  stderrLines: { text: string; msBeforeExit: number }[]
}

/**
 * Runs one command on `dataDir` to its end and resolves with its exit code and output, whatever the
 * code; past `killAfterMs` it is killed (code null): a command that hangs fails the test that waits for it.
 */
export function cliOutcome(dataDir: string, args: string[], killAfterMs = 300_000): Promise<CliOutcome> {
  return new Promise((resolve) => {
    const child = spawn(TSX, [CLI_ENTRY, '--data-dir', dataDir, ...args], { cwd: ROOT, env: { ...process.env, HARNESS_LAB_DATA_DIR: '' } })
    let stdout = ''
    let stderr = ''
    const arrivals: { text: string; at: number }[] = []
    let partial = ''
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString()
      const parts = (partial + d.toString()).split('\n')
      partial = parts.pop()!
      for (const text of parts) arrivals.push({ text, at: Date.now() })
    })
    const timer = setTimeout(() => child.kill('SIGKILL'), killAfterMs)
    child.on('close', (code) => {
      clearTimeout(timer)
      const end = Date.now()
      if (partial) arrivals.push({ text: partial, at: end })
      resolve({ code, stdout, stderr, stderrLines: arrivals.map((a) => ({ text: a.text, msBeforeExit: end - a.at })) })
    })
  })
}
