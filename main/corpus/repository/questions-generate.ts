/**
 * What question generation reads from the graph: mentions of named entities that join documents (the
 * bridges), every mention of given sentences (the answers), and sentences carrying dated or numeric
 * values near the start of their document (the comparable facts); and what its checks read back: the
 * documents by title, a document's sentences, the documents that mention an entity or hold a phrase,
 * and every sentence in document order (the evidence test).
 */
import type { Kysely } from 'kysely'
import { sql } from 'kysely'
import { jsonValues, workspaceQuery, type RowOf } from '../../db/query'
import type { WorkspaceDatabase } from '../../db/schema'
import { statement, type WorkspaceHandle } from './statements'

const MENTION = ['e.id as entityId', 'e.name', 'e.type', 's.id as sentenceId', 's.document_id as documentId', 's.ord', 'd.title', 'd.external_id as externalId', 's.text', 'm.start', 'm.end', 'm.surface'] as const

/** Mentions with their entity, sentence and document. */
const mentions = (db: Kysely<WorkspaceDatabase>) =>
  db
    .selectFrom('mentions as m')
    .innerJoin('entities as e', 'e.id', 'm.entity_id')
    .innerJoin('sentences as s', 's.id', 'm.sentence_id')
    .innerJoin('documents as d', 'd.id', 's.document_id')
    .select(MENTION)

// Named entities mentioned in 2..maxDocs documents (more is a hub that joins nothing in particular).
const bridges = workspaceQuery((db, p: { types: string; maxDocs: number }) =>
  db
    .with('joined', (w) =>
      w
        .selectFrom('mentions as m')
        .innerJoin('sentences as s', 's.id', 'm.sentence_id')
        .innerJoin('entities as e', 'e.id', 'm.entity_id')
        .select('m.entity_id')
        .where('e.lookup_ok', '=', sql.lit(1))
        .where('e.type', 'in', jsonValues<string>(p.types))
        .groupBy('m.entity_id')
        .having((h) => h.between(h.fn.count('s.document_id').distinct(), sql.lit(2), p.maxDocs)),
    )
    .selectFrom('mentions as m')
    .innerJoin('joined as j', 'j.entity_id', 'm.entity_id')
    .innerJoin('entities as e', 'e.id', 'm.entity_id')
    .innerJoin('sentences as s', 's.id', 'm.sentence_id')
    .innerJoin('documents as d', 'd.id', 's.document_id')
    .select(MENTION)
    .orderBy('e.id')
    .orderBy('s.document_id')
    .orderBy('s.ord')
    .orderBy('m.start'),
)
const ofSentences = workspaceQuery((db, p: { sentenceIds: string }) => mentions(db).where('m.sentence_id', 'in', jsonValues<number>(p.sentenceIds)).orderBy('s.id').orderBy('m.start'))
const values = workspaceQuery((db, p: { types: string; maxOrd: number }) =>
  mentions(db).where('e.type', 'in', jsonValues<string>(p.types)).where('s.ord', '<=', p.maxOrd).orderBy('s.document_id').orderBy('s.ord').orderBy('m.start'),
)

const documentTitles = workspaceQuery((db) => db.selectFrom('documents').select(['id', 'title']).orderBy('id'))
const sentencesOfDocument = workspaceQuery((db, p: { documentId: number }) => db.selectFrom('sentences').select(['id', 'document_id as documentId', 'ord', 'text']).where('document_id', '=', p.documentId).orderBy('ord'))
const mentionsOfDocument = workspaceQuery((db, p: { documentId: number }) =>
  db
    .selectFrom('mentions as m')
    .innerJoin('entities as e', 'e.id', 'm.entity_id')
    .innerJoin('sentences as s', 's.id', 'm.sentence_id')
    .select(['e.id as entityId', 'e.name', 'e.type', 's.id as sentenceId', 'm.start', 'm.end', 'm.surface'])
    .where('s.document_id', '=', p.documentId)
    .orderBy('s.ord')
    .orderBy('m.start'),
)
const documentsOfEntities = workspaceQuery((db, p: { entityIds: string }) =>
  db
    .selectFrom('mentions as m')
    .innerJoin('sentences as s', 's.id', 'm.sentence_id')
    .select('s.document_id as documentId')
    .distinct()
    .where('m.entity_id', 'in', jsonValues<number>(p.entityIds)),
)
const sentencesInOrder = workspaceQuery((db) => db.selectFrom('sentences').select(['id', 'document_id as documentId', 'text']).orderBy('document_id').orderBy('ord'))

export type GenMention = RowOf<typeof ofSentences>
export type GenSentence = RowOf<typeof sentencesOfDocument>
/** A mention without its sentence and document (the caller holds them). */
export type GenSpan = RowOf<typeof mentionsOfDocument>

export class QuestionGenerationRepository {
  private readonly s

  constructor(raw: WorkspaceHandle) {
    this.s = {
      bridges: bridges(raw),
      ofSentences: ofSentences(raw),
      values: values(raw),
      titles: documentTitles(raw),
      sentencesOf: sentencesOfDocument(raw),
      mentionsOfDocument: mentionsOfDocument(raw),
      ofEntities: documentsOfEntities(raw),
      inOrder: sentencesInOrder(raw),
      // The full-text index holds every chunk; a phrase query finds the documents that hold a name, mention or not.
      matching: statement<[string], number>(raw, 'select distinct c.document_id from chunks_fts f join chunks c on c.id = f.rowid where chunks_fts match ?', { pluck: true }),
    }
  }

  /** Mentions of the named entities (of these types) that occur in 2..maxDocs documents, by entity, document, sentence. */
  bridgeMentions(types: readonly string[], maxDocs: number): GenMention[] {
    return this.s.bridges.all({ types: JSON.stringify(types), maxDocs })
  }

  /** Every mention in the sentences, by sentence and offset. */
  mentionsOf(sentenceIds: readonly number[]): GenMention[] {
    return sentenceIds.length === 0 ? [] : this.s.ofSentences.all({ sentenceIds: JSON.stringify(sentenceIds) })
  }

  /** Mentions of value types (DATE, MONEY, ...) in each document's first maxOrd + 1 sentences, by document and sentence. */
  valueMentions(types: readonly string[], maxOrd: number): GenMention[] {
    return this.s.values.all({ types: JSON.stringify(types), maxOrd })
  }

  /** Every document's id and title. */
  documentTitles(): { id: number; title: string }[] {
    return this.s.titles.all()
  }

  /** The document's sentences in order. */
  sentencesOf(documentId: number): GenSentence[] {
    return this.s.sentencesOf.all({ documentId })
  }

  /** Every mention in the document, by sentence and offset. */
  mentionsInDocument(documentId: number): GenSpan[] {
    return this.s.mentionsOfDocument.all({ documentId })
  }

  /** Documents with a mention of any of the entities. */
  documentsMentioning(entityIds: readonly number[]): number[] {
    return entityIds.length === 0 ? [] : this.s.ofEntities.all({ entityIds: JSON.stringify(entityIds) }).map((r) => r.documentId)
  }

  /** Documents whose text holds the words of `phrase` in a row (FTS5 phrase match; case and diacritics ignored). */
  documentsWithPhrase(phrase: string): number[] {
    const words = phrase.normalize('NFC').match(/[\p{L}\p{N}\p{M}]+/gu) ?? []
    return words.length === 0 ? [] : this.s.matching().all(`text : "${words.join(' ')}"`)
  }

  /** Every sentence, by document and position, one at a time. */
  sentencesInOrder(): IterableIterator<{ id: number; documentId: number; text: string }> {
    return this.s.inOrder.iterate()
  }
}
