/**
 * The command line's own entry (main/cli.ts) run inside the test's process: the same module, the same
 * commander program and the same error handling as `npm run cli`, without a process's start (some 4-5 s
 * of CPU importing the app's dependencies under tsx). Each call evaluates a fresh copy of main/cli.ts with
 * `args` as the process's arguments; what it prints with console.log / console.error is its stdout /
 * stderr, and its exit code is what it passes to process.exit (its error path) or leaves in
 * process.exitCode (0 when neither). For a test about the outcome of many commands, where the process
 * boundary itself is asserted on a real process (cliOutcome in ./cli) elsewhere.
 */
import { format } from 'node:util'
import { Command } from 'commander'
import { vi } from 'vitest'
import { CLI_ENTRY } from './cli'

export interface InProcessOutcome {
  code: number
  stdout: string
  stderr: string
}

let runs = 0

/** Runs one command on `dataDir` to its end, in this process, one at a time (it swaps process.argv). */
export async function cliInProcess(dataDir: string, args: string[]): Promise<InProcessOutcome> {
  const argv = process.argv
  const exitCode = process.exitCode
  let stdout = ''
  let stderr = ''
  let exited: number | undefined
  const log = vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void (stdout += `${format(...a)}\n`))
  const error = vi.spyOn(console, 'error').mockImplementation((...a: unknown[]) => void (stderr += `${format(...a)}\n`))
  const exit = vi.spyOn(process, 'exit').mockImplementation(((code?: number) => void (exited ??= code ?? 0)) as typeof process.exit)
  const parse = vi.spyOn(Command.prototype, 'parseAsync')
  process.argv = [process.execPath, CLI_ENTRY, '--data-dir', dataDir, ...args]
  process.exitCode = undefined
  try {
    await import(/* @vite-ignore */ `${CLI_ENTRY}?in-process=${++runs}`)
    if (parse.mock.results.length !== 1) throw new Error(`main/cli.ts parsed its arguments ${parse.mock.results.length} times, not once`)
    // The entry's own catch (which prints the error line and exits 1) was attached first, so it has run when this settles.
    await (parse.mock.results[0]!.value as Promise<unknown>).catch(() => undefined)
    await new Promise((r) => setImmediate(r))
    return { code: exited ?? Number(process.exitCode ?? 0), stdout, stderr }
  } finally {
    process.argv = argv
    process.exitCode = exitCode
    parse.mockRestore()
    exit.mockRestore()
    error.mockRestore()
    log.mockRestore()
  }
}
