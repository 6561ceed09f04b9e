import type { HarnessApi } from '../../../preload/contract'
import { channels } from '../../../preload/contract/define'
import { electronApi } from './electron-bridge'
import { httpApi, takeToken } from './http-bridge'

let current: HarnessApi | null = null
let downloadToken: string | null = null

/** Picks the transport: the Electron preload bridge when present, HTTP + SSE in a browser. */
export function createApi(win: Window = window): HarnessApi {
  const bridge = (win as unknown as Record<string, unknown>)[channels.bridgeGlobal]
  if (bridge) return electronApi(bridge as Parameters<typeof electronApi>[0])
  downloadToken = takeToken(win.location, win.sessionStorage, win.history)
  return httpApi(downloadToken)
}

/**
 * Browser mode: the URL that downloads a finished export job's file (the server checks the token and
 * that the file lies in the data folder). Null in the desktop app, where the file is already on disk.
 */
export function downloadUrl(jobId: string): string | null {
  return downloadToken ? `/api/download/${encodeURIComponent(jobId)}?token=${encodeURIComponent(downloadToken)}` : null
}

export function provideApi(api: HarnessApi): void {
  current = api
}

export function useApi(): HarnessApi {
  if (!current) throw new Error('API not provided: call provideApi() before mounting')
  return current
}
