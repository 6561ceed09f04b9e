/**
 * Electron preload: the only bridge between the sandboxed renderer and the backend.
 * It forwards calls to one IPC channel and relays events; the backend validates everything.
 * Imports only the zod-free part of the contract so the sandboxed bundle stays small.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron'
import { channels, type Envelope } from './contract/define'

type Listener = (payload: unknown) => void
const listeners = new Map<string, Set<Listener>>()

ipcRenderer.on(channels.ipcEvent, (_event: IpcRendererEvent, name: string, payload: unknown) => {
  for (const listener of listeners.get(name) ?? []) listener(payload)
})

contextBridge.exposeInMainWorld(channels.bridgeGlobal, {
  call: (route: string, input: unknown): Promise<Envelope<unknown>> => ipcRenderer.invoke(channels.ipcCall, route, input),
  on: (name: string, listener: Listener): (() => void) => {
    const set = listeners.get(name) ?? new Set<Listener>()
    set.add(listener)
    listeners.set(name, set)
    return () => set.delete(listener)
  },
})
