import type { RouteOutput } from '../../../preload/contract'
import { useApi } from '../api'
import type { Episode } from './trajectory'

/** Where the sentences and chunks an episode shows lie: their documents, for the reader links. */
export interface DocumentLocations {
  sentences: ReadonlyMap<number, { documentId: number; ord: number }>
  chunks: ReadonlyMap<number, number>
}

export const noLocations = (): DocumentLocations => ({ sentences: new Map(), chunks: new Map() })

/** Sentence and chunk ids an episode shows: committed sentences, curated and pooled documents (Harness-1 ids are `D<chunk>`). */
function shownIds(ep: Episode): { sentenceIds: number[]; chunkIds: number[] } {
  const sentences = new Set<number>()
  const chunks = new Set<number>()
  const chunkOf = (id: string): void => {
    const m = /^D(\d+)$/.exec(id)
    if (m) chunks.add(Number(m[1]))
  }
  for (const st of ep.steps) {
    for (const c of st.view.committed ?? []) sentences.add(c.sentenceId)
    for (const c of st.view.memory?.curated ?? []) chunkOf(c.id)
    for (const c of st.view.memory?.pool ?? []) chunkOf(c.id)
  }
  return { sentenceIds: [...sentences].slice(0, 5000), chunkIds: [...chunks].slice(0, 5000) }
}

/** The documents of the sentences and chunks the episode shows; null when it shows none or the lookup fails (the links are only left out). */
export async function locateShown(w: string, ep: Episode): Promise<RouteOutput<'documents.locate'> | null> {
  const ids = shownIds(ep)
  if (ids.sentenceIds.length === 0 && ids.chunkIds.length === 0) return null
  return useApi().call('documents.locate', { workspaceId: w, ...ids }).catch(() => null)
}

/** `known` with the located sentences and chunks added. */
export function withLocated(known: DocumentLocations, located: RouteOutput<'documents.locate'>): DocumentLocations {
  const sentences = new Map(known.sentences)
  const chunks = new Map(known.chunks)
  for (const s of located.sentences) sentences.set(s.sentenceId, { documentId: s.documentId, ord: s.ord })
  for (const c of located.chunks) chunks.set(c.chunkId, c.documentId)
  return { sentences, chunks }
}
