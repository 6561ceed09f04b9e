/**
 * What question generation reads from the graph: mentions of named entities that join documents (the
 * bridges), every mention of given sentences (the answers), and sentences carrying dated or numeric
 * values near the start of their document (the comparable facts).
 */
import type { Kysely } from 'kysely'
import { sql } from 'kysely'
import { jsonValues, workspaceQuery, type RowOf } from '../../db/query'
import type { WorkspaceDatabase } from '../../db/schema'
import type { WorkspaceHandle } from './statements'

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

export type GenMention = RowOf<typeof ofSentences>

export class QuestionGenerationRepository {
  private readonly s

  constructor(raw: WorkspaceHandle) {
    this.s = { bridges: bridges(raw), ofSentences: ofSentences(raw), values: values(raw) }
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
}
