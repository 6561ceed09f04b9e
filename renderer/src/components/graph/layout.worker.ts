/// Module worker: runs force layouts off the UI thread (see layout-engine.ts).
import { computeLayout } from './force-layout'
import type { LayoutWorkerReply, LayoutWorkerRequest } from './layout-engine'

const reply = (message: LayoutWorkerReply): void => self.postMessage(message)

self.addEventListener('message', (event: MessageEvent<LayoutWorkerRequest>) => {
  const { id, request } = event.data
  try {
    const positions = computeLayout(request, (frame) => reply({ id, type: 'frame', positions: frame }))
    reply({ id, type: 'done', positions })
  } catch (err) {
    reply({ id, type: 'error', message: err instanceof Error ? err.message : String(err) })
  }
})
