import { BrowserWindow, ipcMain, type IpcMainInvokeEvent } from 'electron'
import { channels } from '../../preload/contract'
import { dispatch, type Handlers } from '../api/dispatch'
import type { EventBus } from '../events/bus'

/** Electron transport: one invoke channel for calls, one send channel for events. */
export function registerIpc(handlers: Handlers, events: EventBus, isTrustedSender: (e: IpcMainInvokeEvent) => boolean): () => void {
  ipcMain.handle(channels.ipcCall, async (event, route: unknown, input: unknown) => {
    if (!isTrustedSender(event)) return { ok: false, error: { code: 'UNAUTHORIZED', message: 'Untrusted sender' } }
    return dispatch(handlers, route, input)
  })
  const unsubscribe = events.subscribe((name, payload) => {
    for (const win of BrowserWindow.getAllWindows()) {
      if (!win.isDestroyed()) win.webContents.send(channels.ipcEvent, name, payload)
    }
  })
  return () => {
    ipcMain.removeHandler(channels.ipcCall)
    unsubscribe()
  }
}
