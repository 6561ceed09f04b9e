import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { pathToFileURL } from 'node:url'
import { IngestFileError, type IngestFailureReason } from '../corpus/types'
import { FILE_WORKER_FLAG, fileWorkerModuleUrl, type FromFileWorker, type RunMessage } from './file-worker'
import { FileBudgetError, fileBudgetSeconds, READABILITY_BUDGET_SHARE, type FileLimits } from './limits'
import type { ProcessedUnit, ProcessOptions, ProcessStage, UnitTask } from './process'

/**
 * Runs units in the file worker (file-worker.ts) under their budget. The worker is a thread with a
 * heap limit inside a small child process of its own: a thread alone is not enough, because V8 may
 * abort the whole process when a thread hits its heap limit in some allocation patterns (one huge
 * array or JSON.parse: nodejs/node#47224), and an ingest must never take the app down with it. The
 * child is reused from file to file, killed and replaced when a file runs out of time or memory (the
 * file fails with its reason, the next one starts in a fresh child), and parked for a while after
 * the ingest so the next one in this process starts at once. An HTML page that keeps Readability busy
 * for a third of its budget is read again, in a fresh child, by the plain extractor.
 */

export interface IsolatedHooks {
  stage?(stage: ProcessStage, fraction: number): void
  /** Called every 100 ms while a file runs; throwing (a cancel) stops the file's worker at once. */
  checkpoint?(): void
}

/**
 * The worker did not start: the ingest stops with this reason (no file is ever parsed outside the
 * worker's limits). `retryable`: a start that timed out or died may succeed when tried again; a
 * missing runtime piece (tsx) will not.
 */
export class FileWorkerUnavailable extends Error {
  constructor(message: string, readonly retryable = false) {
    super(message)
    this.name = 'FileWorkerUnavailable'
  }
}

/** How the worker is waited for: each start may take `timeoutMs`, doubled at each of the `attempts`. */
export interface WorkerStartOptions {
  timeoutMs: number
  attempts: number
}

/** 120 s, then 240 s, then 480 s: a machine busy enough to need more is better told so than worked around. */
export const DEFAULT_WORKER_START: Readonly<WorkerStartOptions> = Object.freeze({ timeoutMs: 120_000, attempts: 3 })
const CHECKPOINT_MS = 100
const IDLE_MS = 30_000
/** A child left idle this long ends itself (the parent normally ends it after IDLE_MS). */
const HOST_IDLE_EXIT_MS = 300_000
const CONFIG_ENV = 'HARNESS_LAB_FILE_WORKER'
/** Heap of the child's own (relaying) main thread, in MiB: it holds one result at a time. */
const HOST_HEAP_MIB = 1024

/** The worker thread's boot module (a data: URL): registers tsx when the entry is TypeScript source, then loads the entry. */
const WORKER_BOOT = [
  "import { workerData } from 'node:worker_threads'",
  'if (workerData.tsx) { const api = await import(workerData.tsx); (api.register ?? api.default.register)() }',
  'await import(workerData.entry)',
].join('\n')

/**
 * The child process: starts the worker thread with its heap limit and relays messages both ways.
 * Plain JavaScript, no imports but node's own, so it runs the same under node, tsx and Electron.
 */
const HOST_BOOT = `
import { Worker } from 'node:worker_threads'
const config = JSON.parse(process.env.${CONFIG_ENV})
const worker = new Worker(new URL('data:text/javascript,' + encodeURIComponent(config.workerBoot)), {
  workerData: { [config.flag]: true, entry: config.entry, tsx: config.tsx },
  resourceLimits: { maxOldGenerationSizeMb: config.memoryMiB },
  stdout: false,
  stderr: false,
})
const send = (m, done) => (process.connected ? process.send(m, done) : done && done())
// A file in hand, or the last time one was: a child nobody has used for a while ends itself, even when
// the ingest that parked it is too busy to end it (its timers wait on its event loop).
let busy = false
let last = Date.now()
worker.on('message', (m) => {
  if (m && m.fileWorker === 1 && m.type === 'done') m.hostMaxRssKb = process.resourceUsage().maxRSS
  if (m && m.fileWorker === 1 && (m.type === 'done' || m.type === 'failed')) {
    busy = false
    last = Date.now()
  }
  send(m)
})
worker.on('error', (e) => send({ fileWorker: 1, type: 'thread-error', code: (e && e.code) || null, message: String((e && e.message) || e) }))
worker.on('exit', (code) => send({ fileWorker: 1, type: 'thread-exit', code }, () => process.exit(code === 0 ? 0 : 70)))
process.on('message', (m) => {
  if (m && m.type === 'run') busy = true
  last = Date.now()
  worker.postMessage(m)
})
process.on('disconnect', () => process.exit(0))
setInterval(() => {
  if (!busy && Date.now() - last > config.idleExitMs) process.exit(0)
}, 1000).unref()
// The thread's heap limit is best-effort (V8 may let one big allocation through, and Buffers are not
// counted): the whole process's resident memory is the budget that holds.
setInterval(() => {
  const rss = process.memoryUsage.rss()
  if (rss > config.memoryMiB * 1048576) send({ fileWorker: 1, type: 'over-memory', rss }, () => process.exit(71))
}, 100)
`

