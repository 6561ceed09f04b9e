import { defineStore } from 'pinia'
import { ref } from 'vue'
import type { AppInfo } from '../../../preload/contract'
import { useApi } from '../api'
import { attemptInto } from './attempt'

export const useAppStore = defineStore('app', () => {
  const info = ref<AppInfo | null>(null)
  const error = ref<string | null>(null)
  const attempt = attemptInto(error)

  async function load(): Promise<void> {
    const out = await attempt(() => useApi().call('app.info', {}))
    if (out) info.value = out
  }

  /** The native folder picker (Electron); throws for the caller's own error line (FolderField). */
  async function pickFolder(title?: string): Promise<string | null> {
    return (await useApi().call('system.pickFolder', { title })).path
  }

  return { info, error, load, pickFolder }
})
