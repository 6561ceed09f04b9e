/**
 * `npm run env-server -- --workspace W --port P [--host 127.0.0.1] [--token T] [--workers N]`: serves the
 * registered environments of one workspace to an external trainer (main/env-server). Runs from source
 * under tsx; stops on Ctrl-C (open episodes are dropped, stored runs are closed). `--db FILE` serves a
 * workspace database file directly (a copy on a cluster node): it is opened read-only unless `--store`
 * keeps episodes, so any number of servers can share one file.
 */
import { existsSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import type SQLite from 'better-sqlite3'
import { Command, InvalidArgumentError } from 'commander'
import { APP_VERSION } from '../main/config/version'
import { openDatabase, openSqlite } from '../main/db/open'
import { workspaceMigrations } from '../main/db/migrations'
import { createServices } from '../main/app/services'
import { DATA_DIR_ENV, resolveDataDir } from '../main/config/paths'
import { DEFAULT_IDLE_GC_EVERY, OPEN_ROUTE_GROUPS, startEnvServer, type OpenRoutes, type StoreMode } from '../main/env-server'
import { sourceWorkerEntry } from '../main/job-kinds/source-entry'
import { getSharedRuntime } from '../main/llm/llama-runtime'
import { createAnswerer } from '../main/policy/answerer'
import { rewardPreset, REWARD_PRESETS } from '../main/rl/reward-schemes'

const int = (name: string, min: number, max: number) => (v: string) => {
  const n = Number(v)
  if (!Number.isInteger(n) || n < min || n > max) throw new InvalidArgumentError(`${name} must be an integer in ${min}..${max}`)
  return n
}

const program = new Command()
  .name('env-server')
  .description('Serve Harness Lab environments over HTTP/JSON to an external RL trainer')
  .option('-w, --workspace <id-or-name>', 'the workspace whose corpus and questions the episodes use')
  .option('--db <file>', 'serve this workspace database file directly (read-only unless --store)')
  .option('--workers <n>', 'worker threads running episodes (0 = all in the HTTP thread)', int('workers', 0, 256), availableParallelism())
  .option('--inline <n>', 'with workers: a new episode runs in the HTTP thread while fewer than n episodes are open (0 = never)', int('inline', 0, 4096), 1)
  .option('-p, --port <port>', 'port (0 = any free port)', int('port', 0, 65535), 8765)
  .option('--host <host>', 'listen address; anything but loopback needs --token', '127.0.0.1')
  .option('--token <token>', 'bearer token every request must send (made at random when absent, loopback only)')
  .option('--open <groups>', `route groups served without the token, loopback only, comma-separated: retrieve (POST /retrieve: corpus search), openenv (/ws, /reset, /step, /state, /schema, /health, /metadata: episodes)`)
  .option('-d, --data-dir <dir>', `data folder (default: $${DATA_DIR_ENV} or the OS app-data folder)`)
  .option('--reward <preset>', `reward preset for every environment (${REWARD_PRESETS.map((p) => p.name).join(', ')}); default: by environment family`)
  .option('--credit <scheme>', 'credit scheme (outcome, snc, info-gain); default: snc for graph-menu, outcome otherwise')
  .option('--answerer <gguf>', 'GGUF model as the frozen answerer (SNC scores, answers); default: the lexical stand-in')
  .option('--store <mode>', 'keep trainer episodes as runs: off, sampled, all', 'off')
  .option('--store-rate <share>', "share kept with --store sampled (0..1)", parseFloat, 0.1)
  .option('--idle-timeout <seconds>', 'drop an episode with no request from its client this long', int('idle timeout', 1, 86_400), 600)
  .option('--worker-heap-mb <mb>', "old-space limit of each worker thread's heap; a worker that would pass it restarts", int('worker heap', 64, 65_536), 1024)
  .option('--idle-gc-every <n>', 'collect garbage (HTTP thread and workers) when the last open episode closes, at most once per n closed episodes (0 = never)', int('idle gc', 0, 1_000_000), DEFAULT_IDLE_GC_EVERY)
  .parse()

const o = program.opts<{ workspace?: string; db?: string; workers: number; inline: number; port: number; host: string; token?: string; dataDir?: string; reward?: string; credit?: string; answerer?: string; store: string; storeRate: number; idleTimeout: number; workerHeapMb: number; idleGcEvery: number; open?: string }>()
if (!['off', 'sampled', 'all'].includes(o.store)) program.error(`--store must be off, sampled or all, not ${o.store}`)
const open = (o.open ?? '').split(',').map((g) => g.trim()).filter(Boolean)
for (const g of open) if (!(OPEN_ROUTE_GROUPS as readonly string[]).includes(g)) program.error(`--open takes ${OPEN_ROUTE_GROUPS.join(', ')} (comma-separated), not ${g}`)
if (!o.workspace === !o.db) program.error('give --workspace <id-or-name> or --db <file>, one of them')

// --db: the file alone, no app database; read-only unless episodes are stored (each server then to its own run).
const services = o.db ? null : await createServices({ dataDir: resolveDataDir(o.dataDir), worker: sourceWorkerEntry() })
let direct: SQLite.Database | null = null
try {
  let label: string
  let raw: SQLite.Database
  if (o.db) {
    if (!existsSync(o.db)) throw new Error(`No workspace database at ${o.db}`)
    raw = direct = o.store === 'off' ? openSqlite(o.db, { readonly: true }) : (await openDatabase(o.db, workspaceMigrations)).raw
    label = `database ${o.db}${o.store === 'off' ? ' (read-only)' : ''}`
  } else {
    const all = await services!.workspaces.list()
    const ws = all.find((w) => w.id === o.workspace) ?? all.find((w) => w.name === o.workspace)
    if (!ws) throw new Error(`No workspace "${o.workspace}"; known: ${all.map((w) => `${w.id} (${w.name})`).join(', ') || 'none (create one with npm run cli -- corpus demo "Demo")'}`)
    raw = (await services!.workspaces.handle(ws.id)).raw
    label = `workspace "${ws.name}" (${ws.id})`
  }
  const answerer = o.answerer ? await createAnswerer({ kind: 'gguf', modelPath: o.answerer }, await getSharedRuntime()) : undefined
  const server = await startEnvServer({
    raw,
    appVersion: services?.version ?? APP_VERSION,
    port: o.port,
    host: o.host,
    token: o.token,
    open: open as OpenRoutes[],
    answerer,
    reward: o.reward ? rewardPreset(o.reward).config : undefined,
    credit: o.credit,
    store: { mode: o.store as StoreMode, rate: o.storeRate },
    idleTimeoutMs: o.idleTimeout * 1000,
    workers: o.workers,
    inline: o.inline,
    workerHeapMb: o.workerHeapMb,
    collectEvery: o.idleGcEvery,
  })
  console.log(`Harness Lab environment server for ${label}`)
  console.log(`  URL      ${server.url}`)
  console.log(`  token    ${server.token}`)
  console.log(`  workers  ${server.sessions.workers ? `${server.sessions.workers}${server.sessions.inlineBelow ? ` (an episode starting while fewer than ${server.sessions.inlineBelow} are open runs in the HTTP thread)` : ''}` : 'none (episodes run in the HTTP thread)'}`)
  if (open.length) console.log(`  no token ${open.join(', ')} (loopback only; refused from web pages)`)
  console.log(`  try      curl -H "Authorization: Bearer ${server.token}" ${server.url}/v1/environments`)
  const stop = async () => {
    await server.close()
    await answerer?.dispose()
    direct?.close()
    await services?.close()
    process.exit(0)
  }
  process.once('SIGINT', () => void stop())
  process.once('SIGTERM', () => void stop())
} catch (err) {
  console.error(`env-server: ${(err as Error).message}`)
  direct?.close()
  await services?.close()
  process.exit(1)
}