/** Messages the child adds to the worker's. */
type FromHost =
  | FromFileWorker
  | { fileWorker: 1; type: 'thread-error'; code: string | null; message: string }
  | { fileWorker: 1; type: 'thread-exit'; code: number }
  | { fileWorker: 1; type: 'over-memory'; rss: number }

function tsxApiUrl(entry: string): string | null {
  if (!/\.[cm]?ts$/.test(new URL(entry).pathname)) return null
  try {
    // The package's ESM build: its CommonJS build cannot be imported from an ES module.
    const resolved = createRequire(entry).resolve('tsx/esm/api')
    const esm = resolved.replace(/\.cjs$/, '.mjs')
    return pathToFileURL(existsSync(esm) ? esm : resolved).href
  } catch {
    throw new FileWorkerUnavailable('the file worker runs from TypeScript source here, and tsx (a dev dependency) is not installed')
  }
}

const seconds = (s: number): string => (s < 10 ? s.toFixed(1) : s.toFixed(0))

/** The last few KB a child wrote to stderr (V8 says "heap out of memory" there before it aborts). */
class Tail {
  text = ''
  add(chunk: Buffer | string): void {
    this.text = (this.text + chunk.toString()).slice(-8192)
  }
}

interface Child {
  process: ChildProcess
  stderr: Tail
}

interface IdleChild {
  child: Child
  timer: ReturnType<typeof setTimeout>
}

const idle = new Map<number, IdleChild[]>()

/** Whether the child (its process, IPC channel and stderr pipe) keeps this process's event loop alive. */
const hold = (child: Child, held: boolean): void => {
  const proc = child.process as ChildProcess & { channel?: { ref(): void; unref(): void } }
  const stderr = proc.stderr as (NodeJS.ReadableStream & { ref?(): void; unref?(): void }) | null
  if (held) {
    proc.ref()
    proc.channel?.ref()
    stderr?.ref?.()
  } else {
    proc.unref()
    proc.channel?.unref()
    stderr?.unref?.()
  }
}

const alive = (child: Child): boolean => child.process.exitCode === null && child.process.signalCode === null && child.process.connected

/** An idle child with this heap budget, if one is waiting. */
function takeIdle(memoryMiB: number): Child | undefined {
  const waiting = idle.get(memoryMiB)
  for (let entry = waiting?.pop(); entry; entry = waiting?.pop()) {
    clearTimeout(entry.timer)
    if (!alive(entry.child)) continue
    hold(entry.child, true)
    return entry.child
  }
  return undefined
}

/** Parks a healthy child for IDLE_MS; it never keeps the process alive. */
function park(memoryMiB: number, child: Child): void {
  const waiting = idle.get(memoryMiB) ?? []
  idle.set(memoryMiB, waiting)
  const entry: IdleChild = {
    child,
    timer: setTimeout(() => {
      const at = waiting.indexOf(entry)
      if (at >= 0) waiting.splice(at, 1)
      child.process.kill('SIGKILL')
    }, IDLE_MS),
  }
  entry.timer.unref()
  hold(child, false)
  waiting.push(entry)
}

/** Ends every parked worker process now (at shutdown, or when a test wants the next ingest to start a fresh one). */
export function stopIdleFileWorkers(): void {
  for (const waiting of idle.values()) {
    for (const entry of waiting.splice(0)) {
      clearTimeout(entry.timer)
      entry.child.process.kill('SIGKILL')
    }
  }
}

