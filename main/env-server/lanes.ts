/**
 * Where episodes run: a lane is the HTTP thread itself (--workers 0, and the inline lane of a pool, see
 * router.ts) or one worker thread holding its own EpisodeSessions over its own read-only connection
 * (worker.ts). Every episode is pinned to one lane; the router (router.ts) only routes. Create, step and
 * retrieve answer JSON text made in the lane (TEXT_OPS): a string crosses threads as one copy, where a
 * structured clone of the reply object cost more than JSON.stringify itself, and the HTTP thread then
 * sends the text as it is instead of serialising again. A refusal keeps its status and field.
 */
import { Worker } from 'node:worker_threads'
import type SQLite from 'better-sqlite3'
import type { Answerer } from '../harness'
import type { WorkerEntry } from '../jobs/manager'
import type { CreateEpisodeBody, FinishBody, StepBody } from './wire'
import type { RetrieveBody } from './retrieve'
import { EnvServerError, EpisodeSessions, type Finished, type SessionOptions } from './sessions'

export interface LaneCalls {
  /** The create answer as JSON text. */
  create(body: CreateEpisodeBody, id: string, keep: boolean): Promise<string>
  /** The step answer as JSON text. */
  step(id: string, body: StepBody): Promise<string>
  finish(id: string, body: FinishBody): Promise<Finished>
  remove(id: string): Promise<void>
  /** The retrieve answer as JSON text. */
  retrieve(body: RetrieveBody): Promise<string>
}
export type LaneOp = keyof LaneCalls

/** The calls whose answers a lane serialises itself (the finish answer is completed by the router, so it stays an object). */
export const TEXT_OPS: ReadonlySet<LaneOp> = new Set<LaneOp>(['create', 'step', 'retrieve'])

export interface Lane extends LaneCalls {
  readonly name: string
  /** Open episodes pinned here (kept by the router). */
  open: number
  close(): Promise<void>
}

/**
 * How a worker thread is started, in the job queue's shape: the built file, or the jobs layer's tsx shim
 * with worker.ts as its workerData (CLI, tests); the router supplies it, so a lane names no file.
 */
export type EnvWorkerEntry = WorkerEntry

/** The options a worker thread gets (structured-clone safe): the answerer is proxied when it is a model. */
export interface WorkerInit {
  file: string
  sessions: Omit<SessionOptions, 'answerer'>
  answerer: { name: string } | null
}

export type WorkerRequest = { seq: number; op: LaneOp; args: unknown[] } | { answered: number; ok: boolean; value?: unknown; message?: string } | { collect: true }
export type WorkerReply =
  | { seq: number; ok: true; value: unknown }
  | { seq: number; ok: false; error: { status?: number; message: string; field?: string } }
  | { ask: number; op: 'answer' | 'score'; args: [string, string[], string?] }
  | { ready: true }
  | { fatal: string }

/** The sessions in the HTTP thread: what --workers 0 runs, and a pool's inline lane. Same JSON text as a worker answers. */
export class ThreadLane implements Lane {
  open = 0
  readonly sessions: EpisodeSessions
  constructor(raw: SQLite.Database, options: SessionOptions, readonly name = 'main') {
    this.sessions = new EpisodeSessions(raw, options)
  }
  async create(body: CreateEpisodeBody, id: string, keep: boolean) {
    return JSON.stringify(await this.sessions.create(body, id, keep))
  }
  async step(id: string, body: StepBody) {
    return JSON.stringify(await this.sessions.step(id, body))
  }
  finish(id: string, body: FinishBody) {
    return this.sessions.finish(id, body)
  }
  async remove(id: string) {
    this.sessions.remove(id)
  }
  async retrieve(body: RetrieveBody) {
    return JSON.stringify(await this.sessions.retrieve(body))
  }
  async close() {
    this.sessions.close()
  }
}

