/**
 * The evidence graph over the documents in working memory (candidate pool and curated set): entity
 * -> documents that mention it, from the corpus's mentions table. An entity shared by two or more
 * documents is a bridge (the connective tissue of multi-hop questions); the policy sees the top
 * bridges with their document ids and only a count of single-document entities, which are numerous
 * and individually uninformative. Bridges are ranked by how many documents they join, then by how
 * many of those are curated (bridges touching the evidence first), then by name.
 */
import { docId } from './doc-ids'
import type { StoredChunk } from './outer-tier'

export interface BridgeEntity {
  entity: string
  type: string
  docIds: string[]
  curatedDocs: number
}

export interface EvidenceGraphView {
  /** Top bridges (at most the configured number). */
  bridges: BridgeEntity[]
  /** Entities shared by two or more documents, shown or not. */
  bridgeCount: number
  /** Entities mentioned by exactly one document. */
  singleDocEntities: number
  /** Documents the graph was built over. */
  documents: number
}

export function buildEvidenceGraph(chunks: readonly StoredChunk[], curated: ReadonlySet<number>, top: number): EvidenceGraphView {
  const byEntity = new Map<number, { name: string; type: string; chunks: number[] }>()
  for (const c of chunks) {
    for (const e of c.entities) {
      let entry = byEntity.get(e.id)
      if (!entry) byEntity.set(e.id, (entry = { name: e.name, type: e.type, chunks: [] }))
      if (!entry.chunks.includes(c.chunkId)) entry.chunks.push(c.chunkId)
    }
  }
  const bridges: BridgeEntity[] = []
  let single = 0
  for (const e of byEntity.values()) {
    if (e.chunks.length < 2) {
      single++
      continue
    }
    const sorted = [...e.chunks].sort((a, b) => a - b)
    bridges.push({ entity: e.name, type: e.type, docIds: sorted.map(docId), curatedDocs: sorted.filter((c) => curated.has(c)).length })
  }
  bridges.sort((a, b) => b.docIds.length - a.docIds.length || b.curatedDocs - a.curatedDocs || (a.entity < b.entity ? -1 : a.entity > b.entity ? 1 : 0))
  return { bridges: bridges.slice(0, Math.max(0, top)), bridgeCount: bridges.length, singleDocEntities: single, documents: chunks.length }
}