/** Why a run ended early, decided in the parent. */
type Ending =
  | { kind: 'timeout'; stage: ProcessStage }
  | { kind: 'readability-slow' }
  | { kind: 'memory'; stage: ProcessStage }
  /** `unanswered`: the worker died before it said anything about this run (it was ending as the file came). */
  | { kind: 'crash'; message: string; unanswered?: boolean }

class EndedEarly extends Error {
  constructor(readonly ending: Ending) {
    super(ending.kind)
  }
}

const OUT_OF_MEMORY = /heap out of memory|Allocation failed|ERR_WORKER_OUT_OF_MEMORY/

export class FileWorkerPool {
  private child: Child | undefined
  private starting: Promise<Child> | undefined
  private next = 0
  /** Worker processes started by this pool, for tests and the summary. */
  started = 0
  /** Largest peak RSS a worker process reported after a file, in bytes. */
  peakRssBytes = 0
  /** Starts given up on (timed out or died while starting) and tried again. */
  failedStarts = 0
  private readonly startOptions: WorkerStartOptions

  constructor(
    private readonly memoryMiB: number,
    startOptions: Partial<WorkerStartOptions> = {},
  ) {
    this.startOptions = { ...DEFAULT_WORKER_START, ...startOptions }
  }

  /**
   * The worker, started when there is none: a start that times out or dies is tried again with twice
   * the time, up to `attempts`; after that, FileWorkerUnavailable names every attempt. `checkpoint`
   * (a cancel) is honoured while it waits.
   */
  private start(checkpoint?: () => void): Promise<Child> {
    if (this.child && alive(this.child)) return Promise.resolve(this.child)
    this.child = undefined
    const parked = takeIdle(this.memoryMiB)
    if (parked) {
      this.child = parked
      return Promise.resolve(parked)
    }
    this.starting ??= (async () => {
      const { timeoutMs, attempts } = this.startOptions
      const tried: string[] = []
      for (let attempt = 0; ; attempt++) {
        const limit = timeoutMs * 2 ** attempt
        try {
          return await this.startOnce(limit, checkpoint)
        } catch (error) {
          if (!(error instanceof FileWorkerUnavailable) || !error.retryable) throw error
          tried.push(`${seconds(limit / 1000)} s: ${error.message}`)
          if (attempt + 1 >= attempts) {
            throw new FileWorkerUnavailable(`the file worker could not start in ${attempts} attempt${attempts === 1 ? '' : 's'} (${tried.join('; ')})`)
          }
          this.failedStarts++
        }
      }
    })().finally(() => {
      this.starting = undefined
    })
    return this.starting
  }

  /** One start of a worker process, abandoned after `timeoutMs` (retryable) or when `checkpoint` throws (that error). */
  private startOnce(timeoutMs: number, checkpoint?: () => void): Promise<Child> {
    return new Promise<Child>((resolve, reject) => {
      let child: Child
      try {
        const entry = fileWorkerModuleUrl
        const config = { entry, tsx: tsxApiUrl(entry), flag: FILE_WORKER_FLAG, memoryMiB: this.memoryMiB, workerBoot: WORKER_BOOT, idleExitMs: HOST_IDLE_EXIT_MS }
        const proc = spawn(process.execPath, [`--max-old-space-size=${HOST_HEAP_MIB}`, '--input-type=module', '-e', HOST_BOOT], {
          stdio: ['ignore', 'inherit', 'pipe', 'ipc'],
          serialization: 'advanced',
          // Electron's binary is node when told so; the app's own flags are not the worker's.
          env: { ...process.env, [CONFIG_ENV]: JSON.stringify(config), ...(process.versions.electron ? { ELECTRON_RUN_AS_NODE: '1' } : {}) },
        })
        child = { process: proc, stderr: new Tail() }
        proc.stderr?.on('data', (chunk: Buffer) => child.stderr.add(chunk))
        // A failed send or kill is an 'error' event: never unhandled; the 'exit' that follows says what happened.
        proc.on('error', (error) => child.stderr.add(`\n${error.message}\n`))
      } catch (error) {
        reject(error instanceof FileWorkerUnavailable ? error : new FileWorkerUnavailable(`the file worker cannot start: ${error instanceof Error ? error.message : String(error)}`))
        return
      }
      const proc = child.process
      const timer = setTimeout(() => fail(`it did not start within ${seconds(timeoutMs / 1000)} s`), timeoutMs)
      const ticker = setInterval(() => {
        try {
          checkpoint?.()
        } catch (error) {
          done()
          proc.kill('SIGKILL')
          reject(error)
        }
      }, CHECKPOINT_MS)
      const onMessage = (m: FromHost) => {
        if (m?.fileWorker !== 1) return
        if (m.type === 'thread-error') return fail(m.message)
        if (m.type === 'over-memory') return fail(`it used ${Math.round(m.rss / 1048576)} MiB while starting, over its ${this.memoryMiB} MiB budget`)
        if (m.type !== 'ready') return
        done()
        this.child = child
        this.started++
        resolve(child)
      }
      const onError = (error: Error) => fail(error.message)
      const onExit = (code: number | null, signal: string | null) => fail(`it exited (${signal ?? `code ${code}`}) while starting${child.stderr.text ? `: ${child.stderr.text.trim().split('\n').slice(-3).join(' ')}` : ''}`)
      const done = () => {
        clearTimeout(timer)
        clearInterval(ticker)
        proc.off('message', onMessage)
        proc.off('error', onError)
        proc.off('exit', onExit)
      }
      const fail = (why: string) => {
        done()
        proc.kill('SIGKILL')
        reject(new FileWorkerUnavailable(why, true))
      }
      proc.on('message', onMessage)
      proc.on('error', onError)
      proc.on('exit', onExit)
    })
  }

