/**
 * What question generation reads from the graph: mentions of named entities that join documents (the
 * bridges), every mention of given sentences (the answers), and sentences carrying dated or numeric
 * values near the start of their document (the comparable facts).
 */
import { statement, type WorkspaceHandle } from './statements'

export interface GenMention {
  entityId: number
  name: string
  type: string
  sentenceId: number
  documentId: number
  ord: number
  title: string
  externalId: string
  text: string
  start: number
  end: number
  surface: string
}

const MENTION = `e.id as entityId, e.name, e.type, s.id as sentenceId, s.document_id as documentId, s.ord, d.title, d.external_id as externalId, s.text, m.start, m.end, m.surface`

export class QuestionGenerationRepository {
  private readonly s

  constructor(raw: WorkspaceHandle) {
    this.s = {
      // Named entities mentioned in 2..maxDocs documents (more is a hub that joins nothing in particular).
      bridges: statement<[{ types: string; maxDocs: number }], GenMention>(
        raw,
        `with joined as (
           select m.entity_id from mentions m join sentences s on s.id = m.sentence_id join entities e on e.id = m.entity_id
           where e.lookup_ok = 1 and e.type in (select value from json_each(@types))
           group by m.entity_id having count(distinct s.document_id) between 2 and @maxDocs)
         select ${MENTION} from mentions m join joined j on j.entity_id = m.entity_id join entities e on e.id = m.entity_id
           join sentences s on s.id = m.sentence_id join documents d on d.id = s.document_id
         order by e.id, s.document_id, s.ord, m.start`,
      ),
      ofSentences: statement<[string], GenMention>(
        raw,
        `select ${MENTION} from mentions m join entities e on e.id = m.entity_id join sentences s on s.id = m.sentence_id join documents d on d.id = s.document_id
         where m.sentence_id in (select value from json_each(?)) order by s.id, m.start`,
      ),
      values: statement<[{ types: string; maxOrd: number }], GenMention>(
        raw,
        `select ${MENTION} from mentions m join entities e on e.id = m.entity_id join sentences s on s.id = m.sentence_id join documents d on d.id = s.document_id
         where e.type in (select value from json_each(@types)) and s.ord <= @maxOrd order by s.document_id, s.ord, m.start`,
      ),
    }
  }

  /** Mentions of the named entities (of these types) that occur in 2..maxDocs documents, by entity, document, sentence. */
  bridgeMentions(types: readonly string[], maxDocs: number): GenMention[] {
    return this.s.bridges().all({ types: JSON.stringify(types), maxDocs })
  }

  /** Every mention in the sentences, by sentence and offset. */
  mentionsOf(sentenceIds: readonly number[]): GenMention[] {
    return sentenceIds.length === 0 ? [] : this.s.ofSentences().all(JSON.stringify(sentenceIds))
  }

  /** Mentions of value types (DATE, MONEY, ...) in each document's first maxOrd + 1 sentences, by document and sentence. */
  valueMentions(types: readonly string[], maxOrd: number): GenMention[] {
    return this.s.values().all({ types: JSON.stringify(types), maxOrd })
  }
}
