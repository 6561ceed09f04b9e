/**
 * The file worker: a worker thread that parses and prepares one unit at a time (processUnit) and posts
 * the result back, so that the ingest can stop it when a file runs past its time or memory budget: a
 * synchronous parse (Readability, a regular expression, a tokenizer) cannot be interrupted from inside
 * its own thread. isolation.ts starts it, inside a child process of its own, with this module's URL
 * and a flag in workerData; everywhere else importing this module does nothing.
 */
import { isMainThread, parentPort, workerData, type MessagePort } from 'node:worker_threads'
import { IngestFileError } from '../corpus/types'
import { DEFAULT_CHUNKING } from '../corpus/chunker'
import { prepareDocuments } from './prepare'
import { processUnit, type ProcessedUnit, type ProcessOptions, type ProcessStage, type UnitTask } from './process'

/** workerData key that makes this module serve (set by isolation.ts). */
export const FILE_WORKER_FLAG = 'harnessLabIngestFileWorker'

/**
 * This module's URL, the worker's entry: the .ts source under tsx and vitest, the bundle chunk that
 * holds this code in the built app (whatever else that chunk runs, only this module answers).
 */
export const fileWorkerModuleUrl: string = import.meta.url

export interface RunMessage {
  type: 'run'
  id: number
  task: UnitTask
  options: ProcessOptions
}

export interface WorkerError {
  name: string
  message: string
  /** IngestFileError's reason. */
  reason?: string
}

/** Every message of the file worker carries `fileWorker: 1`; anything else on the port is not from it. */
export type FromFileWorker = { fileWorker: 1 } & (
  | { type: 'ready' }
  | { type: 'stage'; id: number; stage: ProcessStage; fraction: number }
  | { type: 'done'; id: number; result: ProcessedUnit }
  | { type: 'failed'; id: number; error: WorkerError }
)

function serve(port: MessagePort): void {
  const post = (message: FromFileWorker) => port.postMessage(message)
  port.on('message', (message: RunMessage) => {
    if (message?.type !== 'run') return
    const { id, task, options } = message
    processUnit(task, options, { stage: (stage, fraction) => post({ fileWorker: 1, type: 'stage', id, stage, fraction }) }).then(
      // The packed arrays move to the parent without a copy.
      (result) => port.postMessage({ fileWorker: 1, type: 'done', id, result } satisfies FromFileWorker, result.documents.flatMap((d) => [d.sentences.buffer as ArrayBuffer, d.mentions.buffer as ArrayBuffer])),
      (error: unknown) => {
        const e = error instanceof Error ? error : new Error(String(error))
        post({ fileWorker: 1, type: 'failed', id, error: { name: e.name, message: e.message, ...(e instanceof IngestFileError ? { reason: e.reason } : {}) } })
      },
    )
  })
  warmUp()
  post({ fileWorker: 1, type: 'ready' })
}

/**
 * One tiny document through the sentence and entity pipeline before saying ready: its first use
 * builds lexicons and compiles code, which would otherwise count against the first file's budget
 * (a one-line file timed out at 1 s on a loaded machine).
 */
function warmUp(): void {
  prepareDocuments([{ externalId: 'warm-up', title: 'Warm-up', text: 'Ada Lovelace met Charles Babbage in London in 1833. They wrote about the engine.', source: { path: 'warm-up' } }], DEFAULT_CHUNKING)
}

if (!isMainThread && parentPort && (workerData as Record<string, unknown> | null)?.[FILE_WORKER_FLAG] === true) serve(parentPort)
