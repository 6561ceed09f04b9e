/**
 * The HTTP thread's side of the environment server: it makes episode ids, pins each episode to a lane
 * (a worker thread, or this thread with `workers: 0`), keeps the idle clock, stores kept episodes and
 * counts. Idle means no request from the client: the clock of an episode stops while one of its requests
 * is in flight (arrived, not yet answered), however long it waits behind other episodes' steps, and
 * restarts when the answer is sent.
 *
 * Inline episodes: a pool also has a lane in this thread. A new episode runs inline while fewer than
 * `inline` episodes are open (default 1: an episode alone on the server), and on a worker otherwise. At
 * low concurrency a step then costs no hop between threads (each hop waits for the other thread to be
 * scheduled, which on a loaded machine cost more than the step itself); at high concurrency the steps
 * go to the workers and this thread only routes. An episode stays on the lane where it started: its
 * environment holds live state (statements, closures, caches) that cannot be sent to another thread,
 * and replaying its actions elsewhere would cost the steps again. The HTTP thread so carries at most
 * `inline` episodes, each to its step cap, when concurrency rises; every request is still routed through
 * the same checks, idle clock and counters whichever lane serves it.
 */
import { randomUUID } from 'node:crypto'
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { availableParallelism } from 'node:os'
import type SQLite from 'better-sqlite3'
import type { Answerer } from '../harness'
import { LexicalAnswerer } from '../policy/answerer/lexical-answerer'
import { checkRewardConfig, type RewardConfig } from '../rl/reward-schemes'
import { creditNames } from '../rl/credit'
import { sourceWorkerEntryOf } from '../jobs/source-entry'
import { ThreadLane, WorkerLane, type EnvWorkerEntry, type Lane } from './lanes'
import type { RetrieveBody } from './retrieve'
import { EnvServerError, environmentsOf, type EnvServerCounters, type FinishAnswer } from './sessions'
import { EpisodeKeeper, type EpisodeStorePolicy } from './store'
import { IdleCollector, v8Collect } from './idle-collector'
import { JsonText, type CreateEpisodeBody, type FinishBody, type StepBody } from './wire'

export interface RouterOptions {
  raw: SQLite.Database
  appVersion: string
  /** Scores evidence for SNC and answers when neither the environment nor the trainer did; the lexical stand-in by default. */
  answerer?: Answerer
  reward?: RewardConfig
  credit?: string
  /** An episode with no request from its client for this long is dropped (default 10 minutes). */
  idleTimeoutMs?: number
  /** Most open episodes (default 4096); creating one more is a 503. */
  maxEpisodes?: number
  /** Step cap per episode beyond the environment's own limit (default 200). */
  maxSteps?: number
  store?: EpisodeStorePolicy
  /** Worker threads running episodes: one per core by default; 0 runs them in the HTTP thread. */
  workers?: number
  /** With workers: a new episode runs in the HTTP thread while fewer than this many episodes are open (default 1; 0: always on a worker). */
  inline?: number
  /** How worker threads start; by default from source when this module runs from source, else the built env-server-worker.js. */
  workerEntry?: EnvWorkerEntry
  /** Old-space limit of each worker's heap in MiB (default 1024): a worker that would pass it restarts instead of growing. */
  workerHeapMb?: number
  /** Clock for idle timeouts (tests pass their own). */
  now?: () => number
  /**
   * Collect garbage (this thread's heap and the workers') when the last open episode closes, at most once per
   * this many closed episodes; absent or 0: never (the CLI and the app pass DEFAULT_IDLE_GC_EVERY). See idle-collector.ts.
   */
  collectEvery?: number
  /** What collects this thread's heap; V8's gc by default (tests count the calls). */
  collectGarbage?: () => void
}

/** Closed episodes between idle collections, unless told otherwise. */
export const DEFAULT_IDLE_GC_EVERY = 64

interface Pinned {
  lane: Lane
  /** When the client was last heard from or last answered. */
  lastSeen: number
  /** Requests of this episode that arrived and are not answered yet. */
  inFlight: number
  environment: string
  steps: number
}

const RATE_WINDOW_S = 10
/** Finished episodes whose state stays readable (the oldest forgotten first beyond this). */
const MAX_ENDED = 8192

interface Ended {
  environment: string
  steps: number
  /** When it finished (the router's clock): readable until the idle timeout has passed since. */
  at: number
}

