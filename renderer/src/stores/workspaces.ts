import { defineStore } from 'pinia'
import { computed, ref } from 'vue'
import type { Workspace } from '../../../preload/contract'
import { useApi } from '../api'
import { attemptInto } from './attempt'

export const useWorkspacesStore = defineStore('workspaces', () => {
  const list = ref<Workspace[]>([])
  const loaded = ref(false)
  const error = ref<string | null>(null)
  const current = ref<Workspace | null>(null)

  const byId = computed(() => new Map(list.value.map((w) => [w.id, w])))

  const attempt = attemptInto(error)

  async function refresh(): Promise<void> {
    await attempt(async () => {
      list.value = await useApi().call('workspace.list', {})
      loaded.value = true
    })
  }

  async function create(name: string): Promise<Workspace | undefined> {
    const w = await attempt(() => useApi().call('workspace.create', { name }))
    if (w) await refresh()
    return w
  }

  async function open(id: string): Promise<Workspace | undefined> {
    const w = await attempt(() => useApi().call('workspace.get', { id }))
    current.value = w ?? null
    return w
  }

  async function rename(id: string, name: string): Promise<boolean> {
    const w = await attempt(() => useApi().call('workspace.rename', { id, name }))
    if (!w) return false
    if (current.value?.id === id) current.value = w
    await refresh()
    return true
  }

  async function remove(id: string, confirmName: string): Promise<boolean> {
    const ok = await attempt(() => useApi().call('workspace.delete', { id, confirmName }))
    if (!ok) return false
    if (current.value?.id === id) current.value = null
    await refresh()
    return true
  }

  return { list, loaded, error, current, byId, refresh, create, open, rename, remove }
})
