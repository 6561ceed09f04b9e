/** What every command group shares: the API over the same services, --json, progress lines, waiting for a job. */
import type { Command } from 'commander'
import type { Job, RouteInput, RouteName, RouteOutput } from '../../preload/contract'
import { dispatch } from '../api/dispatch'
import { createHandlers } from '../api/handlers'
import { createServices, type Services } from '../app/services'
import { resolveDataDir } from '../config/paths'
import { storageClause, storageFailureOf, storageRemedy } from '../db/storage-error'
import { sourceWorkerEntry } from '../job-kinds/source-entry'

export type Call = <R extends RouteName>(route: R, input: RouteInput<R>) => Promise<RouteOutput<R>>

/** A job that ended on a storage failure (a full disk, a read-only folder): its message is the one line the command prints. */
export class StorageFailure extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'StorageFailure'
  }
}

export interface Cli {
  program: Command
  /** The data folder this command works in. */
  dataDir(): string
  /** `npm run cli -- [--data-dir D] [--json] <args>`: a command line that runs `args` on this data folder. */
  command(args: string[]): string
  /** Runs `fn` with the validated API and the services, closing them afterwards. */
  withApi<T>(fn: (call: Call, services: Services) => Promise<T>): Promise<T>
  json(): boolean
  /** `value` as JSON under --json, else `text`. */
  print(value: unknown, text: string): void
  /**
   * Starts a job, prints its progress lines (not under --json; on stderr with `stderr`) and waits for
   * it. Ctrl-C cancels the job (it stops at its next checkpoint) instead of killing the process. A job
   * that ends on a storage failure throws StorageFailure, whose one line names the folder, its free
   * space and the command that continues: `resume` (the job's arguments; default: this command again).
   */
  runJob(call: Call, services: Services, input: RouteInput<'job.start'>, options?: { stderr?: boolean; resume?: (job: Job) => Promise<string[] | undefined> }): Promise<Job>
}

/** This command's own arguments: the process's, less the global options `command()` puts back. */
export function ownArgs(): string[] {
  const out: string[] = []
  const argv = process.argv.slice(2)
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!
    if (a === '--data-dir' || a === '-d') i++
    else if (!a.startsWith('--data-dir=') && a !== '--json') out.push(a)
  }
  return out
}

/** Arguments as a shell line: each quoted when it holds anything but plain characters. */
const shellLine = (args: string[]): string => args.map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, "'\\''")}'`)).join(' ')

export function cliContext(program: Command): Cli {
  const json = (): boolean => program.opts<{ json?: boolean }>().json === true
  const dataDir = (): string => resolveDataDir(program.opts<{ dataDir?: string }>().dataDir)
  const command = (args: string[]): string => {
    const given = program.opts<{ dataDir?: string }>().dataDir
    return `npm run cli -- ${shellLine([...(given ? ['--data-dir', given] : []), ...(json() ? ['--json'] : []), ...args])}`
  }
  const withApi: Cli['withApi'] = async (fn) => {
    const services = await createServices({
      dataDir: dataDir(),
      // The CLI runs from source under tsx, so its job threads do too.
      worker: sourceWorkerEntry(),
      // A command runs its own job; a job another process queued and left is failed with the reason, not run here first.
      adoptOrphans: false,
    })
    const handlers = createHandlers(services, { mode: 'cli' })
    // A command that works in a workspace opens it, as the app does: "Last opened" then tells the truth after CLI use.
    const opened = new Set<string>()
    const call: Call = async (route, input) => {
      const env = await dispatch(handlers, route, input)
      if (!env.ok) throw new Error(`${env.error.message}${env.error.issues ? `\n  ${env.error.issues.join('\n  ')}` : ''}`)
      const workspaceId = (input as { workspaceId?: unknown } | undefined)?.workspaceId
      if (typeof workspaceId === 'string' && !opened.has(workspaceId)) {
        opened.add(workspaceId)
        await services.workspaces.open(workspaceId)
      }
      return env.data as RouteOutput<typeof route>
    }
    try {
      return await fn(call, services)
    } finally {
      await services.close()
    }
  }
  const runJob: Cli['runJob'] = async (call, services, input, options = {}) => {
    let last = ''
    let jobId: string | undefined
    let waited = ''
    const say = options.stderr ? (line: string) => console.error(line) : (line: string) => console.log(line)
    // While the job waits in the queue (behind a job of this data folder, in this process or another), say why, on stderr, also under --json.
    const place = (job: Job): void => {
      if (job.status === 'queued' && job.queue) {
        const line = `Waiting: job ${job.id} (${job.kind}) is number ${job.queue.position} in the queue, for ${job.queue.waitingFor}; it starts when that ends, whichever process runs it`
        if (line !== waited) console.error((waited = line))
      } else if (job.status === 'running' && waited !== '') {
        console.error(`Started: job ${job.id} (${job.kind}) after waiting in the queue`)
        waited = ''
      }
    }
    const off = services.events.subscribe((name, payload) => {
      if (name === 'job.status') {
        const job = payload as Job
        if (job.id === jobId) place(job)
        return
      }
      if (name !== 'job.progress' || (json() && !options.stderr)) return
      const p = payload as { jobId: string; progress: number; stage: string; message: string }
      if (jobId !== undefined && p.jobId !== jobId) return
      const line = `${(p.progress * 100).toFixed(0).padStart(3)}%  ${p.stage}  ${p.message}`
      if (line !== last) say((last = line))
    })
    const cancel = () => {
      if (jobId === undefined) return
      console.error('Cancelling: the job stops at its next checkpoint (Ctrl-C again to quit at once)')
      process.off('SIGINT', cancel)
      void call('job.cancel', { id: jobId }).catch(() => undefined)
    }
    // Never exit 0 without the job's result: should the event loop run dry while the job is unfinished, that is an error that says so.
    const unfinished = () => {
      console.error(`Error: job ${jobId ?? '(not yet queued)'} had not finished when the command ran out of work to wait on; it did not run here`)
      process.exitCode = 70
    }
    process.on('SIGINT', cancel)
    process.once('beforeExit', unfinished)
    try {
      const started = await call('job.start', input)
      jobId = started.id
      place(started)
      const ended = await services.jobs.waitFor(started.id)
      const storage = ended.status === 'failed' ? storageFailureOf(ended.error ?? '') : null
      if (storage) {
        const args = (await options.resume?.(ended).catch(() => undefined)) ?? ownArgs()
        const what = ended.error!.includes(services.dataDir) ? ended.error! : `${storageClause(storage, services.dataDir)}: ${ended.error}`
        throw new StorageFailure(`job ${ended.id} (${ended.kind}) failed: ${what}; ${storageRemedy(storage, command(args))}`)
      }
      return ended
    } finally {
      process.off('beforeExit', unfinished)
      process.off('SIGINT', cancel)
      off()
    }
  }
  return { program, dataDir, command, withApi, json, print: (value, text) => console.log(json() ? JSON.stringify(value, null, 2) : text), runJob }
}