/** Where worker threads start from: this module's sibling source file under tsx/vitest, the built entry otherwise. */
export function defaultWorkerEntry(): EnvWorkerEntry {
  const here = import.meta.url
  if (here.endsWith('.ts')) return sourceWorkerEntryOf(new URL('./worker.ts', here))
  // Built: out/main/env-server-worker.js, beside this bundle or one folder up from a shared chunk.
  const built = [new URL('./env-server-worker.js', here), new URL('../env-server-worker.js', here)]
  return { url: built.find((u) => existsSync(fileURLToPath(u))) ?? built[0]! }
}

export class EpisodeRouter {
  /** The worker lanes, or the HTTP thread's lane alone with `workers: 0`. */
  readonly lanes: Lane[] = []
  /** The HTTP thread's lane of a pool, for episodes that start while fewer than `inlineBelow` are open. */
  private inlineLane: ThreadLane | null = null
  readonly inlineBelow: number
  private readonly pinned = new Map<string, Pinned>()
  /** Scored episodes, insertion-ordered: their state stays readable for the idle timeout (OpenEnv's GET /state after the last step). */
  private readonly ended = new Map<string, Ended>()
  private readonly keeper: EpisodeKeeper
  private readonly now: () => number
  private readonly idleTimeoutMs: number
  private readonly maxEpisodes: number
  private readonly counts = { created: 0, finished: 0, deleted: 0, expired: 0, steps: 0, errors: 0, stored: 0, storeRepeats: 0, workerRestarts: 0, createdInline: 0 }
  private readonly stepBuckets = new Map<number, number>()
  private readonly answerer: Answerer
  private readonly collector: IdleCollector | null
  private closed = false
  private next = 0

  private constructor(private readonly options: RouterOptions) {
    if (options.reward) checkRewardConfig(options.reward)
    if (options.credit && !creditNames().includes(options.credit)) throw new Error(`Unknown credit scheme "${options.credit}"; known: ${creditNames().join(', ')}`)
    this.keeper = new EpisodeKeeper(options.raw, options.store ?? { mode: 'off' }, options.appVersion)
    this.now = options.now ?? Date.now
    this.idleTimeoutMs = options.idleTimeoutMs ?? 10 * 60_000
    this.maxEpisodes = options.maxEpisodes ?? 4096
    this.answerer = options.answerer ?? new LexicalAnswerer()
    this.collector = options.collectEvery ? new IdleCollector(this.collectAll(options.collectGarbage ?? v8Collect()), options.collectEvery) : null
    this.inlineBelow = options.workers === 0 ? 0 : (options.inline ?? 1)
    if (!Number.isInteger(this.inlineBelow) || this.inlineBelow < 0 || this.inlineBelow > 4096) throw new Error(`inline must be an integer in 0..4096, got ${options.inline}`)
  }

  /** Starts the lanes: `workers` worker threads over the workspace file read-only, or the HTTP thread. */
  static async start(options: RouterOptions): Promise<EpisodeRouter> {
    const router = new EpisodeRouter(options)
    const workers = options.workers ?? availableParallelism()
    if (!Number.isInteger(workers) || workers < 0 || workers > 256) throw new Error(`workers must be an integer in 0..256, got ${workers}`)
    const file = options.raw.name
    if (workers > 0 && (options.raw.memory || !file || file === ':memory:')) throw new Error('Worker threads open the workspace file: an in-memory database needs workers: 0')
    if (workers === 0) router.lanes.push(new ThreadLane(options.raw, router.sessionOptions(true)))
    else {
      try {
        for (let i = 0; i < workers; i++) router.lanes.push(router.spawn(`w${i}`))
        if (router.inlineBelow > 0) router.inlineLane = new ThreadLane(options.raw, router.sessionOptions(true), 'inline')
        await Promise.all(router.lanes.map((l) => (l as WorkerLane).ready))
      } catch (err) {
        await router.close()
        throw err
      }
    }
    return router
  }

  get answererName(): string {
    return this.answerer.name
  }

  get workers(): number {
    return this.lanes[0] instanceof ThreadLane ? 0 : this.lanes.length
  }

  environments() {
    return environmentsOf(this.options)
  }

  /** A request of this episode arrived (the HTTP layer calls this as soon as it sees one). An episode found idle past the timeout is dropped. */
  hold(id: string): void {
    const p = this.pinned.get(id)
    if (!p) return
    if (p.inFlight === 0 && this.now() - p.lastSeen > this.idleTimeoutMs) {
      this.expire(id, p)
      return
    }
    p.inFlight++
    p.lastSeen = this.now()
  }

