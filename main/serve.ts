/** Browser mode entry (`npm run serve`): the workbench UI and API on loopback for headless machines. */
import { fileURLToPath } from 'node:url'
import { Command } from 'commander'
import { startBrowserServer } from './adapters/http-server'
import { createHandlers } from './api/handlers'
import { createServices } from './app/services'
import { DATA_DIR_ENV, resolveDataDir } from './config/paths'
import { sourceWorkerEntry } from './job-kinds/source-entry'

const program = new Command()
  .name('harness-lab serve')
  .description('Serve the Harness Lab workbench to a browser on this machine')
  .option('-p, --port <port>', 'port on 127.0.0.1 (0 picks a free one)', '7717')
  .option('--host <host>', 'loopback address to bind (127.0.0.1, ::1 or localhost)', '127.0.0.1')
  .option('-d, --data-dir <dir>', `data folder (default: $${DATA_DIR_ENV} or the OS app-data folder)`)
  .parse()

const opts = program.opts<{ port: string; host: string; dataDir?: string }>()

async function main(): Promise<void> {
  const port = Number(opts.port)
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be an integer 0-65535, got ${opts.port}`)
  const dataDir = resolveDataDir(opts.dataDir)
  // Built (out/main/serve.js), jobs run the built worker; run from source under tsx (`tsx main/serve.ts`: the API without a renderer build), the source worker.
  const fromSource = import.meta.url.endsWith('.ts')
  const services = await createServices({ dataDir, worker: fromSource ? sourceWorkerEntry() : { url: new URL('./job-worker.js', import.meta.url) } })
  const handlers = createHandlers(services, { mode: 'browser' })
  const server = await startBrowserServer({
    handlers,
    events: services.events,
    rendererDir: fileURLToPath(new URL('../renderer', import.meta.url)),
    port,
    host: opts.host,
  })
  console.log(`Harness Lab ${services.version} (browser mode), data in ${dataDir}`)
  console.log(`Open this URL (the token is new at every launch):\n  ${server.url}`)
  console.log('Press Ctrl+C to stop.')
  let stopping = false
  const stop = async (): Promise<void> => {
    if (stopping) return
    stopping = true
    await server.close()
    await services.close()
    process.exit(0)
  }
  process.on('SIGINT', () => void stop())
  process.on('SIGTERM', () => void stop())
}

main().catch((err: unknown) => {
  const e = err as NodeJS.ErrnoException
  console.error(e.code === 'EADDRINUSE' ? `Port ${opts.port} is in use: pass --port with another one (or 0).` : `Could not start: ${e.message}`)
  process.exit(1)
})
