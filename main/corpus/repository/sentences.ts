/**
 * Sentences, and the one reader of a sentence with its document's title (what the environments show,
 * scoring maps evidence to, and supporting facts name: [title, ord]).
 */
import { workspaceQuery, type RowOf } from '../../db/query'
import type { WorkspaceHandle } from './statements'

/** chunkId: the sentence's home chunk; ord: its index in its document (gold supporting facts refer to it). */
const WITH_TITLE = ['s.id', 's.document_id as documentId', 's.chunk_id as chunkId', 's.ord', 'd.title', 's.text'] as const

const withTitle = workspaceQuery((db, p: { id: number }) =>
  db.selectFrom('sentences as s').innerJoin('documents as d', 'd.id', 's.document_id').select(WITH_TITLE).where('s.id', '=', p.id),
)
// By character span, as the chunk readers do: overlapping chunks share the sentences they both hold.
const ofChunk = workspaceQuery((db, p: { chunkId: number }) =>
  db
    .selectFrom('chunks as c')
    .innerJoin('sentences as s', (join) => join.onRef('s.document_id', '=', 'c.document_id').onRef('s.start_char', '<', 'c.end_char').onRef('s.end_char', '>', 'c.start_char'))
    .innerJoin('documents as d', 'd.id', 's.document_id')
    .select(WITH_TITLE)
    .where('c.id', '=', p.chunkId)
    .orderBy('s.ord'),
)
const idAt = workspaceQuery((db, p: { documentId: number; ord: number }) => db.selectFrom('sentences').select('id').where('document_id', '=', p.documentId).where('ord', '=', p.ord))
const span = workspaceQuery((db, p: { id: number }) => db.selectFrom('sentences').select(['document_id as documentId', 'start_char as start', 'end_char as end', 'text']).where('id', '=', p.id))

/** A sentence with its document's title. */
export type SentenceWithTitle = RowOf<typeof withTitle>
/** A sentence with its document and character offsets. */
export type SentenceSpan = RowOf<typeof span>

export class SentenceRepository {
  private readonly s

  constructor(raw: WorkspaceHandle) {
    this.s = { withTitle: withTitle(raw), ofChunk: ofChunk(raw), idAt: idAt(raw), span: span(raw) }
  }

  /** The sentence with its document's title, or undefined when there is no such sentence. */
  withTitle(id: number): SentenceWithTitle | undefined {
    return this.s.withTitle.get({ id })
  }

  /** The sentences a chunk holds (by character span, so overlapping chunks share them), in document order. */
  ofChunk(chunkId: number): SentenceWithTitle[] {
    return this.s.ofChunk.all({ chunkId })
  }

  /** The id of the document's sentence with this ord, or null. */
  idAt(documentId: number, ord: number): number | null {
    return this.s.idAt.value({ documentId, ord }) ?? null
  }

  span(id: number): SentenceSpan | undefined {
    return this.s.span.get({ id })
  }
}