  /** That request was answered: the idle clock starts again. */
  release(id: string): void {
    const p = this.pinned.get(id)
    if (!p) return
    p.inFlight = Math.max(0, p.inFlight - 1)
    p.lastSeen = this.now()
  }

  /** Opens an episode; answers the create reply as JSON text. */
  async create(body: CreateEpisodeBody): Promise<JsonText> {
    this.sweep()
    if (this.pinned.size >= this.maxEpisodes) throw new EnvServerError(503, `${this.pinned.size} episodes are open, the most this server keeps: finish or delete some first`, 'environment')
    const id = randomUUID()
    // Counted and pinned in one synchronous stretch, so at most `inlineBelow` episodes are ever inline.
    const lane = this.inlineLane && this.pinned.size < this.inlineBelow ? this.inlineLane : this.pick()
    const p: Pinned = { lane, lastSeen: this.now(), inFlight: 1, environment: body.environment, steps: 0 }
    this.pinned.set(id, p)
    lane.open++
    try {
      const created = new JsonText(await lane.create(body, id, this.keeper.keeps(id)))
      this.counts.created++
      if (lane === this.inlineLane) this.counts.createdInline++
      return created
    } catch (err) {
      this.unpin(id)
      throw err
    } finally {
      this.release(id)
    }
  }

  /** One step; answers the step reply as JSON text. */
  async step(id: string, body: StepBody): Promise<JsonText> {
    const p = this.find(id)
    this.hold(id)
    try {
      const out = new JsonText(await p.lane.step(id, body))
      p.steps++
      this.countStep()
      return out
    } finally {
      this.release(id)
    }
  }

  async finish(id: string, body: FinishBody): Promise<FinishAnswer> {
    const p = this.find(id)
    this.hold(id)
    try {
      const { result, keep } = await p.lane.finish(id, body)
      if (keep) {
        const runId = this.keeper.save(keep.config, keep.questionRowId, keep.trajectory)
        if (runId === null) this.counts.storeRepeats++
        else this.counts.stored++
        result.stored_run_id = runId
      }
      this.counts.finished++
      this.ended.delete(id)
      if (this.ended.size >= MAX_ENDED) this.ended.delete(this.ended.keys().next().value!)
      this.ended.set(id, { environment: p.environment, steps: p.steps, at: this.now() })
      return result
    } finally {
      // A failed finish leaves nothing half-open: the episode is gone either way.
      this.unpin(id)
    }
  }

  async remove(id: string): Promise<void> {
    const p = this.find(id)
    this.unpin(id)
    this.counts.deleted++
    await p.lane.remove(id).catch(() => undefined)
  }

  /** OpenEnv's GET /state: an open episode, or one scored less than the idle timeout ago (`done: true`). */
  state(id: string): { episode_id: string; environment: string; step_count: number; done: boolean } {
    const e = this.pinned.has(id) ? undefined : this.ended.get(id)
    if (e && this.now() - e.at <= this.idleTimeoutMs) return { episode_id: id, environment: e.environment, step_count: e.steps, done: true }
    const p = this.find(id)
    return { episode_id: id, environment: p.environment, step_count: p.steps, done: false }
  }

  /** Whether the episode is open (not finished, deleted or timed out). */
  isOpen(id: string): boolean {
    return this.pinned.has(id)
  }

  /** Forgets a finished episode's state (its session started another). */
  forget(id: string): void {
    this.ended.delete(id)
  }

  /** Search-R1's retrieval call (its work budget checked with the body: RETRIEVE_MAX_PASSAGES), on the least busy lane, as JSON text. */
  async retrieve(body: RetrieveBody): Promise<JsonText> {
    return new JsonText(await this.pick().retrieve(body))
  }

  /** Drops episodes with no request in flight and none for longer than the timeout; returns how many. */
  sweep(): number {
    const cutoff = this.now() - this.idleTimeoutMs
    // Oldest first: the first one still fresh ends the walk.
    for (const [id, e] of this.ended) {
      if (e.at >= cutoff) break
      this.ended.delete(id)
    }
    let n = 0
    for (const [id, p] of this.pinned) {
      if (p.inFlight === 0 && p.lastSeen < cutoff) {
        this.expire(id, p)
        n++
      }
    }
    return n
  }

