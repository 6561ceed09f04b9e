/** What the document reader shows: a document with the character spans of its chunks and sentences. */
import { jsonValues, workspaceQuery, type RowOf } from '../../db/query'
import { perHandle, type WorkspaceHandle } from './statements'

const document = workspaceQuery((db, p: { id: number }) => db.selectFrom('documents').select(['id as documentId', 'external_id as externalId', 'title', 'text']).where('id', '=', p.id))
const chunks = workspaceQuery((db, p: { documentId: number }) =>
  db.selectFrom('chunks').select(['id as chunkId', 'ord', 'start_char as start', 'end_char as end', 'token_count as tokenCount']).where('document_id', '=', p.documentId).orderBy('ord'),
)
const locateSentences = workspaceQuery((db, p: { ids: string }) => db.selectFrom('sentences').select(['id as sentenceId', 'document_id as documentId', 'ord']).where('id', 'in', jsonValues<number>(p.ids)))
const locateChunks = workspaceQuery((db, p: { ids: string }) => db.selectFrom('chunks').select(['id as chunkId', 'document_id as documentId']).where('id', 'in', jsonValues<number>(p.ids)))
const sentences = workspaceQuery((db, p: { documentId: number }) =>
  db.selectFrom('sentences').select(['id as sentenceId', 'ord', 'chunk_id as chunkId', 'start_char as start', 'end_char as end']).where('document_id', '=', p.documentId).orderBy('ord'),
)

export type ReaderDocument = RowOf<typeof document>
export type ReaderChunk = RowOf<typeof chunks>
export type ReaderSentence = RowOf<typeof sentences>

export class DocumentReaderRepository {
  private readonly s

  constructor(raw: WorkspaceHandle) {
    this.s = { document: document(raw), chunks: chunks(raw), locateSentences: locateSentences(raw), locateChunks: locateChunks(raw), sentences: sentences(raw) }
  }

  document(documentId: number): ReaderDocument | undefined {
    return this.s.document.get({ id: documentId })
  }

  /** The document's chunks in order, with their spans in the document text. */
  chunks(documentId: number): ReaderChunk[] {
    return this.s.chunks.all({ documentId })
  }

  /** The documents (and sentence numbers) of the sentences that exist among `ids`, in no particular order. */
  locateSentences(ids: readonly number[]): RowOf<typeof locateSentences>[] {
    return ids.length ? this.s.locateSentences.all({ ids: JSON.stringify(ids) }) : []
  }

  /** The documents of the chunks that exist among `ids`, in no particular order. */
  locateChunks(ids: readonly number[]): RowOf<typeof locateChunks>[] {
    return ids.length ? this.s.locateChunks.all({ ids: JSON.stringify(ids) }) : []
  }

  /** The document's sentences in order, with their spans and home chunks. */
  sentences(documentId: number): ReaderSentence[] {
    return this.s.sentences.all({ documentId })
  }
}

export const documentReader: (raw: WorkspaceHandle) => DocumentReaderRepository = perHandle((raw) => new DocumentReaderRepository(raw))
