/**
 * `npm run bench:env-server`: the environment server on loopback with 1, 8, 64 and 256 concurrent
 * clients, for graph-menu (SNC credit, so previews every step) and stateful (Harness-1 tools). Three
 * peers measured in the same run, in alternating rounds that share the machine's load:
 *   in-process  the same episodes through EpisodeSessions in this thread (same JSON round trips and validation)
 *   http x1     the server with every episode in its HTTP thread (`--workers 0`: the single-thread server)
 *   pool xN     the server with its worker pool (one thread per core by default; BENCH_WORKERS=N), a lone
 *               episode inline in its HTTP thread (BENCH_INLINE, default 1 as the server's; 0 = always a worker)
 * The HTTP clients run in a worker thread, as a trainer runs in its own process. Prints episodes/s, step
 * latency p50/p95/p99, errors and lost episodes, CPU ms per episode (all threads of this process: on a shared
 * machine the one figure that the load does not move), the core and worker counts; then the goals (on 2 cores:
 * pool >= 0.8x in-process at 1 client, >= 1.6x the single-thread server at 64, p95 < 250 ms at 64).
 * HTTP overhead per request, against a bare Fastify loopback round trip measured in the same run: in each
 * environment's 1-client cell, after every round of the three peers, the same client thread sends BENCH_BARE (300)
 * requests one after another, each with a step's body, to a trivial route of a fresh Fastify instance (b: their
 * median). The env server's HTTP cost per request (a) is the median step of the single-thread server over HTTP less
 * the median step in-process (the same episodes' work, JSON round trips and validation, without HTTP); the overhead
 * (x = a - b) is what the env server's HTTP layer adds to a bare loopback round trip. Printed as
 * `overhead: <x> ms/request (env server <a> ms, bare fastify <b> ms)`; goal <= 0.5 ms.
 * Then memory: BENCH_MEM_ROUNDS (3) rounds of BENCH_MEM_EPISODES (256) concurrent episodes against a
 * server in its own process (`npm run env-server -- --db`), single-thread and pooled, each with its idle
 * garbage collection and without (`--idle-gc-every 0`), with its RSS and heapUsed after each round.
 * Bounded: at most max(256, 4 x clients) episodes and BENCH_SECONDS (15) seconds per cell, so that time bounds
 * the cells and each round holds enough episodes to outweigh JIT and collector pauses; BENCH_ENVS /
 * BENCH_CLIENTS narrow the matrix, BENCH_MEM_ROUNDS=0 skips the memory part. The workload: the demo world of
 * size BENCH_WORLD (1: 92 questions, 92 chunks, so every cache holds all of it; 10 is ten times the corpus),
 * and BENCH_GROUP (1) rollouts of each question in a row, as a GRPO trainer sends a group. Each peer runs over
 * its own connection (its own corpus cache, as each pool worker has) and goes on through the question set
 * from round to round, so no peer is served from a cache another peer, or its own previous round, warmed.
 */
import { spawn } from 'node:child_process'
import { availableParallelism } from 'node:os'
import { join } from 'node:path'
import { Worker } from 'node:worker_threads'
import Fastify from 'fastify'
import { startEnvServer, type EnvServer } from '../main/env-server'
import { EpisodeSessions } from '../main/env-server/sessions'
import { CreateEpisodeBody, FinishBody, StepBody } from '../main/env-server/wire'
import { openDemoWorkspace } from './support/corpus'
import { workspaceMigrations } from '../main/db/migrations'
import { openDatabase } from '../main/db/open'
import { runCell, type Cell, type CellTask, type Driver, type Env, type Json } from './env-server-clients'

const CLIENTS = (process.env.BENCH_CLIENTS ?? '1,8,64,256').split(',').map(Number)
const ENVIRONMENTS = (process.env.BENCH_ENVS ?? 'graph-menu,stateful').split(',') as Env[]
const SECONDS = Number(process.env.BENCH_SECONDS ?? 15)
const CORES = availableParallelism()
const WORKERS = Number(process.env.BENCH_WORKERS ?? CORES)
const INLINE = Number(process.env.BENCH_INLINE ?? 1)
const MEM_ROUNDS = Number(process.env.BENCH_MEM_ROUNDS ?? 3)
const MEM_EPISODES = Number(process.env.BENCH_MEM_EPISODES ?? 256)
const EPISODES = (clients: number) => Math.max(256, clients * 4)
const WORLD = Number(process.env.BENCH_WORLD ?? 1)
const GROUP = Math.max(1, Number(process.env.BENCH_GROUP ?? 1))
const ROUNDS = 3
const BARE = Number(process.env.BENCH_BARE ?? 300)

