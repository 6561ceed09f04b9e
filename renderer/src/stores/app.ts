import { defineStore } from 'pinia'
import { ref } from 'vue'
import type { AppInfo } from '../../../preload/contract'
import { useApi } from '../api'
import { attemptInto } from './attempt'

export const useAppStore = defineStore('app', () => {
  const info = ref<AppInfo | null>(null)
  const error = ref<string | null>(null)
  /** Browser mode: why live updates stopped or wait on a reconnect; null while they flow. */
  const streamProblem = ref<string | null>(null)
  const attempt = attemptInto(error)

  async function load(): Promise<void> {
    const out = await attempt(() => useApi().call('app.info', {}))
    if (out) info.value = out
  }

  /** The native folder picker (Electron); throws for the caller's own error line (FolderField). */
  async function pickFolder(title?: string): Promise<string | null> {
    return (await useApi().call('system.pickFolder', { title })).path
  }

  /** Follows the event stream's state for as long as the caller's scope lives; returns the unsubscribe. */
  function watchStream(): () => void {
    return useApi().onStreamProblem?.((problem) => (streamProblem.value = problem)) ?? (() => undefined)
  }

  return { info, error, streamProblem, load, pickFolder, watchStream }
})
