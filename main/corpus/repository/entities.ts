/** Entities, their mentions and links, as far as the environments walk them. */
import type { Selectable } from 'kysely'
import type { EntityLinkTable, EntityTable } from '../../db/schema'
import { statement, type WorkspaceHandle } from './statements'

type Entity = Selectable<EntityTable>

/** An entity row (lookupOk as stored: 0 for types that are never LOOKUP targets). */
export interface EntityRecord {
  id: Entity['id']
  canonical: Entity['canonical']
  name: Entity['name']
  type: Entity['type']
  lookupOk: Entity['lookup_ok']
}

/** A LOOKUP-able entity as the outer tier keeps it. */
export interface NamedEntity {
  id: Entity['id']
  name: Entity['name']
  type: Entity['type']
}

/** A neighbour by entity link, with the link's score. */
export interface EntityLink {
  id: Entity['id']
  score: Selectable<EntityLinkTable>['score']
}

/** A document about an entity: named after it (titled 1) or mentioning it (titled 0). */
export interface EntityDocumentRow {
  id: number
  titled: 0 | 1
}

const ENTITY = 'id, canonical, name, type, lookup_ok as lookupOk'

export class EntityRepository {
  private readonly s

  constructor(raw: WorkspaceHandle) {
    this.s = {
      byId: statement<[number], EntityRecord>(raw, `select ${ENTITY} from entities where id = ?`),
      byCanonical: statement<[string], EntityRecord>(raw, `select ${ENTITY} from entities where canonical = ? order by id`),
      ofSentence: statement<[number], EntityRecord & { first: number }>(
        raw,
        `select e.id, e.canonical, e.name, e.type, e.lookup_ok as lookupOk, min(m.start) as first
         from mentions m join entities e on e.id = m.entity_id where m.sentence_id = ? group by e.id order by first, e.id`,
      ),
      degree: statement<[number], number>(raw, 'select count(distinct sentence_id) from mentions where entity_id = ?', { pluck: true }),
      links: statement<[number, number], EntityLink>(
        raw,
        `select target_id as id, score from entity_links where source_id = ?
         union select source_id as id, score from entity_links where target_id = ?
         order by score desc, id`,
      ),
      // The entity's neighbourhood at document level: documents named after it (1) and those that mention it (0).
      documents: statement<[string, string], EntityDocumentRow>(
        raw,
        `select id, 1 as titled from documents where lower(title) = lower(?)
         union select s.document_id, 0 from mentions m join sentences s on s.id = m.sentence_id where m.entity_id in (select value from json_each(?))
         order by 1`,
      ),
      namedOfSentences: statement<[string], NamedEntity>(
        raw,
        `select distinct e.id as id, e.name as name, e.type as type from mentions m join entities e on e.id = m.entity_id
         where e.lookup_ok = 1 and m.sentence_id in (select value from json_each(?)) order by e.id`,
      ),
    }
  }

  byId(id: number): EntityRecord | undefined {
    return this.s.byId().get(id)
  }

  /** Entity rows with this canonical key (one per type), ascending ids. */
  byCanonical(canonical: string): EntityRecord[] {
    return this.s.byCanonical().all(canonical)
  }

  /** Entities a sentence mentions, in order of first mention (then id). */
  ofSentence(sentenceId: number): EntityRecord[] {
    return this.s.ofSentence().all(sentenceId)
  }

  /** Sentences that mention the entity anywhere in the corpus. */
  degree(entityId: number): number {
    return Number(this.s.degree().get(entityId))
  }

  /** Neighbour links in both directions, best first (then id). */
  links(entityId: number): EntityLink[] {
    return this.s.links().all(entityId, entityId)
  }

  /** Documents titled `name` (case-insensitively; titled 1) and documents mentioning any of the entities (0), by ascending id. */
  documents(name: string, entityIds: readonly number[]): EntityDocumentRow[] {
    return this.s.documents().all(name, JSON.stringify(entityIds))
  }

  /** Distinct LOOKUP-able entities the sentences mention, ascending ids. */
  namedOfSentences(sentenceIds: readonly number[]): NamedEntity[] {
    return this.s.namedOfSentences().all(JSON.stringify(sentenceIds))
  }
}