const pct = (xs: number[], p: number): number => {
  if (xs.length === 0) return NaN
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!
}

const demo = await openDemoWorkspace(5, WORLD)
const questions = demo.questions.length
demo.db.raw.pragma('wal_checkpoint(TRUNCATE)')
// Each peer over its own connection, as each worker of the pool is: its own corpus cache, warmed by its own episodes only.
const connection = async () => (await openDatabase(demo.db.raw.name, workspaceMigrations)).raw
const single = await startEnvServer({ raw: await connection(), appVersion: 'bench', port: 0, maxEpisodes: 10_000, workers: 0 })
const pooled = await startEnvServer({ raw: await connection(), appVersion: 'bench', port: 0, maxEpisodes: 10_000, workers: WORKERS, inline: INLINE })
const sessions = new EpisodeSessions(await connection())
// The bare loopback round trip: a fresh Fastify instance with one trivial route, no hooks, no plugins.
const bare = Fastify({ logger: false })
bare.post('/ping', async () => ({ ok: true }))
const bareUrl = await bare.listen({ host: '127.0.0.1', port: 0 })

// HTTP clients run in a worker thread (own heap and event loop); tsx is registered inside the thread.
const clientThread = new Worker(`import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(new URL('./env-server-worker.ts', import.meta.url).href)}) })`, { eval: true })
const inClientThread = <T>(message: Json): Promise<T> =>
  new Promise((resolve, reject) => {
    const done = (result: T) => {
      clientThread.off('error', failed)
      resolve(result)
    }
    const failed = (err: Error) => {
      clientThread.off('message', done)
      reject(err)
    }
    clientThread.once('message', done)
    clientThread.once('error', failed)
    clientThread.postMessage(message)
  })
const viaHttp = (server: { url: string; token: string }, task: CellTask): Promise<Cell> => inClientThread<Cell>({ url: server.url, token: server.token, ...task })
/** One client's BARE round trips, one after another, to the bare Fastify route (ms each). */
const bareRoundTrips = (): Promise<number[]> => inClientThread<number[]>({ url: bareUrl, token: '', path: '/ping', count: BARE })
// The same request bodies through the same JSON round trips, validation and sessions, minus HTTP and threads.
const inProcess: Driver = {
  create: async (b) => JSON.parse(JSON.stringify(await sessions.create(CreateEpisodeBody.parse(JSON.parse(JSON.stringify(b)))))),
  step: async (id, b) => JSON.parse(JSON.stringify(await sessions.step(id, StepBody.parse(JSON.parse(JSON.stringify(b)))))),
  finish: async (id) => JSON.parse(JSON.stringify((await sessions.finish(id, FinishBody.parse({}))).result)),
}

const merge = (cells: Cell[]): Cell => ({
  episodes: cells.reduce((n, c) => n + c.episodes, 0),
  lost: cells.reduce((n, c) => n + c.lost, 0),
  errors: cells.reduce((n, c) => n + c.errors, 0),
  seconds: cells.reduce((n, c) => n + c.seconds, 0),
  steps: cells.flatMap((c) => c.steps),
})
const rate = (c: Cell) => c.episodes / c.seconds

type Peer = 'in-process' | 'http x1' | `pool x${number}`
const POOL: Peer = `pool x${WORKERS}`
// Each peer goes on through the question set round after round (`from`), so that no round replays one its peer just played.
const started = new Map<Peer, number>()
const peer = (name: Peer, play: (task: CellTask) => Promise<Cell>): [Peer, (env: Env, clients: number, target: number, seconds: number) => Promise<Cell>] => [
  name,
  async (env, clients, target, seconds) => {
    const cell = await play({ env, clients, questions, target, seconds, group: GROUP, from: started.get(name) ?? 0 })
    started.set(name, (started.get(name) ?? 0) + cell.episodes + cell.lost)
    return cell
  },
]
const peers = [peer('in-process', (task) => runCell(inProcess, task)), peer('http x1', (task) => viaHttp(single, task)), peer(POOL, (task) => viaHttp(pooled, task))]

