/**
 * The ingest writer's statements (ingest/writer.ts), raw and prepared once per handle. Raw because this
 * is the hot path: they run per document, chunk, sentence and mention, so any per-row binding cost adds
 * up. Typed by their bind parameters and rows.
 */
import type SQLite from 'better-sqlite3'
import type { EntityType } from '../graph/nlp'

/** The named parameters of insertFile. */
export interface FileRow {
  path: string
  format: string
  size: number
  sha: string
  status: string
  reason: string | null
  error: string | null
  docs: number
  at: string
}

export function writerStatements(raw: SQLite.Database) {
  const p = <P extends unknown[] | object, R>(sql: string) => raw.prepare<P, R>(sql)
  return {
    fileByPath: p<[string], { id: number; sha256: string; status: string }>('select id, sha256, status from source_files where path = ?'),
    deleteFts: p<[number], never>('delete from chunks_fts where rowid in (select c.id from chunks c join documents d on d.id = c.document_id where d.file_id = ?)'),
    deleteDocs: p<[number], never>('delete from documents where file_id = ?'),
    insertFile: p<FileRow, { id: number }>(
      `insert into source_files (path, format, size_bytes, sha256, status, error_reason, error, document_count, ingested_at)
       values (@path, @format, @size, @sha, @status, @reason, @error, @docs, @at)
       on conflict(path) do update set format = excluded.format, size_bytes = excluded.size_bytes, sha256 = excluded.sha256,
         status = excluded.status, error_reason = excluded.error_reason, error = excluded.error,
         document_count = excluded.document_count, ingested_at = excluded.ingested_at
       returning id`,
    ),
    markFailed: p<[string, string, string, string, string], never>(`update source_files set status = 'failed', sha256 = ?, error_reason = ?, error = ?, ingested_at = ? where path = ?`),
    insertDoc: p<[number, string, string, string, number, number | null, string | null], { id: number }>(
      `insert into documents (file_id, external_id, title, text, token_count, record, metadata_json) values (?, ?, ?, ?, ?, ?, ?)
       on conflict(file_id, external_id) do nothing returning id`,
    ),
    insertChunk: p<[number, number, string, number, number, number, number, number], { id: number }>(
      `insert into chunks (document_id, ord, text, start_char, end_char, token_count, first_sentence, last_sentence)
       values (?, ?, ?, ?, ?, ?, ?, ?) returning id`,
    ),
    insertFts: p<[bigint, string, string], never>('insert into chunks_fts (rowid, title, text) values (?, ?, ?)'),
    insertSentence: p<[number, number | undefined, number, string, number, number], { id: number }>('insert into sentences (document_id, chunk_id, ord, text, start_char, end_char) values (?, ?, ?, ?, ?, ?) returning id'),
    // One entity per canonical name (0010_one_entity_per_name): its type is voted by its mentions.
    entityByKey: p<[string], { id: number; name: string; lookup_ok: number; type: string }>('select id, name, lookup_ok, type from entities where canonical = ?'),
    entityVotes: p<[number], { type: string; n: number }>('select coalesce(m.type, e.type) as type, count(*) as n from mentions m join entities e on e.id = m.entity_id where m.entity_id = ? group by 1'),
    insertEntity: p<[string, string, string, number], { id: number }>('insert into entities (canonical, type, name, lookup_ok) values (?, ?, ?, ?) returning id'),
    updateEntity: p<[string, number, string, number], never>('update entities set name = ?, lookup_ok = ?, type = ? where id = ?'),
    fileEntities: p<[number], number>(
      `select distinct m.entity_id from mentions m join sentences s on s.id = m.sentence_id join documents d on d.id = s.document_id where d.file_id = ?`,
    ),
    entityRow: p<[number], { canonical: string }>('select canonical from entities where id = ?'),
    entitySurfaces: p<[number], { surface: string; type: EntityType }>('select distinct m.surface, coalesce(m.type, e.type) as type from mentions m join entities e on e.id = m.entity_id where m.entity_id = ?'),
    deleteEntity: p<[number], never>('delete from entities where id = ?'),
    insertMention: p<[number, number, number, number, string, string | null], never>('insert or ignore into mentions (sentence_id, entity_id, start, end, surface, type) values (?, ?, ?, ?, ?, ?)'),
    questionSet: p<[string, string, string], { id: number }>(
      `insert into question_sets (name, source, created_at) values (?, ?, ?)
       on conflict(name) do update set source = excluded.source returning id`,
    ),
    insertQuestion: p<[number, string, string, string, string | null, string, string], never>(
      `insert into questions (set_id, external_id, question, answers_json, type, supporting_facts_json, supporting_docs_json)
       values (?, ?, ?, ?, ?, ?, ?)
       on conflict(set_id, external_id) do update set question = excluded.question, answers_json = excluded.answers_json,
         type = excluded.type, supporting_facts_json = excluded.supporting_facts_json, supporting_docs_json = excluded.supporting_docs_json`,
    ),
    orphanEntities: p<[], never>('delete from entities where not exists (select 1 from mentions m where m.entity_id = entities.id)'),
    setMeta: p<[string, string], never>('insert into meta (key, value) values (?, ?) on conflict(key) do update set value = excluded.value'),
  }
}

/** The failure recorded for a file (its signature, status and reason), read once per file. */
export const fileRecord = (raw: SQLite.Database, path: string) =>
  raw.prepare<[string], { sha256: string; status: string; error_reason: string | null; error: string | null }>('select sha256, status, error_reason, error from source_files where path = ?').get(path)

/** Whether any document of a file is stored. */
export const fileHasDocuments = (raw: SQLite.Database, fileId: number): boolean => raw.prepare<[number], 1>('select 1 from documents where file_id = ? limit 1').get(fileId) !== undefined
