/** Entities, their mentions and links, as far as the environments walk them. */
import { sql } from 'kysely'
import { jsonValues, workspaceQuery, type RowOf } from '../../db/query'
import type { WorkspaceHandle } from './statements'

/** lookupOk as stored: 0 for types that are never LOOKUP targets. */
const ENTITY = ['id', 'canonical', 'name', 'type', 'lookup_ok as lookupOk'] as const

const byId = workspaceQuery((db, p: { id: number }) => db.selectFrom('entities').select(ENTITY).where('id', '=', p.id))
const byCanonical = workspaceQuery((db, p: { canonical: string }) => db.selectFrom('entities').select(ENTITY).where('canonical', '=', p.canonical).orderBy('id'))
const ofSentence = workspaceQuery((db, p: { sentenceId: number }) =>
  db
    .selectFrom('mentions as m')
    .innerJoin('entities as e', 'e.id', 'm.entity_id')
    .select(['e.id', 'e.canonical', 'e.name', 'e.type', 'e.lookup_ok as lookupOk', (eb) => eb.fn.min('m.start').as('first')])
    .where('m.sentence_id', '=', p.sentenceId)
    .groupBy('e.id')
    .orderBy('first')
    .orderBy('e.id'),
)
const degree = workspaceQuery((db, p: { entityId: number }) => db.selectFrom('mentions').select((eb) => eb.fn.count<number>('sentence_id').distinct().as('n')).where('entity_id', '=', p.entityId))
const links = workspaceQuery((db, p: { entityId: number }) =>
  db
    .selectFrom('entity_links')
    .select(['target_id as id', 'score'])
    .where('source_id', '=', p.entityId)
    .union(db.selectFrom('entity_links').select(['source_id as id', 'score']).where('target_id', '=', p.entityId))
    .orderBy('score', 'desc')
    .orderBy('id'),
)
// The entity's neighbourhood at document level: documents named after it (1) and those that mention it (0).
const documents = workspaceQuery((db, p: { name: string; entityIds: string }) =>
  db
    .selectFrom('documents')
    .select(['id', sql<0 | 1>`1`.as('titled')])
    .where(sql`lower(title)`, '=', sql`lower(${p.name})`)
    .union(
      db
        .selectFrom('mentions as m')
        .innerJoin('sentences as s', 's.id', 'm.sentence_id')
        .select(['s.document_id as id', sql<0 | 1>`0`.as('titled')])
        .where('m.entity_id', 'in', jsonValues<number>(p.entityIds)),
    )
    .orderBy(sql`1`),
)
const namedOfSentences = workspaceQuery((db, p: { sentenceIds: string }) =>
  db
    .selectFrom('mentions as m')
    .innerJoin('entities as e', 'e.id', 'm.entity_id')
    .select(['e.id as id', 'e.name as name', 'e.type as type'])
    .distinct()
    .where('e.lookup_ok', '=', sql.lit(1))
    .where('m.sentence_id', 'in', jsonValues<number>(p.sentenceIds))
    .orderBy('e.id'),
)

/** An entity row. */
export type EntityRecord = RowOf<typeof byId>
/** A LOOKUP-able entity as the outer tier keeps it. */
export type NamedEntity = RowOf<typeof namedOfSentences>
/** A neighbour by entity link, with the link's score. */
export type EntityLink = RowOf<typeof links>
/** A document about an entity: named after it (titled 1) or mentioning it (titled 0). */
export type EntityDocumentRow = RowOf<typeof documents>

export class EntityRepository {
  private readonly s

  constructor(raw: WorkspaceHandle) {
    this.s = {
      byId: byId(raw),
      byCanonical: byCanonical(raw),
      ofSentence: ofSentence(raw),
      degree: degree(raw),
      links: links(raw),
      documents: documents(raw),
      namedOfSentences: namedOfSentences(raw),
    }
  }

  byId(id: number): EntityRecord | undefined {
    return this.s.byId.get({ id })
  }

  /** Entity rows with this canonical key (one per type), ascending ids. */
  byCanonical(canonical: string): EntityRecord[] {
    return this.s.byCanonical.all({ canonical })
  }

  /** Entities a sentence mentions, in order of first mention (then id). */
  ofSentence(sentenceId: number): EntityRecord[] {
    return this.s.ofSentence.all({ sentenceId })
  }

  /** Sentences that mention the entity anywhere in the corpus. */
  degree(entityId: number): number {
    return Number(this.s.degree.value({ entityId }))
  }

  /** Neighbour links in both directions, best first (then id). */
  links(entityId: number): EntityLink[] {
    return this.s.links.all({ entityId })
  }

  /** Documents titled `name` (case-insensitively; titled 1) and documents mentioning any of the entities (0), by ascending id. */
  documents(name: string, entityIds: readonly number[]): EntityDocumentRow[] {
    return this.s.documents.all({ name, entityIds: JSON.stringify(entityIds) })
  }

  /** Distinct LOOKUP-able entities the sentences mention, ascending ids. */
  namedOfSentences(sentenceIds: readonly number[]): NamedEntity[] {
    return this.s.namedOfSentences.all({ sentenceIds: JSON.stringify(sentenceIds) })
  }
}