console.log(`env-server bench: demo world of size ${WORLD} (${questions} questions), ${GROUP === 1 ? 'one rollout per question in turn' : `groups of ${GROUP} rollouts per question`}, ${CORES} cores, pool of ${WORKERS} worker threads (inline below ${INLINE} open episodes); per cell ${ROUNDS} alternating rounds of in-process, single-thread HTTP and pooled HTTP, each at most ${(SECONDS / (3 * ROUNDS)).toFixed(1)} s and max(256, 4 x clients) / ${ROUNDS} episodes; loopback HTTP/1.1 keep-alive, HTTP clients in a worker thread`)
const rows: Json[] = []
const cells = new Map<string, Cell>()
const overheads: number[] = []
for (const env of ENVIRONMENTS) {
  // Warm every path (JIT, statement caches, the workers' too) before measuring.
  for (const [, run] of peers) await run(env, 4, 64, SECONDS)
  for (const clients of CLIENTS) {
    const rounds = new Map<Peer, Cell[]>(peers.map(([p]) => [p, []]))
    const cpu = new Map<Peer, number>(peers.map(([p]) => [p, 0]))
    const inline0 = pooled.sessions.counters()
    const bareTimes: number[] = []
    for (let r = 0; r < ROUNDS; r++) {
      for (const [peer, run] of peers) {
        const c0 = process.cpuUsage()
        rounds.get(peer)!.push(await run(env, clients, Math.ceil(EPISODES(clients) / ROUNDS), SECONDS / (3 * ROUNDS)))
        const c = process.cpuUsage(c0)
        cpu.set(peer, cpu.get(peer)! + (c.user + c.system) / 1000)
      }
      if (clients === 1) bareTimes.push(...(await bareRoundTrips()))
    }
    for (const [peer] of peers) {
      const cell = merge(rounds.get(peer)!)
      cells.set(`${env}/${clients}/${peer}`, cell)
      rows.push({
        env,
        clients,
        peer,
        episodes: cell.episodes,
        'episodes/s': rate(cell).toFixed(1),
        'step p50 ms': pct(cell.steps, 50).toFixed(1),
        'p95 ms': pct(cell.steps, 95).toFixed(1),
        'p99 ms': pct(cell.steps, 99).toFixed(1),
        errors: cell.errors,
        lost: cell.lost,
        // CPU of the whole process (server threads and the client thread) per episode: what a loaded machine does not change.
        'cpu ms/episode': (cpu.get(peer)! / Math.max(1, cell.episodes)).toFixed(0),
      })
    }
    const inline1 = pooled.sessions.counters()
    const inlineShare = (inline1.createdInline - inline0.createdInline) / Math.max(1, inline1.created - inline0.created)
    const [l, s, p] = peers.map(([peer]) => cells.get(`${env}/${clients}/${peer}`)!)
    if (clients === 1) {
      const [http1, local] = [merge(rounds.get('http x1')!), merge(rounds.get('in-process')!)]
      const a = pct(http1.steps, 50) - pct(local.steps, 50)
      const b = pct(bareTimes, 50)
      overheads.push(a - b)
      console.log(`  overhead: ${(a - b).toFixed(3)} ms/request (env server ${a.toFixed(3)} ms, bare fastify ${b.toFixed(3)} ms) [${env}, 1 client: median step over HTTP ${pct(http1.steps, 50).toFixed(3)} ms less in-process ${pct(local.steps, 50).toFixed(3)} ms; ${bareTimes.length} bare round trips; goal <= 0.5]`)
    }
    console.log(`  ${env} x${clients}: episodes/s in-process ${rate(l!).toFixed(1)}, http x1 ${rate(s!).toFixed(1)}, ${POOL} ${rate(p!).toFixed(1)} (${(rate(p!) / rate(l!)).toFixed(2)}x in-process, ${(rate(p!) / rate(s!)).toFixed(2)}x single-thread); pool step p95 ${pct(p!.steps, 95).toFixed(0)} ms, ${(100 * inlineShare).toFixed(0)}% of its episodes inline; errors ${l!.errors + s!.errors + p!.errors}, lost ${l!.lost + s!.lost + p!.lost}`)
  }
}
console.table(rows)
for (const env of ENVIRONMENTS) {
  const at = (clients: number, peer: Peer) => cells.get(`${env}/${clients}/${peer}`)
  const one = [at(1, POOL), at(1, 'in-process')]
  const many = [at(64, POOL), at(64, 'http x1')]
  const parts: string[] = []
  if (one[0] && one[1]) parts.push(`1 client: pool ${(rate(one[0]) / rate(one[1])).toFixed(2)}x in-process (goal >= 0.8)`)
  if (many[0] && many[1]) parts.push(`64 clients: pool ${(rate(many[0]) / rate(many[1])).toFixed(2)}x the single-thread server (goal >= 1.6), step p95 ${pct(many[0].steps, 95).toFixed(0)} ms (goal < 250)`)
  const at256 = [...cells.entries()].filter(([k]) => k.startsWith(`${env}/256/`)).map(([, c]) => c)
  if (at256.length) parts.push(`256 clients: ${at256.every((c) => c.errors === 0 && c.lost === 0) ? 'no errors, no lost episodes' : 'HAD ERRORS OR LOST EPISODES'}`)
  console.log(`${env} on ${CORES} cores, ${WORKERS} workers: ${parts.join('; ')}`)
}
if (overheads.length) console.log(`env server HTTP overhead per request over a bare Fastify round trip: ${overheads.map((x) => x.toFixed(3)).join(', ')} ms (${ENVIRONMENTS.join(', ')}; goal <= 0.5): ${overheads.every((x) => x <= 0.5) ? 'met' : 'NOT MET'}`)
else console.log('HTTP overhead per request: not measured (BENCH_CLIENTS has no 1-client cell)')
await single.close()
await pooled.close()
await bare.close()
sessions.close()

