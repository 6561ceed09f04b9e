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
    worker: { sourceEntry: new URL('./job-kinds/worker.ts', import.meta.url) },
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

/** Starts an ingest job, prints its progress, and waits for it. */
async function ingestAndWait(
  call: <R extends RouteName>(route: R, input: RouteInput<R>) => Promise<RouteOutput<R>>,
  services: Services,
  workspaceId: string,
  params: Extract<RouteInput<'job.start'>, { kind: 'corpus.ingest' }>['params'],
): Promise<void> {
  let last = ''
  const off = services.events.subscribe((name, payload) => {
    if (name !== 'job.progress' || json()) return
    const p = payload as { progress: number; stage: string; message: string }
    const line = `${(p.progress * 100).toFixed(0).padStart(3)}%  ${p.stage}  ${p.message}`
    if (line !== last) console.log((last = line))
  })
  const started = await call('job.start', { kind: 'corpus.ingest', workspaceId, params })
  const done = await services.jobs.waitFor(started.id)
  off()
  const failures = (done.kind === 'corpus.ingest' ? (done.result?.failures ?? []) : []).map((f) => `  failed: ${f.error ?? f.label}`)
  print(done, [`${done.status}: ${done.error ?? done.message}`, ...failures].join('\n'))
  if (done.status !== 'done') process.exitCode = 1
}

const corpus = program.command('corpus').description('ingest, inspect and search a workspace corpus')
corpus
  .command('demo <name>')
  .description('create a workspace holding the demo world (a fictional encyclopedia with questions)')
  .option('--seed <n>', 'generator seed', '1')
  .option('--size <x>', 'world size (1 is about 90 articles)', '1')
  .action((name: string, o: { seed: string; size: string }) =>
    withApi(async (call, services) => {
      const w = await call('workspace.create', { name })
      if (!json()) console.log(`Created workspace "${w.name}" (${w.id})`)
      await ingestAndWait(call, services, w.id, { source: { kind: 'demo', seed: Number(o.seed), size: Number(o.size) } })
    }),
  )
corpus
  .command('ingest <workspaceId>')
  .description('ingest a folder, files, a benchmark or the demo world')
  .option('--folder <path>', 'a folder of txt/md/html/pdf/docx/json/jsonl files')
  .option('--file <path...>', 'one or more files')
  .option('--benchmark <kind>', 'hotpotqa | 2wikimultihopqa | musique | flashrag')
  .option('--questions <file>', 'benchmark questions file')
  .option('--corpus <file>', 'benchmark corpus file')
  .option('--demo', 'the demo world')
  .option('--seed <n>', 'demo world seed', '1')
  .option('--size <x>', 'demo world size', '1')
  .option('--chunk-tokens <n>', 'chunk size in cl100k tokens', '1200')
  .option('--overlap-tokens <n>', 'chunk overlap in tokens', '100')
  .action((workspaceId: string, o: Record<string, string | string[] | boolean | undefined>) =>
    withApi(async (call, services) => {
      const source = o.demo
        ? { kind: 'demo' as const, seed: Number(o.seed), size: Number(o.size) }
        : o.folder
          ? { kind: 'folder' as const, path: String(o.folder) }
          : o.file
            ? { kind: 'files' as const, paths: o.file as string[] }
            : o.benchmark
              ? {
                  kind: 'benchmark' as const,
                  benchmark: String(o.benchmark) as 'hotpotqa',
                  ...(o.questions ? { questionsFile: String(o.questions) } : {}),
                  ...(o.corpus ? { corpusFile: String(o.corpus) } : {}),
                }
              : null
      if (!source) throw new Error('say what to ingest: --folder, --file, --benchmark or --demo')
      await ingestAndWait(call, services, workspaceId, { source, chunkTokens: Number(o.chunkTokens), overlapTokens: Number(o.overlapTokens) })
    }),
  )
corpus.command('stats <workspaceId>').action((workspaceId: string) =>
  withApi(async (call) => {
    const s = await call('corpus.stats', { workspaceId })
    print(s, Object.entries(s).map(([k, v]) => `${k.padEnd(16)} ${typeof v === 'object' ? JSON.stringify(v) : v}`).join('\n'))
  }),
)
corpus
  .command('search <workspaceId> <query>')
  .option('-k <n>', 'results', '10')
  .option('--mode <mode>', 'bm25 | dense | hybrid', 'bm25')
  .action((workspaceId: string, query: string, o: { k: string; mode: string }) =>
    withApi(async (call) => {
      const r = await call('corpus.search', { workspaceId, query, k: Number(o.k), mode: o.mode as 'bm25' })
      const plain = (s: string): string => s.replace(/\u0001/g, '[').replace(/\u0002/g, ']')
      print(r, r.hits.map((h) => `${String(h.rank).padStart(3)}. ${h.title}  (chunk ${h.chunkId}, ${h.score.toFixed(2)})\n     ${plain(h.snippet)}`).join('\n') || 'No results')
    }),
  )

const model = program.command('model').description('register and inspect local GGUF models')
model.command('list').action(() =>
  withApi(async (call) => {
    const list = await call('models.list', {})
    print(list, list.map((m) => `${m.id}  ${m.role.padEnd(9)} ${m.name}  ${m.architecture ?? '?'}  ${m.quantization ?? ''}  ${m.path}`).join('\n') || 'No models registered')
  }),
)
model
  .command('add <path>')
  .description('register a GGUF file (inspected, not loaded)')
  .option('--role <role>', 'policy | embedding | adapter (default: from the file)')
  .action((path: string, o: { role?: 'policy' | 'embedding' | 'adapter' }) =>
    withApi(async (call) => {
      const m = await call('models.add', { path, ...(o.role ? { role: o.role } : {}) })
      print(m, `Registered ${m.name} (${m.id}): ${m.architecture ?? '?'}, ${m.parameterCount.toLocaleString()} parameters, ${m.quantization ?? ''}, context ${m.contextLength ?? '?'}, sha256 ${m.sha256.slice(0, 12)}`)
    }),
  )
model.command('remove <id>').action((id: string) =>
  withApi(async (call) => {
    await call('models.remove', { id })
    print({ removed: true }, 'Removed (the file is left alone)')
  }),
)
model
  .command('download <uri>')
  .description('download by hf: or https:// URI into the data folder and register it (needs internet)')
  .action((uri: string) =>
    withApi(async (call, services) => {
      const started = await call('job.start', { kind: 'model.download', params: { uri } })
      const done = await services.jobs.waitFor(started.id)
      print(done, `${done.status}: ${done.error ?? done.message}`)
      if (done.status !== 'done') process.exitCode = 1
    }),
  )

program.parseAsync().catch((err: unknown) => {
  console.error(`Error: ${err instanceof Error ? err.message : String(err)}`)
  process.exit(1)
})
