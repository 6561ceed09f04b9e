/**
 * The rows the graph digest (ingest/digest.ts) hashes, as arrays in a stable order independent of row
 * ids: sentences by file path, document id and ord; entities by type and canonical key; mentions by
 * sentence, entity, offsets and surface.
 */
import type SQLite from 'better-sqlite3'

const DIGEST_SQL = {
  sentences: `select f.path, d.external_id, d.title, s.ord, s.text, s.start_char, s.end_char
     from sentences s join documents d on d.id = s.document_id join source_files f on f.id = d.file_id
     order by f.path, d.external_id, s.ord`,
  entities: 'select type, canonical, name, lookup_ok from entities order by type, canonical',
  mentions: `select f.path, d.external_id, s.ord, e.type, e.canonical, m.start, m.end, m.surface
     from mentions m join sentences s on s.id = m.sentence_id join documents d on d.id = s.document_id
       join source_files f on f.id = d.file_id join entities e on e.id = m.entity_id
     order by f.path, d.external_id, s.ord, m.start, e.type, e.canonical`,
} as const

/** The rows of one part of the digest, one at a time, as column arrays. */
export const digestRows = (raw: SQLite.Database, part: keyof typeof DIGEST_SQL): IterableIterator<unknown[]> => raw.prepare<[], unknown[]>(DIGEST_SQL[part]).raw().iterate()
