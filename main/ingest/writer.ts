import type SQLite from 'better-sqlite3'
import type { GoldQuestion, IngestFailureReason } from '../corpus/types'
import type { PreparedDocument } from './prepare'

/** Meta key set when files changed since entity links were last computed. */
const LINKS_DIRTY = 'entity_links_dirty'

export interface FileRecord {
  path: string
  format: string
  sizeBytes: number
  /** Content hash combined with the chunking settings: a change of either re-ingests the file. */
  signature: string
}

export interface WriteCounts {
  documents: number
  chunks: number
  sentences: number
  mentions: number
  questions: number
}

/**
 * All writes of the ingest, each file in one transaction: a crash or cancel between files leaves
 * every file either fully old or fully new. Raw prepared statements: this is the hot path.
 */
export class CorpusWriter {
  private readonly entityIds = new Map<string, { id: number; lookupOk: boolean }>()
  private readonly s

  constructor(private readonly raw: SQLite.Database) {
    const p = (sql: string) => raw.prepare(sql)
    this.s = {
      fileByPath: p('select id, sha256, status from source_files where path = ?'),
      deleteFts: p('delete from chunks_fts where rowid in (select c.id from chunks c join documents d on d.id = c.document_id where d.file_id = ?)'),
      deleteDocs: p('delete from documents where file_id = ?'),
      insertFile: p(
        `insert into source_files (path, format, size_bytes, sha256, status, error_reason, error, document_count, ingested_at)
         values (@path, @format, @size, @sha, @status, @reason, @error, @docs, @at)
         on conflict(path) do update set format = excluded.format, size_bytes = excluded.size_bytes, sha256 = excluded.sha256,
           status = excluded.status, error_reason = excluded.error_reason, error = excluded.error,
           document_count = excluded.document_count, ingested_at = excluded.ingested_at
         returning id`,
      ),
      markFailed: p(`update source_files set status = 'failed', error_reason = ?, error = ?, ingested_at = ? where path = ?`),
      insertDoc: p(
        `insert into documents (file_id, external_id, title, text, token_count, record, metadata_json) values (?, ?, ?, ?, ?, ?, ?)
         on conflict(file_id, external_id) do nothing returning id`,
      ),
      insertChunk: p(
        `insert into chunks (document_id, ord, text, start_char, end_char, token_count, first_sentence, last_sentence)
         values (?, ?, ?, ?, ?, ?, ?, ?) returning id`,
      ),
      insertFts: p('insert into chunks_fts (rowid, title, text) values (?, ?, ?)'),
      insertSentence: p('insert into sentences (document_id, chunk_id, ord, text, start_char, end_char) values (?, ?, ?, ?, ?, ?) returning id'),
      insertEntity: p(
        `insert into entities (canonical, type, name, lookup_ok) values (?, ?, ?, ?)
         on conflict(canonical, type) do update set lookup_ok = max(lookup_ok, excluded.lookup_ok) returning id`,
      ),
      insertMention: p('insert or ignore into mentions (sentence_id, entity_id, start, end, surface) values (?, ?, ?, ?, ?)'),
      questionSet: p(
        `insert into question_sets (name, source, created_at) values (?, ?, ?)
         on conflict(name) do update set source = excluded.source returning id`,
      ),
      insertQuestion: p(
        `insert into questions (set_id, external_id, question, answers_json, type, supporting_facts_json, supporting_docs_json)
         values (?, ?, ?, ?, ?, ?, ?)
         on conflict(set_id, external_id) do update set question = excluded.question, answers_json = excluded.answers_json,
           type = excluded.type, supporting_facts_json = excluded.supporting_facts_json, supporting_docs_json = excluded.supporting_docs_json`,
      ),
      orphanEntities: p('delete from entities where not exists (select 1 from mentions m where m.entity_id = entities.id)'),
      setMeta: p('insert into meta (key, value) values (?, ?) on conflict(key) do update set value = excluded.value'),
    }
  }

  /** True when the file was already ingested successfully with the same content and settings. */
  isUnchanged(path: string, signature: string): boolean {
    const row = this.s.fileByPath.get(path) as { sha256: string; status: string } | undefined
    return row !== undefined && row.sha256 === signature && row.status === 'ok'
  }

  /** Replaces the file's previous content, if any, with the new documents and questions. */
  writeFile(file: FileRecord, docs: readonly PreparedDocument[], questions: readonly GoldQuestion[], questionSet?: { name: string; source: string }): WriteCounts {
    const counts: WriteCounts = { documents: 0, chunks: 0, sentences: 0, mentions: 0, questions: 0 }
    try {
      this.writeFileTransaction(file, docs, questions, questionSet, counts)
    } catch (err) {
      // The rollback also undid entity rows this transaction inserted; their cached ids would be reused by SQLite.
      this.entityIds.clear()
      throw err
    }
    return counts
  }