  countError(): void {
    this.counts.errors++
  }

  counters(): EnvServerCounters & { workers: number; inFlight: number; workerRestarts: number; inline: number; createdInline: number; memory: { rssMb: number; heapUsedMb: number } } {
    const second = Math.floor(this.now() / 1000)
    let recent = 0
    for (const [s, n] of this.stepBuckets) {
      if (s <= second - RATE_WINDOW_S) this.stepBuckets.delete(s)
      else recent += n
    }
    let inFlight = 0
    for (const p of this.pinned.values()) inFlight += p.inFlight
    // RSS covers the worker threads too; heapUsed is this (routing) thread's.
    const m = process.memoryUsage()
    const memory = { rssMb: Math.round(m.rss / 2 ** 20), heapUsedMb: Math.round(m.heapUsed / 2 ** 20) }
    return { open: this.pinned.size, ...this.counts, stepsPerSecond: recent / RATE_WINDOW_S, workers: this.workers, inline: this.inlineLane?.open ?? 0, inFlight, memory }
  }

  /** Stops the lanes (open episodes are dropped) and ends the store's runs. */
  async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    this.collector?.stop()
    this.pinned.clear()
    this.ended.clear()
    await Promise.all([...this.lanes, ...(this.inlineLane ? [this.inlineLane] : [])].map((l) => l.close()))
    this.keeper.close()
  }

  private sessionOptions(inThread: boolean) {
    const { reward, credit, maxSteps } = this.options
    return { reward, credit, maxSteps: maxSteps ?? 200, ...(inThread ? { answerer: this.answerer } : {}) }
  }

  private spawn(name: string): WorkerLane {
    const init = { file: this.options.raw.name, sessions: this.sessionOptions(false), answerer: this.answerer.lexical ? null : { name: this.answerer.name } }
    return new WorkerLane(name, this.options.workerEntry ?? defaultWorkerEntry(), init, this.answerer, this.options.workerHeapMb ?? 1024, (lane) => this.restart(lane))
  }

  /** This thread's collection, then each worker's (posted: it runs on the worker's next turn). */
  private collectAll(here: () => void): () => void {
    return () => {
      here()
      for (const lane of this.lanes) if (lane instanceof WorkerLane) lane.collect()
    }
  }

  /** A worker that stopped unasked (out of memory, a crash): its episodes are gone, a fresh one takes its place. */
  private restart(lane: WorkerLane): void {
    if (this.closed) return
    for (const [id, p] of this.pinned) if (p.lane === lane) this.pinned.delete(id)
    const i = this.lanes.indexOf(lane)
    if (i < 0) return
    const fresh = this.spawn(lane.name)
    this.lanes[i] = fresh
    this.counts.workerRestarts++
    fresh.ready.catch((err) => console.error(`env-server: worker ${lane.name} could not restart: ${(err as Error).message}`))
  }

  /** The lane with the fewest open episodes (ties in turn). */
  private pick(): Lane {
    let best = this.lanes[this.next++ % this.lanes.length]!
    for (const l of this.lanes) if (l.open < best.open) best = l
    return best
  }

  private find(id: string): Pinned {
    const p = this.pinned.get(id)
    if (!p) throw new EnvServerError(404, `No open episode ${id} (finished, deleted or timed out)`, 'id')
    if (p.inFlight === 0 && this.now() - p.lastSeen > this.idleTimeoutMs) {
      this.expire(id, p)
      throw new EnvServerError(404, `Episode ${id} timed out after ${Math.round(this.idleTimeoutMs / 1000)} s with no request`, 'id')
    }
    return p
  }

  private expire(id: string, p: Pinned): void {
    this.unpin(id)
    this.counts.expired++
    void p.lane.remove(id).catch(() => undefined)
  }

  private unpin(id: string): void {
    const p = this.pinned.get(id)
    if (!p) return
    this.pinned.delete(id)
    p.lane.open = Math.max(0, p.lane.open - 1)
    this.collector?.closed(() => !this.closed && this.pinned.size === 0)
  }

  private countStep(): void {
    this.counts.steps++
    const second = Math.floor(this.now() / 1000)
    this.stepBuckets.set(second, (this.stepBuckets.get(second) ?? 0) + 1)
    if (this.stepBuckets.size > 4 * RATE_WINDOW_S) for (const k of this.stepBuckets.keys()) if (k <= second - RATE_WINDOW_S) this.stepBuckets.delete(k)
  }
}
