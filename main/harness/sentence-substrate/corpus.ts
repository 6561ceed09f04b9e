import type SQLite from 'better-sqlite3'
import { stemSet } from './terms'

export interface SentenceRow {
  id: number
  documentId: number
  /** The sentence's home chunk. */
  chunkId: number
  /** Index of the sentence in its document (gold supporting facts refer to it). */
  ord: number
  title: string
  text: string
}

export interface EntityRow {
  id: number
  canonical: string
  name: string
  type: string
  lookupOk: boolean
}

/**
 * Read-only, cached view of the workspace graph for one environment instance: sentences of a chunk,
 * entities of a sentence, entity degrees and links. The corpus is assumed not to change while an
 * environment lives (an evaluation or training job creates its own); the caches make the whole-menu
 * previews of every step cheap.
 */
export class CorpusView {
  private readonly byChunk = new Map<number, SentenceRow[]>()
  private readonly byId = new Map<number, SentenceRow>()
  private readonly mentionCache = new Map<number, EntityRow[]>()
  private readonly entityCache = new Map<number, EntityRow>()
  private readonly degreeCache = new Map<number, number>()
  private readonly linkCache = new Map<number, { id: number; score: number }[]>()
  private readonly stemCache = new Map<number, Set<string>>()
  private readonly documentCache = new Map<string, { titled: number[]; all: number[] }>()
  private readonly s: Record<'chunkSentences' | 'sentence' | 'mentions' | 'degree' | 'links' | 'entity' | 'entityDocuments' | 'byCanonical', SQLite.Statement>

  constructor(raw: SQLite.Database) {
    const sentenceColumns = 's.id, s.document_id as documentId, s.chunk_id as chunkId, s.ord, d.title, s.text'
    this.s = {
      // By character span, as the chunk readers do: overlapping chunks share the sentences they both hold.
      chunkSentences: raw.prepare(
        `select ${sentenceColumns} from chunks c join sentences s on s.document_id = c.document_id
           and s.start_char < c.end_char and s.end_char > c.start_char
         join documents d on d.id = s.document_id where c.id = ? order by s.ord`,
      ),
      sentence: raw.prepare(`select ${sentenceColumns} from sentences s join documents d on d.id = s.document_id where s.id = ?`),
      mentions: raw.prepare(
        `select e.id, e.canonical, e.name, e.type, e.lookup_ok as lookupOk, min(m.start) as first
         from mentions m join entities e on e.id = m.entity_id where m.sentence_id = ? group by e.id order by first, e.id`,
      ),
      degree: raw.prepare('select count(distinct sentence_id) from mentions where entity_id = ?').pluck(),
      links: raw.prepare(
        `select target_id as id, score from entity_links where source_id = ?
         union select source_id as id, score from entity_links where target_id = ?
         order by score desc, id`,
      ),
      entity: raw.prepare('select id, canonical, name, type, lookup_ok as lookupOk from entities where id = ?'),
      byCanonical: raw.prepare('select id, canonical, name, type, lookup_ok as lookupOk from entities where canonical = ? order by id'),
      // The entity's neighbourhood at document level: documents named after it (1) and those that mention it (0).
      entityDocuments: raw.prepare(
        `select id, 1 as titled from documents where lower(title) = lower(?)
         union select s.document_id, 0 from mentions m join sentences s on s.id = m.sentence_id where m.entity_id in (select value from json_each(?))
         order by 1`,
      ),
    }
  }

  chunkSentences(chunkId: number): SentenceRow[] {
    let rows = this.byChunk.get(chunkId)
    if (!rows) {
      rows = this.s.chunkSentences.all(chunkId) as SentenceRow[]
      for (const r of rows) this.byId.set(r.id, r)
      this.byChunk.set(chunkId, rows)
    }
    return rows
  }

  sentence(id: number): SentenceRow {
    let row = this.byId.get(id)
    if (!row) {
      row = this.s.sentence.get(id) as SentenceRow | undefined
      if (!row) throw new Error(`No sentence with id ${id} in this workspace`)
      this.byId.set(id, row)
    }
    return row
  }

  /** Entities a sentence mentions, in order of first mention, filtered ones (lookup_ok = 0) included. */
  mentions(sentenceId: number): EntityRow[] {
    let rows = this.mentionCache.get(sentenceId)
    if (!rows) {
      const found = this.s.mentions.all(sentenceId) as (Omit<EntityRow, 'lookupOk'> & { lookupOk: number })[]
      rows = found.map((r) => ({ id: r.id, canonical: r.canonical, name: r.name, type: r.type, lookupOk: r.lookupOk === 1 }))
      for (const e of rows) this.entityCache.set(e.id, e)
      this.mentionCache.set(sentenceId, rows)
    }
    return rows
  }

  entity(id: number): EntityRow {
    let row = this.entityCache.get(id)
    if (!row) {
      const r = this.s.entity.get(id) as (Omit<EntityRow, 'lookupOk'> & { lookupOk: number }) | undefined
      if (!r) throw new Error(`No entity with id ${id} in this workspace`)
      row = { ...r, lookupOk: r.lookupOk === 1 }
      this.entityCache.set(id, row)
    }
    return row
  }

  /** Entity rows with this canonical key (one per type), filtered ones included. */
  entitiesByCanonical(canonical: string): EntityRow[] {
    return (this.s.byCanonical.all(canonical) as (Omit<EntityRow, 'lookupOk'> & { lookupOk: number })[]).map((r) => {
      const row = { id: r.id, canonical: r.canonical, name: r.name, type: r.type, lookupOk: r.lookupOk === 1 }
      this.entityCache.set(row.id, row)
      return row
    })
  }

  /** Sentences that mention the entity anywhere in the corpus. */
  degree(entityId: number): number {
    let n = this.degreeCache.get(entityId)
    if (n === undefined) {
      n = Number(this.s.degree.get(entityId))
      this.degreeCache.set(entityId, n)
    }
    return n
  }

  /** Neighbour links in both directions, best first. */
  links(entityId: number): { id: number; score: number }[] {
    let rows = this.linkCache.get(entityId)
    if (!rows) {
      rows = this.s.links.all(entityId, entityId) as { id: number; score: number }[]
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
      const rows = this.s.entityDocuments.all(name, JSON.stringify(entityIds)) as { id: number; titled: number }[]
      docs = { titled: [...new Set(rows.filter((r) => r.titled === 1).map((r) => r.id))], all: [...new Set(rows.map((r) => r.id))] }
      this.documentCache.set(key, docs)
    }
    return docs
  }
}
