/** Chunks: with their document's title, a document's chunks in order, membership, character spans. */
import { jsonValues, workspaceQuery, type RowOf } from '../../db/query'
import type { WorkspaceHandle } from './statements'

const withTitle = workspaceQuery((db, p: { id: number }) =>
  db.selectFrom('chunks as c').innerJoin('documents as d', 'd.id', 'c.document_id').select(['c.id', 'c.document_id as documentId', 'd.title', 'c.text']).where('c.id', '=', p.id),
)
const ofDocument = workspaceQuery((db, p: { documentId: number }) => db.selectFrom('chunks').select('id').where('document_id', '=', p.documentId).orderBy('ord'))
const exists = workspaceQuery((db, p: { id: number }) => db.selectFrom('chunks').select((eb) => eb.lit(1).as('found')).where('id', '=', p.id))
const spans = workspaceQuery((db, p: { ids: string }) =>
  db.selectFrom('chunks').select(['id', 'document_id as documentId', 'start_char as start', 'end_char as end']).where('id', 'in', jsonValues<number>(p.ids)),
)

/** A chunk with its document's title. */
export type ChunkWithTitle = RowOf<typeof withTitle>
/** Where a chunk lies in its document (character offsets). */
export type ChunkSpan = RowOf<typeof spans>

export class ChunkRepository {
  private readonly s

  constructor(raw: WorkspaceHandle) {
    this.s = { withTitle: withTitle(raw), ofDocument: ofDocument(raw), exists: exists(raw), spans: spans(raw) }
  }

  /** The chunk with its document's title, or undefined when there is no such chunk. */
  withTitle(id: number): ChunkWithTitle | undefined {
    return this.s.withTitle.get({ id })
  }

  /** The document's chunk ids in document order. */
  idsOfDocument(documentId: number): number[] {
    return this.s.ofDocument.values({ documentId })
  }

  exists(id: number): boolean {
    return this.s.exists.value({ id }) !== undefined
  }

  /** Spans of the chunks that exist among `ids` (each id once), in no particular order. */
  spans(ids: readonly number[]): ChunkSpan[] {
    return this.s.spans.all({ ids: JSON.stringify(ids) })
  }
}
