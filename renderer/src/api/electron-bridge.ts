import type { Envelope, HarnessApi } from '../../../preload/contract'
import { unwrap } from './errors'

interface PreloadBridge {
  call(route: string, input: unknown): Promise<Envelope<unknown>>
  on(name: string, listener: (payload: unknown) => void): () => void
}

/** The API over Electron IPC, through the preload's contextBridge global. */
export function electronApi(bridge: PreloadBridge): HarnessApi {
  return {
    call: async (route, input) => unwrap(await bridge.call(route, input)) as never,
    on: (event, listener) => bridge.on(event, listener as (p: unknown) => void),
  }
}
