import type { HarnessApi } from '../../../preload/contract'
import { channels } from '../../../preload/contract/define'
import { electronApi } from './electron-bridge'
import { httpApi, takeToken } from './http-bridge'

let current: HarnessApi | null = null

/** Picks the transport: the Electron preload bridge when present, HTTP + SSE in a browser. */
export function createApi(win: Window = window): HarnessApi {
  const bridge = (win as unknown as Record<string, unknown>)[channels.bridgeGlobal]
  if (bridge) return electronApi(bridge as Parameters<typeof electronApi>[0])
  return httpApi(takeToken(win.location, win.sessionStorage, win.history))
}

export function provideApi(api: HarnessApi): void {
  current = api
}

export function useApi(): HarnessApi {
  if (!current) throw new Error('API not provided: call provideApi() before mounting')
  return current
}
