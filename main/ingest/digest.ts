import { createHash } from 'node:crypto'
import type SQLite from 'better-sqlite3'

/**
 * Content digests of a workspace's graph, independent of row ids and insertion order: two ingests of
 * the same files (whole, in parts, resumed after a crash, in another order) must give equal digests.
 * Sentences are keyed by file path, document id and ord; entities by type and canonical key (with
 * their display name and LOOKUP flag); mentions by sentence, entity, offsets and surface.
 */
export interface GraphDigest {
  sentences: string
  entities: string
  mentions: string
  counts: { sentences: number; entities: number; mentions: number }
}

function digestOf(raw: SQLite.Database, sql: string): { hash: string; rows: number } {
  const hash = createHash('sha256')
  let rows = 0
  for (const row of raw.prepare(sql).raw().iterate()) {
    hash.update(JSON.stringify(row))
    hash.update('\n')
    rows++
  }
  return { hash: hash.digest('hex'), rows }
}

export function graphDigest(raw: SQLite.Database): GraphDigest {
  const sentences = digestOf(
    raw,
    `select f.path, d.external_id, d.title, s.ord, s.text, s.start_char, s.end_char
     from sentences s join documents d on d.id = s.document_id join source_files f on f.id = d.file_id
     order by f.path, d.external_id, s.ord`,
  )
  const entities = digestOf(raw, 'select type, canonical, name, lookup_ok from entities order by type, canonical')
  const mentions = digestOf(
    raw,
    `select f.path, d.external_id, s.ord, e.type, e.canonical, m.start, m.end, m.surface
     from mentions m join sentences s on s.id = m.sentence_id join documents d on d.id = s.document_id
       join source_files f on f.id = d.file_id join entities e on e.id = m.entity_id
     order by f.path, d.external_id, s.ord, m.start, e.type, e.canonical`,
  )
  return {
    sentences: sentences.hash,
    entities: entities.hash,
    mentions: mentions.hash,
    counts: { sentences: sentences.rows, entities: entities.rows, mentions: mentions.rows },
  }
}