  private writeFileTransaction(
    file: FileRecord,
    docs: readonly PreparedDocument[],
    questions: readonly GoldQuestion[],
    questionSet: { name: string; source: string } | undefined,
    counts: WriteCounts,
  ): void {
    this.raw.transaction(() => {
      // Whole-corpus relations (entity links) are stale from this commit on, even if the run is then cancelled.
      this.s.setMeta.run(LINKS_DIRTY, '1')
      const existing = this.s.fileByPath.get(file.path) as { id: number } | undefined
      if (existing) {
        this.s.deleteFts.run(existing.id)
        this.s.deleteDocs.run(existing.id)
      }
      const { id: fileId } = this.s.insertFile.get({
        path: file.path, format: file.format, size: file.sizeBytes, sha: file.signature, status: 'ok',
        reason: null, error: null, docs: docs.length, at: new Date().toISOString(),
      }) as { id: number }
      for (const d of docs) this.writeDocument(fileId, d, counts)
      if (questions.length > 0 && questionSet) {
        const { id: setId } = this.s.questionSet.get(questionSet.name, questionSet.source, new Date().toISOString()) as { id: number }
        for (const q of questions) {
          this.s.insertQuestion.run(setId, q.externalId, q.question, JSON.stringify(q.answers), q.type ?? null, JSON.stringify(q.supportingFacts), JSON.stringify(q.supportingDocs))
          counts.questions++
        }
      }
    })()
  }

  private writeDocument(fileId: number, d: PreparedDocument, counts: WriteCounts): void {
    const row = this.s.insertDoc.get(fileId, d.doc.externalId, d.doc.title, d.doc.text, d.tokenCount, d.doc.source.record ?? null, d.doc.metadata ? JSON.stringify(d.doc.metadata) : null) as
      | { id: number }
      | undefined
    if (!row) return // a duplicate record id within one file: the first one wins
    counts.documents++
    // A sentence belongs to the first chunk that holds it (chunks overlap by whole sentences).
    const chunkOfSentence = new Array<number>(d.sentences.length)
    for (const c of d.chunks) {
      const text = d.doc.text.slice(c.startChar, c.endChar)
      const firstOrd = d.sentences[c.firstSentence]!.ord
      const lastOrd = d.sentences[c.lastSentence]!.ord
      const { id: chunkId } = this.s.insertChunk.get(row.id, c.ord, text, c.startChar, c.endChar, c.tokenCount, firstOrd, lastOrd) as { id: number }
      this.s.insertFts.run(BigInt(chunkId), d.doc.title, text)
      for (let i = c.firstSentence; i <= c.lastSentence; i++) chunkOfSentence[i] ??= chunkId
      counts.chunks++
    }
    for (const [i, s] of d.sentences.entries()) {
      const { id: sentenceId } = this.s.insertSentence.get(row.id, chunkOfSentence[i], s.ord, s.text, s.start, s.end) as { id: number }
      counts.sentences++
      for (const m of s.mentions) {
        const entityId = this.entityId(m.canonical, m.type, m.surface, m.lookupOk)
        counts.mentions += this.s.insertMention.run(sentenceId, entityId, m.start, m.end, m.surface).changes
      }
    }
  }

  private entityId(canonical: string, type: string, surface: string, lookupOk: boolean): number {
    const key = `${type}\u0000${canonical}`
    const cached = this.entityIds.get(key)
    if (cached && (cached.lookupOk || !lookupOk)) return cached.id
    const { id } = this.s.insertEntity.get(canonical, type, surface, lookupOk ? 1 : 0) as { id: number }
    this.entityIds.set(key, { id, lookupOk: lookupOk || (cached?.lookupOk ?? false) })
    return id
  }

  /** Records a failure. A previously ingested version of the file is kept, and the error says so. */
  writeFailure(file: Omit<FileRecord, 'signature'> & { signature?: string }, reason: IngestFailureReason | 'internal', message: string): void {
    const at = new Date().toISOString()
    const existing = this.s.fileByPath.get(file.path) as { id: number; status: string } | undefined
    if (existing) {
      const kept = existing.status === 'ok' ? ' (the previously ingested version is kept)' : ''
      this.s.markFailed.run(reason, `${message}${kept}`, at, file.path)
      return
    }
    this.s.insertFile.get({ path: file.path, format: file.format, size: file.sizeBytes, sha: file.signature ?? '', status: 'failed', reason, error: message, docs: 0, at })
  }

  /** Entities no longer mentioned anywhere (their files changed or went) are dropped with their links. */
  dropOrphanEntities(): number {
    this.entityIds.clear()
    return this.s.orphanEntities.run().changes
  }

  linksDirty(): boolean {
    return this.raw.prepare('select value from meta where key = ?').pluck().get(LINKS_DIRTY) === '1'
  }

  markLinksClean(): void {
    this.raw.prepare('delete from meta where key = ?').run(LINKS_DIRTY)
  }
}
