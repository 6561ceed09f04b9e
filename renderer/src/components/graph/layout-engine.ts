import { computeLayout } from './force-layout'
import type { LayoutEngine, LayoutRequest, Positions } from './types'

/** Messages to and from layout.worker.ts. */
export type LayoutWorkerRequest = { id: number; request: LayoutRequest }
export type LayoutWorkerReply =
  | { id: number; type: 'frame'; positions: Positions }
  | { id: number; type: 'done'; positions: Positions }
  | { id: number; type: 'error'; message: string }

/** Layout on the calling thread: for tests, and wherever module workers cannot start. */
export function mainThreadLayout(): LayoutEngine {
  return {
    async run(request) {
      return computeLayout(request)
    },
    dispose() {},
  }
}

class WorkerUnavailable extends Error {}

/** Layout in a module worker, so a few hundred nodes settling never stalls scrolling or typing. */
function workerLayout(worker: Worker): LayoutEngine {
  let next = 0
  const pending = new Map<number, { resolve: (p: Positions) => void; reject: (e: Error) => void; onFrame?: (p: Positions) => void }>()
  const failAll = (err: Error): void => {
    for (const p of pending.values()) p.reject(err)
    pending.clear()
  }
  worker.addEventListener('message', (event: MessageEvent<LayoutWorkerReply>) => {
    const reply = event.data
    const waiting = pending.get(reply.id)
    if (!waiting) return
    if (reply.type === 'frame') waiting.onFrame?.(reply.positions)
    else {
      pending.delete(reply.id)
      if (reply.type === 'done') waiting.resolve(reply.positions)
      else waiting.reject(new Error(reply.message))
    }
  })
  // A worker that fails to load (file:// pages, strict hosts) reports here, not at construction.
  worker.addEventListener('error', (event) => {
    event.preventDefault()
    failAll(new WorkerUnavailable(event.message || 'layout worker failed'))
  })
  worker.addEventListener('messageerror', () => failAll(new WorkerUnavailable('layout worker message could not be read')))
  return {
    run(request, onFrame) {
      const id = ++next
      return new Promise<Positions>((resolve, reject) => {
        pending.set(id, { resolve, reject, onFrame })
        worker.postMessage({ id, request } satisfies LayoutWorkerRequest)
      })
    },
    dispose() {
      failAll(new Error('layout disposed'))
      worker.terminate()
    },
  }
}

function startWorker(): LayoutEngine | null {
  if (typeof Worker === 'undefined') return null
  try {
    // This exact form lets Vite bundle the worker as its own module chunk.
    return workerLayout(new Worker(new URL('./layout.worker.ts', import.meta.url), { type: 'module' }))
  } catch {
    return null
  }
}

/** A worker when one starts, the main thread otherwise, and for good after the worker fails. */
export function createLayoutEngine(): LayoutEngine {
  const fallback = mainThreadLayout()
  let worker = startWorker()
  return {
    async run(request, onFrame) {
      if (worker) {
        try {
          return await worker.run(request, onFrame)
        } catch (err) {
          if (!(err instanceof WorkerUnavailable)) throw err
          worker.dispose()
          worker = null
        }
      }
      return fallback.run(request, onFrame)
    },
    dispose() {
      worker?.dispose()
      worker = null
    },
  }
}
