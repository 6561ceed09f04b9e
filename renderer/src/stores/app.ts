import { defineStore } from 'pinia'
import { ref } from 'vue'
import type { AppInfo } from '../../../preload/contract'
import { useApi } from '../api'

export const useAppStore = defineStore('app', () => {
  const info = ref<AppInfo | null>(null)
  const error = ref<string | null>(null)

  async function load(): Promise<void> {
    try {
      info.value = await useApi().call('app.info', {})
      error.value = null
    } catch (err) {
      error.value = err instanceof Error ? err.message : String(err)
    }
  }

  async function pickFolder(title?: string): Promise<string | null> {
    return (await useApi().call('system.pickFolder', { title })).path
  }

  return { info, error, load, pickFolder }
})