/** One worker thread; `onExit` tells the router when it stopped unasked (its episodes are gone). */
export class WorkerLane implements Lane {
  open = 0
  private readonly worker: Worker
  private readonly pending = new Map<number, { resolve: (v: any) => void; reject: (e: Error) => void }>()
  private seq = 0
  private closing = false
  readonly ready: Promise<void>

  constructor(readonly name: string, entry: EnvWorkerEntry, init: WorkerInit, answerer: Answerer | undefined, heapMb: number | undefined, onExit: (lane: WorkerLane, why: string) => void) {
    this.worker = new Worker(entry.url, { workerData: { ...entry.workerData, ...init }, ...(heapMb ? { resourceLimits: { maxOldGenerationSizeMb: heapMb } } : {}) })
    this.ready = new Promise((resolve, reject) => {
      const early = (err: Error) => reject(err)
      this.worker.once('error', early)
      this.worker.on('message', (m: WorkerReply) => {
        if ('ready' in m) {
          this.worker.off('error', early)
          resolve()
        } else if ('fatal' in m) reject(new Error(`environment-server worker ${name}: ${m.fatal}`))
        else if ('ask' in m) void this.answer(m, answerer)
        else this.settle(m)
      })
    })
    this.worker.on('error', (err) => this.failAll(`worker ${name} failed: ${err.message}`))
    this.worker.on('exit', (code) => {
      this.failAll(`worker ${name} stopped (exit ${code})`)
      if (!this.closing) onExit(this, `exit ${code}`)
    })
  }

  create(body: CreateEpisodeBody, id: string, keep: boolean) {
    return this.call('create', [body, id, keep]) as Promise<string>
  }
  step(id: string, body: StepBody) {
    return this.call('step', [id, body]) as Promise<string>
  }
  finish(id: string, body: FinishBody) {
    return this.call('finish', [id, body]) as Promise<Finished>
  }
  async remove(id: string) {
    await this.call('remove', [id])
  }
  retrieve(body: RetrieveBody) {
    return this.call('retrieve', [body]) as Promise<string>
  }

  /** A full garbage collection of the worker's heap (idle-collector.ts); not answered. */
  collect(): void {
    if (!this.closing) this.worker.postMessage({ collect: true } satisfies WorkerRequest)
  }

  async close(): Promise<void> {
    this.closing = true
    await this.worker.terminate()
  }

  private call(op: LaneOp, args: unknown[]): Promise<unknown> {
    const seq = ++this.seq
    return new Promise((resolve, reject) => {
      this.pending.set(seq, { resolve, reject })
      this.worker.postMessage({ seq, op, args } satisfies WorkerRequest)
    })
  }

  private settle(m: Extract<WorkerReply, { seq: number }>): void {
    const p = this.pending.get(m.seq)
    if (!p) return
    this.pending.delete(m.seq)
    if (m.ok) p.resolve(m.value)
    else p.reject(m.error.status ? new EnvServerError(m.error.status, m.error.message, m.error.field) : new Error(m.error.message))
  }

  /** A model answerer stays in the HTTP thread (one copy of the model); workers ask it. */
  private async answer(m: Extract<WorkerReply, { ask: number }>, answerer: Answerer | undefined): Promise<void> {
    try {
      if (!answerer) throw new Error('no answerer in the HTTP thread')
      const [question, evidence, gold] = m.args
      const value = m.op === 'answer' ? await answerer.answer(question, evidence) : await answerer.score(question, evidence, gold ?? '')
      this.worker.postMessage({ answered: m.ask, ok: true, value } satisfies WorkerRequest)
    } catch (err) {
      this.worker.postMessage({ answered: m.ask, ok: false, message: (err as Error).message } satisfies WorkerRequest)
    }
  }

  private failAll(message: string): void {
    for (const p of this.pending.values()) p.reject(new EnvServerError(503, `${message}: its open episodes are lost, create them again`, 'id'))
    this.pending.clear()
  }
}
