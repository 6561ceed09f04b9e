import type { Ref } from 'vue'
import { useApi } from '../api'
import type { attemptInto } from './attempt'

/** A sentence that can be picked as gold: from search results or from the document reader. */
export interface PickableSentence {
  sentenceId: number
  documentId: number
  chunkId: number
  ord: number
  title: string
  text: string
}

/** Sentences to pick as a question's gold: found by a search, or handed over by the document reader. */
export function useGoldSentences(workspaceId: Ref<string | null>, attempt: ReturnType<typeof attemptInto>) {
  const api = () => useApi()

  /** Sentences of the chunks a search finds, to pick as gold. */
  async function findSentences(query: string, k = 5): Promise<PickableSentence[]> {
    const id = workspaceId.value
    if (!id || query.trim() === '') return []
    const out = await attempt(async () => {
      const { hits } = await api().call('corpus.search', { workspaceId: id, query, k, mode: 'bm25' })
      const chunks = await Promise.all(hits.map((h) => api().call('corpus.chunk', { workspaceId: id, chunkId: h.chunkId })))
      return chunks.flatMap((c) => c.sentences.map((s) => ({ sentenceId: s.sentenceId, documentId: c.documentId, chunkId: c.chunkId, ord: s.ord, title: c.title, text: s.text })))
    })
    return out ?? []
  }

  /** One sentence of a chunk (a link back from the document reader: ?addSentence=ID&chunk=ID). */
  async function sentenceOf(chunkId: number, sentenceId: number): Promise<PickableSentence | undefined> {
    const id = workspaceId.value
    if (!id) return undefined
    const c = await attempt(() => api().call('corpus.chunk', { workspaceId: id, chunkId }))
    const s = c?.sentences.find((x) => x.sentenceId === sentenceId)
    return c && s ? { sentenceId: s.sentenceId, documentId: c.documentId, chunkId: c.chunkId, ord: s.ord, title: c.title, text: s.text } : undefined
  }

  return { findSentences, sentenceOf }
}
