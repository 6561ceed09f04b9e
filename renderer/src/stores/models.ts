import { defineStore } from 'pinia'
import { ref } from 'vue'
import type { EnvServerStatus, ModelInfo, RouteInput, RouteOutput } from '../../../preload/contract'
import { useApi } from '../api'
import { attemptInto } from './attempt'
import { liveSubscriptions } from './live'
import { useJobsStore } from './jobs'

/**
 * The Models page: registered GGUF models, the llama.cpp runtime, register / load / unload / remove /
 * download. `busy` names the action in flight ("add", "load:<id>", ...); the list is re-read after
 * every action and, while held live, whenever a job loads or releases a model.
 */
export const useModelsStore = defineStore('models', () => {
  const models = ref<ModelInfo[]>([])
  const runtime = ref<RouteOutput<'models.runtime'> | null>(null)
  const busy = ref<string | null>(null)
  const error = ref<string | null>(null)
  const attempt = attemptInto(error)

  async function refresh(): Promise<void> {
    const list = await attempt(() => useApi().call('models.list', {}))
    if (list) models.value = list
  }

  const { live } = liveSubscriptions(() => [useApi().on('job.models', () => void refresh())])

  /** Runs one action with `busy` set to its label, then re-reads the list (the action's error wins over the list's). */
  async function act<T>(label: string, fn: () => Promise<T>): Promise<T | undefined> {
    busy.value = label
    const out = await attempt(fn)
    const failed = error.value
    busy.value = null
    const list = await useApi().call('models.list', {}).catch(() => null)
    if (list) models.value = list
    error.value = failed
    return out
  }

  const load = async (): Promise<void> => {
    await act('list', async () => {
      runtime.value = await useApi().call('models.runtime', {})
    })
  }
  const add = (path: string) => act('add', () => useApi().call('models.add', { path }))
  /** The native file picker (Electron); null when nothing was chosen. */
  const browse = async (): Promise<string | null> => (await act('browse', () => useApi().call('system.pickFile', { title: 'Choose a GGUF model', extensions: ['gguf'] })))?.path ?? null
  const loadModel = (id: string) =>
    act(`load:${id}`, async () => {
      await useApi().call('models.load', { id })
      runtime.value = await useApi().call('models.runtime', {})
    })
  const unload = (id: string) => act(`unload:${id}`, () => useApi().call('models.unload', { id }))
  const remove = (id: string) => act(`remove:${id}`, () => useApi().call('models.remove', { id }))
  const download = (uri: string) => act('download', () => useJobsStore().start({ kind: 'model.download', params: { uri } }))

  const registerLora = (adapterId: string, baseId: string, scale: number) => act(`lora:${adapterId}`, () => useApi().call('models.registerLora', { adapterId, baseId, scale }))
  const unregisterLora = (adapterId: string, baseId: string) => act(`lora:${adapterId}`, () => useApi().call('models.unregisterLora', { adapterId, baseId }))

  // ── the environment server (Policies page): start / stop, URL, token and live counters ──────────
  const envServer = ref<EnvServerStatus | null>(null)
  const envWorkspaces = ref<Array<{ id: string; name: string }>>([])
  const envError = ref<string | null>(null)
  const envAttempt = attemptInto(envError)
  const envBusy = ref(false)
  async function readEnvServer(): Promise<void> {
    const s = await envAttempt(() => useApi().call('envServer.status', {}))
    if (s) envServer.value = s
  }
  async function loadEnvServer(): Promise<void> {
    const list = await envAttempt(() => useApi().call('workspace.list', {}))
    if (list) envWorkspaces.value = list.map((w) => ({ id: w.id, name: w.name }))
    await readEnvServer()
  }
  async function envAct(fn: () => Promise<EnvServerStatus>): Promise<void> {
    envBusy.value = true
    const s = await envAttempt(fn)
    envBusy.value = false
    if (s) envServer.value = s
  }
  const startEnvServer = (input: RouteInput<'envServer.start'>) => envAct(() => useApi().call('envServer.start', input))
  const stopEnvServer = () => envAct(() => useApi().call('envServer.stop', {}))
  /**
   * Re-reads the counters every `ms` while the server runs (they change with every trainer request, far
   * more often than an event would be worth); returns the stop for the component's scope.
   */
  function followEnvServer(ms = 1000): () => void {
    const timer = setInterval(() => {
      if (envServer.value?.running) void readEnvServer()
    }, ms)
    return () => clearInterval(timer)
  }

  return {
    models, runtime, busy, error, live, refresh, load, add, browse, loadModel, unload, remove, download, registerLora, unregisterLora,
    envServer, envWorkspaces, envError, envBusy, loadEnvServer, startEnvServer, stopEnvServer, followEnvServer,
  }
})
