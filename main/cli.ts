/** Command line over the same services and API contract (`npm run cli -- workspace list`). */
import { Command } from 'commander'
import type { RouteInput, RouteName, RouteOutput } from '../preload/contract'
import { dispatch } from './api/dispatch'
import { createHandlers } from './api/handlers'
import { createServices, type Services } from './app/services'
import { DATA_DIR_ENV, resolveDataDir } from './config/paths'

const program = new Command().name('harness-lab').description('Harness Lab command line').option('-d, --data-dir <dir>', `data folder (default: $${DATA_DIR_ENV} or the OS app-data folder)`).option('--json', 'print JSON')

async function withApi<T>(fn: (call: <R extends RouteName>(route: R, input: RouteInput<R>) => Promise<RouteOutput<R>>, services: Services) => Promise<T>): Promise<T> {
  const services = await createServices({
    dataDir: resolveDataDir(program.opts<{ dataDir?: string }>().dataDir),
    // The CLI runs from source under tsx, so its job threads do too.
    worker: { sourceEntry: new URL('./jobs/worker.ts', import.meta.url) },
  })
  const handlers = createHandlers(services, { mode: 'cli' })
  const call = async <R extends RouteName>(route: R, input: RouteInput<R>): Promise<RouteOutput<R>> => {
    const env = await dispatch(handlers, route, input)
    if (!env.ok) throw new Error(`${env.error.message}${env.error.issues ? `\n  ${env.error.issues.join('\n  ')}` : ''}`)
    return env.data as RouteOutput<R>
  }
  try {
    return await fn(call, services)
  } finally {
    await services.close()
  }
}

const json = (): boolean => program.opts<{ json?: boolean }>().json === true
const print = (value: unknown, text: string): void => console.log(json() ? JSON.stringify(value, null, 2) : text)

const workspace = program.command('workspace').description('manage workspaces')
workspace.command('list').action(() =>
  withApi(async (call) => {
    const list = await call('workspace.list', {})
    print(list, list.length === 0 ? 'No workspaces yet. Create one: npm run cli -- workspace create NAME' : list.map((w) => `${w.id}  ${w.name}`).join('\n'))
  }),
)
workspace.command('create <name>').action((name: string) =>
  withApi(async (call) => {
    const w = await call('workspace.create', { name })
    print(w, `Created workspace "${w.name}" (${w.id})`)
  }),
)
workspace.command('rename <id> <name>').action((id: string, name: string) =>
  withApi(async (call) => {
    const w = await call('workspace.rename', { id, name })
    print(w, `Renamed to "${w.name}"`)
  }),
)
workspace
  .command('delete <id>')
  .requiredOption('--confirm <name>', "the workspace's exact name, to confirm")
  .action((id: string, o: { confirm: string }) =>
    withApi(async (call) => {
      await call('workspace.delete', { id, confirmName: o.confirm })
      print({ deleted: true }, 'Deleted')
    }),
  )

const job = program.command('job').description('run and inspect jobs')
job
  .command('maintenance <workspaceId>')
  .description('integrity check and vacuum of a workspace database; waits for it and prints progress')
  .option('--no-vacuum', 'skip VACUUM')
  .action((workspaceId: string, o: { vacuum: boolean }) =>
    withApi(async (call, services) => {
      const off = services.events.subscribe((name, payload) => {
        if (name === 'job.progress' && !json()) {
          const p = payload as { progress: number; stage: string; message: string }
          console.log(`${(p.progress * 100).toFixed(0).padStart(3)}%  ${p.stage}  ${p.message}`)
        }
      })
      const started = await call('job.start', { kind: 'db.maintenance', workspaceId, params: { vacuum: o.vacuum } })
      const done = await services.jobs.waitFor(started.id)
      off()
      print(done, `${done.status}: ${done.error ?? done.message}`)
      if (done.status !== 'done') process.exitCode = 1
    }),
  )
job.command('list').option('-w, --workspace <id>').action((o: { workspace?: string }) =>
  withApi(async (call) => {
    const jobs = await call('job.list', { workspaceId: o.workspace, limit: 50 })
    print(jobs, jobs.map((j) => `${j.id}  ${j.kind}  ${j.status}  ${(j.progress * 100).toFixed(0)}%  ${j.error ?? j.message}`).join('\n') || 'No jobs')
  }),
)

program.parseAsync().catch((err: unknown) => {
  console.error(`Error: ${err instanceof Error ? err.message : String(err)}`)
  process.exit(1)
})
