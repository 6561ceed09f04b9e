import type { EntityReader, RevisionReader, SentenceReader, SentenceWithTitle } from '../../corpus/repository'
import { corpusCacheFor, type CorpusCache } from './corpus-cache'
import { stemSet } from './terms'

/** What the sentence substrate reads of the corpus (a slice of EnvContext.corpus). */
export type SubstrateCorpus = SentenceReader & EntityReader & RevisionReader

/** A sentence with its document's title (main/corpus/repository/sentences.ts). */
export type SentenceRow = SentenceWithTitle

export interface EntityRow {
  id: number
  canonical: string
  name: string
  type: string
  lookupOk: boolean
}

/**
 * Read-only, cached view of the workspace graph for an environment, over the corpus readers: sentences
 * of a chunk, entities of a sentence, entity degrees and links. The caches make the whole-menu previews
 * of every step cheap; they are shared by every environment over the same connection and checked
 * against the corpus revision at each reset (corpus-cache.ts), never within an episode.
 */
export class CorpusView {
  readonly cache: CorpusCache
  private readonly byChunk
  private readonly byId
  private readonly mentionCache
  private readonly entityCache
  private readonly canonicalCache
  private readonly degreeCache
  private readonly linkCache
  private readonly stemCache
  private readonly documentCache

  constructor(private readonly reader: SubstrateCorpus) {
    this.cache = corpusCacheFor(reader)
    ;({ byChunk: this.byChunk, byId: this.byId, mentions: this.mentionCache, entities: this.entityCache, byCanonical: this.canonicalCache, degrees: this.degreeCache, links: this.linkCache, stems: this.stemCache, documents: this.documentCache } = this.cache)
  }

  /** At a reset: drops what was cached when the corpus changed since. */
  refresh(): void {
    this.cache.refresh()
  }

  chunkSentences(chunkId: number): SentenceRow[] {
    let rows = this.byChunk.get(chunkId)
    if (!rows) {
      rows = this.reader.chunkSentences(chunkId)
      for (const r of rows) this.byId.set(r.id, r)
      this.byChunk.set(chunkId, rows)
    }
    return rows
  }

  sentence(id: number): SentenceRow {
    let row = this.byId.get(id)
    if (!row) {
      row = this.reader.sentence(id)
      if (!row) throw new Error(`No sentence with id ${id} in this workspace`)
      this.byId.set(id, row)
    }
    return row
  }

  /** Entities a sentence mentions, in order of first mention, filtered ones (lookup_ok = 0) included. */
  mentions(sentenceId: number): EntityRow[] {
    let rows = this.mentionCache.get(sentenceId)
    if (!rows) {
      const found = this.reader.sentenceEntities(sentenceId)
      rows = found.map((r) => ({ id: r.id, canonical: r.canonical, name: r.name, type: r.type, lookupOk: r.lookupOk === 1 }))
      for (const e of rows) this.entityCache.set(e.id, e)
      this.mentionCache.set(sentenceId, rows)
    }
    return rows
  }

  entity(id: number): EntityRow {
    let row = this.entityCache.get(id)
    if (!row) {
      const r = this.reader.entity(id)
      if (!r) throw new Error(`No entity with id ${id} in this workspace`)
      row = { ...r, lookupOk: r.lookupOk === 1 }
      this.entityCache.set(id, row)
    }
    return row
  }

  /** Entity rows with this canonical key (one per type), filtered ones included. */
  entitiesByCanonical(canonical: string): EntityRow[] {
    let rows = this.canonicalCache.get(canonical)
    if (!rows) {
      rows = this.reader.entitiesByCanonical(canonical).map((r) => ({ id: r.id, canonical: r.canonical, name: r.name, type: r.type, lookupOk: r.lookupOk === 1 }))
      for (const row of rows) this.entityCache.set(row.id, row)
      this.canonicalCache.set(canonical, rows)
    }
    return rows
  }

  /** Sentences that mention the entity anywhere in the corpus. */
  degree(entityId: number): number {
    let n = this.degreeCache.get(entityId)
    if (n === undefined) {
      n = this.reader.entityDegree(entityId)
      this.degreeCache.set(entityId, n)
    }
    return n
  }

  /** Neighbour links in both directions, best first. */
  links(entityId: number): { id: number; score: number }[] {
    let rows = this.linkCache.get(entityId)
    if (!rows) {
      rows = this.reader.entityLinks(entityId)
      this.linkCache.set(entityId, rows)
    }
    return rows
  }

  stems(sentenceId: number): Set<string> {
    let set = this.stemCache.get(sentenceId)
    if (!set) {
      set = stemSet(this.sentence(sentenceId).text)
      this.stemCache.set(sentenceId, set)
    }
    return set
  }

  /** The documents named after the entity, and every document about it or mentioning it; ascending ids. */
  entityDocuments(entityIds: readonly number[], name: string): { titled: number[]; all: number[] } {
    const key = `${entityIds.join(',')}\u0000${name}`
    let docs = this.documentCache.get(key)
    if (!docs) {
      const rows = this.reader.entityDocuments(name, entityIds)
      docs = { titled: [...new Set(rows.filter((r) => r.titled === 1).map((r) => r.id))], all: [...new Set(rows.map((r) => r.id))] }
      this.documentCache.set(key, docs)
    }
    return docs
  }
}
