/** The command line as `npm run cli` runs it (its own process, under tsx) over a test's data folder, and real services on that folder between commands. */
import { execFile } from 'node:child_process'
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