  /** Stops the current worker process (the next run starts a fresh one). */
  private kill(): void {
    const child = this.child
    this.child = undefined
    child?.process.kill('SIGKILL')
  }

  /** One run in the worker, ending early on the deadline, on Readability's deadline, on a cancel or when the worker dies. */
  private async runOnce(task: UnitTask, options: ProcessOptions, budgetMs: number, readabilityMs: number | null, hooks: IsolatedHooks): Promise<ProcessedUnit> {
    // The budget counts from the moment the file is handed over: a worker's start-up is not the file's fault.
    const child = await this.start(hooks.checkpoint)
    const proc = child.process
    const deadline = Date.now() + budgetMs
    const id = ++this.next
    return new Promise<ProcessedUnit>((resolve, reject) => {
      let stage: ProcessStage = 'parse'
      let answered = false
      let readabilityTimer: ReturnType<typeof setTimeout> | undefined
      let threadError: string | null = null
      const finish = (outcome: () => void) => {
        clearTimeout(deadlineTimer)
        clearTimeout(readabilityTimer)
        clearInterval(ticker)
        proc.off('message', onMessage)
        proc.off('exit', onExit)
        outcome()
      }
      const endEarly = (ending: Ending) => {
        this.kill()
        finish(() => reject(new EndedEarly(ending)))
      }
      const onMessage = (m: FromHost & { hostMaxRssKb?: number }) => {
        if (m?.fileWorker !== 1 || m.type === 'ready') return
        if (m.type === 'thread-error') {
          threadError = m.code === 'ERR_WORKER_OUT_OF_MEMORY' ? 'ERR_WORKER_OUT_OF_MEMORY' : m.message
          return
        }
        if (m.type === 'over-memory') {
          endEarly({ kind: 'memory', stage })
          return
        }
        if (m.type === 'thread-exit') {
          const memory = threadError !== null && OUT_OF_MEMORY.test(threadError)
          endEarly(memory ? { kind: 'memory', stage } : { kind: 'crash', message: threadError ?? `the worker thread exited with code ${m.code}` })
          return
        }
        if (m.id !== id) return
        answered = true
        if (m.type === 'stage') {
          stage = m.stage
          if (m.stage === 'readability' && readabilityMs !== null) {
            const at = Math.min(deadline, Date.now() + readabilityMs)
            if (at < deadline) readabilityTimer = setTimeout(() => endEarly({ kind: 'readability-slow' }), at - Date.now())
          } else clearTimeout(readabilityTimer)
          hooks.stage?.(m.stage, m.fraction)
        } else if (m.type === 'done') {
          if (m.hostMaxRssKb) this.peakRssBytes = Math.max(this.peakRssBytes, m.hostMaxRssKb * 1024)
          finish(() => resolve(m.result))
        } else {
          const { error } = m
          finish(() =>
            reject(error.reason ? new IngestFileError(error.reason as IngestFailureReason, error.message) : Object.assign(new Error(error.message), { name: error.name })),
          )
        }
      }
      const onExit = (code: number | null, signal: string | null) => {
        this.child = undefined
        const memory = OUT_OF_MEMORY.test(child.stderr.text) || (threadError !== null && OUT_OF_MEMORY.test(threadError))
        const last = child.stderr.text.trim().split('\n').slice(-2).join(' ')
        finish(() =>
          reject(new EndedEarly(memory ? { kind: 'memory', stage } : { kind: 'crash', unanswered: !answered, message: `the worker process exited (${signal ?? `code ${code}`})${last ? `: ${last}` : ''}` })),
        )
      }
      const deadlineTimer = setTimeout(() => endEarly({ kind: 'timeout', stage }), Math.max(0, deadline - Date.now()))
      const ticker = setInterval(() => {
        try {
          hooks.checkpoint?.()
        } catch (error) {
          this.kill()
          finish(() => reject(error))
        }
      }, CHECKPOINT_MS)
      proc.on('message', onMessage)
      proc.on('exit', onExit)
      const message: RunMessage = { type: 'run', id, task, options }
      try {
        proc.send(message)
      } catch (error) {
        endEarly({ kind: 'crash', message: `the worker process did not take the file: ${error instanceof Error ? error.message : String(error)}` })
      }
    })
  }

