import { defineStore } from 'pinia'
import { ref } from 'vue'
import type { DocumentReading } from '../../../preload/contract'
import { useApi } from '../api'
import { attemptInto } from './attempt'

/** The document reader: one document with the sentence and chunk asked for located in its text. */
export const useReaderStore = defineStore('reader', () => {
  const document = ref<DocumentReading | null>(null)
  const loading = ref(false)
  const error = ref<string | null>(null)
  const attempt = attemptInto(error)
  let seq = 0

  async function open(workspaceId: string, documentId: number, at: { sentence?: number; chunkId?: number } = {}): Promise<void> {
    const mine = ++seq
    loading.value = true
    // A different document never shows the previous one's text while it loads or when it fails.
    if (document.value?.documentId !== documentId) document.value = null
    const out = await attempt(() => useApi().call('documents.read', { workspaceId, documentId, ...at }))
    if (mine !== seq) return
    loading.value = false
    document.value = out ?? null
  }

  return { document, loading, error, open }
})
