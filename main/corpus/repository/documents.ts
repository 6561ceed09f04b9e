/** Documents: looked up by external id or title (gold resolution), and their texts. */
import { jsonValues, workspaceQuery, type RowOf } from '../../db/query'
import type { WorkspaceHandle } from './statements'

const byExternalId = workspaceQuery((db, p: { externalId: string }) => db.selectFrom('documents').select(['id', 'title']).where('external_id', '=', p.externalId).orderBy('id'))
const byTitle = workspaceQuery((db, p: { title: string }) => db.selectFrom('documents').select(['id', 'title']).where('title', '=', p.title).orderBy('id'))
const byNames = workspaceQuery((db, p: { names: string }) =>
  db
    .selectFrom('documents')
    .select(['id', 'title', 'external_id as externalId'])
    .where((eb) => eb.or([eb('external_id', 'in', jsonValues<string>(p.names)), eb('title', 'in', jsonValues<string>(p.names))]))
    .orderBy('id'),
)
const text = workspaceQuery((db, p: { id: number }) => db.selectFrom('documents').select('text').where('id', '=', p.id))

/** A document as gold names resolve to it. */
export type DocumentRef = RowOf<typeof byTitle>

export class DocumentRepository {
  private readonly s

  constructor(raw: WorkspaceHandle) {
    this.s = { byExternalId: byExternalId(raw), byTitle: byTitle(raw), byNames: byNames(raw), text: text(raw) }
  }

  /** Documents whose external id is exactly `externalId`, ascending ids. */
  byExternalId(externalId: string): DocumentRef[] {
    return this.s.byExternalId.all({ externalId })
  }

  /** Documents titled exactly `title`, ascending ids. */
  byTitle(title: string): DocumentRef[] {
    return this.s.byTitle.all({ title })
  }

  /** Documents whose external id or title is one of `names` (one query for many names), ascending ids. */
  byExternalIdOrTitle(names: readonly string[]): (DocumentRef & { externalId: string })[] {
    return this.s.byNames.all({ names: JSON.stringify(names) })
  }

  /** documents.text, or undefined when there is no such document. */
  text(documentId: number): string | undefined {
    return this.s.text.value({ id: documentId })
  }
}
