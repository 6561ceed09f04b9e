/**
 * A worker thread of the environment server: opens the workspace read-only, holds its own episodes
 * (EpisodeSessions) and answers the router's calls in order of arrival. A model answerer stays in the
 * HTTP thread; this thread asks it over the port (one model in memory however many workers).
 */
import { parentPort, workerData } from 'node:worker_threads'
import { openSqlite } from '../db/open'
import { type Answerer } from '../harness'
import { EnvServerError, EpisodeSessions } from './sessions'
import { v8Collect } from './idle-collector'
import { TEXT_OPS, type WorkerInit, type WorkerReply, type WorkerRequest } from './lanes'

const port = parentPort!
const init = workerData as WorkerInit
const post = (m: WorkerReply) => port.postMessage(m)

const asked = new Map<number, { resolve: (v: any) => void; reject: (e: Error) => void }>()
let askSeq = 0
const ask = (op: 'answer' | 'score', args: [string, string[], string?]) =>
  new Promise<any>((resolve, reject) => {
    asked.set(++askSeq, { resolve, reject })
    post({ ask: askSeq, op, args })
  })
const remoteAnswerer = (name: string): Answerer => ({
  name,
  lexical: false,
  answer: (question, evidence) => ask('answer', [question, evidence]),
  score: (question, evidence, answer) => ask('score', [question, evidence, answer]),
})

let sessions: EpisodeSessions
try {
  const raw = openSqlite(init.file, { readonly: true })
  sessions = new EpisodeSessions(raw, { ...init.sessions, ...(init.answerer ? { answerer: remoteAnswerer(init.answerer.name) } : {}) })
} catch (err) {
  post({ fatal: (err as Error).message })
  throw err
}

let collect: (() => void) | null = null

port.on('message', async (m: WorkerRequest) => {
  if ('collect' in m) {
    collect ??= v8Collect()
    collect()
    return
  }
  if ('answered' in m) {
    const p = asked.get(m.answered)
    asked.delete(m.answered)
    if (m.ok) p?.resolve(m.value)
    else p?.reject(new Error(m.message))
    return
  }
  try {
    const value = await (sessions[m.op] as (...a: unknown[]) => unknown).apply(sessions, m.args)
    post({ seq: m.seq, ok: true, value: TEXT_OPS.has(m.op) ? JSON.stringify(value) : value })
  } catch (err) {
    const e = err as Error
    post({ seq: m.seq, ok: false, error: err instanceof EnvServerError ? { status: err.status, message: err.message, field: err.field } : { message: e.stack ?? e.message } })
  }
})
post({ ready: true })