  /**
   * Parses and prepares a unit in the worker within its budget (`limits`, scaled by `sizeBytes`).
   * Rejects with IngestFileError (the file's own problem), FileBudgetError (out of time or memory),
   * FileWorkerUnavailable (no worker could start), whatever `checkpoint` threw, or an Error when the
   * worker died otherwise.
   */
  async process(task: UnitTask, options: ProcessOptions, limits: FileLimits, sizeBytes: number, hooks: IsolatedHooks = {}): Promise<ProcessedUnit> {
    const budget = fileBudgetSeconds(limits, sizeBytes)
    const html = task.kind === 'file' && /\.x?html?$/i.test(task.relPath)
    let remainingMs = budget * 1000
    let attempt = options
    let restarted = false
    let retried = false
    for (;;) {
      await this.start(hooks.checkpoint)
      const started = Date.now()
      try {
        return await this.runOnce(task, attempt, remainingMs, html && !retried ? budget * 1000 * READABILITY_BUDGET_SHARE : null, hooks)
      } catch (error) {
        if (!(error instanceof EndedEarly)) throw error
        remainingMs -= Date.now() - started
        const { ending } = error
        if (ending.kind === 'crash' && ending.unanswered && !restarted) {
          // A parked worker that ended itself just as it was handed the file: once more, in a fresh one.
          restarted = true
          continue
        }
        const inReadability = ending.kind === 'readability-slow' || ((ending.kind === 'memory' || ending.kind === 'timeout') && ending.stage === 'readability')
        if (inReadability && !retried && remainingMs > 0) {
          const why =
            ending.kind === 'memory'
              ? `Readability ran out of the ${limits.memoryMiB} MiB memory budget on this page`
              : `Readability was still running after ${seconds(budget * READABILITY_BUDGET_SHARE)} s, a third of this file's ${seconds(budget)} s budget`
          attempt = { ...options, parse: { ...options.parse, html: { ...options.parse.html, plainOnly: why } } }
          retried = true
          continue
        }
        if (ending.kind === 'timeout' || ending.kind === 'readability-slow') {
          const stage = ending.kind === 'timeout' ? ending.stage : 'readability'
          throw new FileBudgetError(
            'timeout',
            `timed out after ${seconds(budget)} s (while in ${stage}); the budget is ${limits.timeoutS} s + ${limits.timeoutSPerMiB} s per MiB of the file`,
          )
        }
        if (ending.kind === 'memory') {
          throw new FileBudgetError('out-of-memory', `ran out of its ${limits.memoryMiB} MiB memory budget (while in ${ending.stage})`)
        }
        throw new Error(`the file worker stopped: ${ending.message}`)
      }
    }
  }

  /** Done with the worker: it waits, unreferenced, for the next ingest in this process, and ends after IDLE_MS. */
  async close(): Promise<void> {
    const child = this.child
    this.child = undefined
    if (child) park(this.memoryMiB, child)
  }
}
