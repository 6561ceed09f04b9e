/** Documents: looked up by external id or title (gold resolution), and their texts. */
import type { Selectable } from 'kysely'
import type { DocumentTable } from '../../db/schema'
import { statement, type WorkspaceHandle } from './statements'

type Document = Selectable<DocumentTable>

/** A document as gold names resolve to it. */
export interface DocumentRef {
  id: Document['id']
  title: Document['title']
}

export class DocumentRepository {
  private readonly s

  constructor(raw: WorkspaceHandle) {
    this.s = {
      byExternalId: statement<[string], DocumentRef>(raw, 'select id, title from documents where external_id = ? order by id'),
      byTitle: statement<[string], DocumentRef>(raw, 'select id, title from documents where title = ? order by id'),
      byNames: statement<[{ names: string }], DocumentRef & { externalId: Document['external_id'] }>(
        raw,
        `select id, title, external_id as externalId from documents
         where external_id in (select value from json_each(@names)) or title in (select value from json_each(@names)) order by id`,
      ),
      text: statement<[number], Document['text']>(raw, 'select text from documents where id = ?', { pluck: true }),
    }
  }

  /** Documents whose external id is exactly `externalId`, ascending ids. */
  byExternalId(externalId: string): DocumentRef[] {
    return this.s.byExternalId().all(externalId)
  }

  /** Documents titled exactly `title`, ascending ids. */
  byTitle(title: string): DocumentRef[] {
    return this.s.byTitle().all(title)
  }

  /** Documents whose external id or title is one of `names` (one query for many names), ascending ids. */
  byExternalIdOrTitle(names: readonly string[]): (DocumentRef & { externalId: string })[] {
    return this.s.byNames().all({ names: JSON.stringify(names) })
  }

  /** documents.text, or undefined when there is no such document. */
  text(documentId: number): string | undefined {
    return this.s.text().get(documentId)
  }
}
