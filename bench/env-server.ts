/**
 * `npm run bench:env-server`: the environment server on loopback with 1, 8, 64 and 256 concurrent
 * clients, for graph-menu (SNC credit, so previews every step) and stateful (Harness-1 tools), beside the
 * same episodes driven in-process through the same EpisodeSessions (same JSON round trips and validation)
 * in the same run. The HTTP clients run in a worker thread, as a trainer runs in its own process. Per cell,
 * three alternating rounds of in-process then HTTP share the machine's load. Prints episodes/s, step
 * latency p50/p95/p99, errors and lost episodes, and the HTTP overhead: wall time per step with every
 * client busy (queueing behind the other clients on the one server thread left out; median of the rounds'
 * ratios) and the step-latency median ratio. Bounded: at most max(32, 2 x clients) episodes and
 * BENCH_SECONDS (default 15) seconds per cell; BENCH_ENVS / BENCH_CLIENTS narrow the matrix.
 * Targets: 0 errors and 0 lost episodes at 256 clients; overhead <= 1.5x at 8 clients.
 */
import { startEnvServer } from '../main/env-server'
import { EpisodeSessions } from '../main/env-server/sessions'
import { Worker } from 'node:worker_threads'
import { CreateEpisodeBody, FinishBody, StepBody } from '../main/env-server/wire'
import { openDemoWorkspace } from '../test/helpers/corpus'
import { runCell, type Cell, type Driver, type Env, type Json } from './env-server-clients'

// BENCH_CLIENTS=8,256 and BENCH_ENVS=stateful narrow the matrix.
const CLIENTS = (process.env.BENCH_CLIENTS ?? '1,8,64,256').split(',').map(Number)
const ENVIRONMENTS = (process.env.BENCH_ENVS ?? 'graph-menu,stateful').split(',') as Array<'graph-menu' | 'stateful'>
const SECONDS = Number(process.env.BENCH_SECONDS ?? 15)
const EPISODES = (clients: number) => Math.max(32, clients * 2)


const pct = (xs: number[], p: number): number => {
  if (xs.length === 0) return NaN
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!
}

const demo = await openDemoWorkspace(5, 1)
const questions = demo.questions.length
const server = await startEnvServer({ raw: demo.db.raw, appVersion: 'bench', port: 0, maxEpisodes: 10_000 })
const sessions = new EpisodeSessions(demo.db.raw)

// The same request bodies through the same JSON round trips, validation and sessions, minus HTTP over a socket.
// HTTP clients run in a worker thread, as a trainer runs in its own process (own heap and event loop).
// tsx's loader is registered inside the thread, then the TypeScript worker is imported.
const worker = new Worker(`import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(new URL('./env-server-worker.ts', import.meta.url).href)}) })`, { eval: true })
const viaHttp = (env: Env, clients: number, target: number, seconds: number): Promise<Cell> =>
  new Promise((resolve, reject) => {
    const done = (cell: Cell) => {
      worker.off('error', failed)
      resolve(cell)
    }
    const failed = (err: Error) => {
      worker.off('message', done)
      reject(err)
    }
    worker.once('message', done)
    worker.once('error', failed)
    worker.postMessage({ url: server.url, token: server.token, env, clients, questions, target, seconds })
  })
const inProcess: Driver = {
  create: async (b) => JSON.parse(JSON.stringify(await sessions.create(CreateEpisodeBody.parse(JSON.parse(JSON.stringify(b)))))),
  step: async (id, b) => JSON.parse(JSON.stringify(await sessions.step(id, StepBody.parse(JSON.parse(JSON.stringify(b)))))),
  finish: async (id) => JSON.parse(JSON.stringify((await sessions.finish(id, FinishBody.parse({}))).result)),
}

const ROUNDS = 3
const merge = (cells: Cell[]): Cell => ({
  episodes: cells.reduce((n, c) => n + c.episodes, 0),
  lost: cells.reduce((n, c) => n + c.lost, 0),
  errors: cells.reduce((n, c) => n + c.errors, 0),
  seconds: cells.reduce((n, c) => n + c.seconds, 0),
  steps: cells.flatMap((c) => c.steps),
})
const msPerStep = (c: Cell): number => (c.seconds * 1000) / c.steps.length
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

console.log(`env-server bench: demo world (${questions} questions), per cell ${ROUNDS} alternating rounds of in-process then HTTP, each at most ${(SECONDS / (2 * ROUNDS)).toFixed(1)} s and max(32, 2 x clients) / ${ROUNDS} episodes per transport; loopback HTTP/1.1 keep-alive, HTTP clients in a worker thread`)
const rows: Json[] = []
for (const env of ENVIRONMENTS) {
  // Warm both paths (JIT, statement caches) before measuring.
  await runCell(inProcess, env, 4, questions, 8, SECONDS)
  await viaHttp(env, 4, 8, SECONDS)
  for (const clients of CLIENTS) {
    // Alternating rounds share the machine's load (other processes) between the two transports.
    const locals: Cell[] = []
    const remotes: Cell[] = []
    for (let r = 0; r < ROUNDS; r++) {
      const target = Math.ceil(EPISODES(clients) / ROUNDS)
      const seconds = SECONDS / (2 * ROUNDS)
      locals.push(await runCell(inProcess, env, clients, questions, target, seconds))
      remotes.push(await viaHttp(env, clients, target, seconds))
    }
    const local = merge(locals)
    const remote = merge(remotes)
    const ratio = median(remotes.map((c, i) => msPerStep(c) / msPerStep(locals[i]!)))
    for (const [transport, cell] of [['in-process', local], ['http', remote]] as const) {
      rows.push({
        env,
        clients,
        transport,
        episodes: cell.episodes,
        'episodes/s': (cell.episodes / cell.seconds).toFixed(1),
        'step p50 ms': pct(cell.steps, 50).toFixed(2),
        'p95 ms': pct(cell.steps, 95).toFixed(2),
        'p99 ms': pct(cell.steps, 99).toFixed(2),
        errors: cell.errors,
        lost: cell.lost,
        // Wall time per step with all clients busy: the server's cost of a step, queueing excluded.
        'ms/step': msPerStep(cell).toFixed(3),
        'http/in-process ms/step': transport === 'http' ? ratio.toFixed(2) : '',
        'http/in-process p50': transport === 'http' ? (pct(remote.steps, 50) / pct(local.steps, 50)).toFixed(2) : '',
      })
    }
    const last = rows.at(-1)!
    console.log(`  ${env} x${clients}: http ${last['episodes/s']} ep/s, ${last['ms/step']} ms/step (in-process ${rows.at(-2)!['ms/step']}), median round ratio ${last['http/in-process ms/step']}; p50 ${last['step p50 ms']} ms (in-process ${rows.at(-2)!['step p50 ms']}); errors ${remote.errors + local.errors}, lost ${remote.lost + local.lost}`)
  }
}
console.table(rows)
for (const env of ENVIRONMENTS) {
  const at256 = rows.filter((r) => r.env === env && r.clients === 256)
  const at8 = rows.find((r) => r.env === env && r.clients === 8 && r.transport === 'http')
  if (!at8 || at256.length === 0) continue
  const clean = at256.every((r) => r.errors === 0 && r.lost === 0)
  console.log(`${env}: 256 clients ${clean ? 'no errors, no lost episodes' : 'HAD ERRORS OR LOST EPISODES'} (target 0); HTTP overhead at 8 clients ${at8['http/in-process ms/step']}x per step (target <= 1.5x), ${at8['http/in-process p50']}x at the step-latency median`)
}
await worker.terminate()
await server.close()
sessions.close()
await demo.close()
