/**
 * The lookups gold references beyond ids and titles need (imports and hand-written questions): documents
 * by the file they came from, sentences by their text, and sentences or documents by row id with what a
 * stored supporting fact names ([title, ord] and the document's external id).
 */
import { sql } from 'kysely'
import { workspaceQuery, type RowOf } from '../../db/query'
import type { WorkspaceHandle } from './statements'

const SENTENCE = ['s.id as sentenceId', 's.document_id as documentId', 's.chunk_id as chunkId', 's.ord', 'd.title', 'd.external_id as externalId', 's.text'] as const

// A file name matches the stored path exactly, or its last segments ("notes/a.md" matches "/x/notes/a.md").
const byFile = workspaceQuery((db, p: { path: string; suffix: string }) =>
  db
    .selectFrom('documents as d')
    .innerJoin('source_files as f', 'f.id', 'd.file_id')
    .select(['d.id', 'd.title', 'd.external_id as externalId'])
    .where('f.status', '=', sql.lit('ok'))
    .where((eb) => eb.or([eb('f.path', '=', p.path), sql<boolean>`${eb.ref('f.path')} like ${p.suffix} escape '\\'`]))
    .orderBy('d.id'),
)
const exact = workspaceQuery((db, p: { text: string }) =>
  db.selectFrom('sentences as s').innerJoin('documents as d', 'd.id', 's.document_id').select(SENTENCE).where('s.text', '=', p.text).orderBy('s.id').limit(50),
)
const containing = workspaceQuery((db, p: { text: string }) =>
  db.selectFrom('sentences as s').innerJoin('documents as d', 'd.id', 's.document_id').select(SENTENCE).where(sql`instr(lower(s.text), lower(${p.text}))`, '>', 0).orderBy('s.id').limit(50),
)
const sentence = workspaceQuery((db, p: { id: number }) => db.selectFrom('sentences as s').innerJoin('documents as d', 'd.id', 's.document_id').select(SENTENCE).where('s.id', '=', p.id))
const document = workspaceQuery((db, p: { id: number }) => db.selectFrom('documents').select(['id', 'title', 'external_id as externalId']).where('id', '=', p.id))

export type GoldDocumentHit = RowOf<typeof document>
export type GoldSentenceHit = RowOf<typeof sentence>

export class QuestionGoldRepository {
  private readonly s

  constructor(raw: WorkspaceHandle) {
    this.s = { byFile: byFile(raw), exact: exact(raw), containing: containing(raw), sentence: sentence(raw), document: document(raw) }
  }

  /** Documents of the source file whose path is `name` or ends with "/name", ascending ids. */
  documentsByFile(name: string): GoldDocumentHit[] {
    const escaped = name.replace(/[\\%_]/g, (c) => `\\${c}`)
    return this.s.byFile.all({ path: name, suffix: `%/${escaped}` })
  }

  /** Sentences whose text is exactly `text` (at most 50). */
  sentencesExactly(text: string): GoldSentenceHit[] {
    return this.s.exact.all({ text })
  }

  /** Sentences containing `text`, case-insensitively (at most 50). */
  sentencesContaining(text: string): GoldSentenceHit[] {
    return this.s.containing.all({ text })
  }

  sentence(sentenceId: number): GoldSentenceHit | undefined {
    return this.s.sentence.get({ id: sentenceId })
  }

  document(documentId: number): GoldDocumentHit | undefined {
    return this.s.document.get({ id: documentId })
  }
}