/** A server in its own process over the demo file (what a trainer talks to), for its RSS. */
async function serveFile(workers: number, idleGcEvery: number): Promise<{ url: string; token: string; stats: () => Promise<Json>; stop: () => Promise<void> }> {
  const root = join(import.meta.dirname, '..')
  const child = spawn(join(root, 'node_modules/.bin/tsx'), ['scripts/env-server.ts', '--db', demo.db.raw.name, '--port', '0', '--workers', String(workers), '--idle-gc-every', String(idleGcEvery)], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] })
  const { url, token } = await new Promise<{ url: string; token: string }>((resolve, reject) => {
    let out = ''
    child.stdout!.on('data', (c) => {
      out += String(c)
      const url = /URL\s+(\S+)/.exec(out)?.[1]
      const token = /token\s+(\S+)/.exec(out)?.[1]
      if (url && token && /workers/.test(out)) resolve({ url, token })
    })
    child.once('exit', (code) => reject(new Error(`env-server exited ${code}: ${out}`)))
  })
  return {
    url,
    token,
    stats: async () => (await fetch(`${url}/v1/stats`, { headers: { authorization: `Bearer ${token}` } })).json() as Promise<Json>,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve())
        child.kill('SIGTERM')
      }),
  }
}

if (MEM_ROUNDS > 0) {
  console.log(`\nmemory: ${MEM_ROUNDS} rounds of ${MEM_EPISODES} concurrent graph-menu episodes against a server in its own process, with its idle collection (the default, --idle-gc-every 64) and without (0); RSS after each round (the workers' heaps included), and in brackets the HTTP thread's heapUsed`)
  const memRows: Json[] = []
  for (const workers of [0, WORKERS]) {
    for (const idleGc of [64, 0]) {
      const server = await serveFile(workers, idleGc)
      try {
        const idle = (await server.stats()).memory
        const row: Json = { server: workers ? `pool x${workers}` : 'single thread', 'idle gc': idleGc ? `every ${idleGc}` : 'off', 'idle MB': `${idle.rssMb} (${idle.heapUsedMb})` }
        for (let r = 0; r < MEM_ROUNDS; r++) {
          const cell = await viaHttp(server, { env: 'graph-menu', clients: MEM_EPISODES, questions, target: MEM_EPISODES, seconds: 600 })
          const stats = await server.stats()
          row[`round ${r + 1} MB`] = `${stats.memory.rssMb} (${stats.memory.heapUsedMb})`
          row['lost'] = (row['lost'] ?? 0) + cell.lost
          row['open after'] = stats.open
        }
        memRows.push(row)
      } finally {
        await server.stop()
      }
    }
  }
  console.table(memRows)
}
await clientThread.terminate()
await demo.close()
