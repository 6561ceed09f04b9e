/** What the document reader shows: a document with the character spans of its chunks and sentences. */
import { perHandle, statement, type WorkspaceHandle } from './statements'

export interface ReaderDocument {
  documentId: number
  externalId: string
  title: string
  text: string
}
export interface ReaderChunk {
  chunkId: number
  ord: number
  start: number
  end: number
  tokenCount: number
}
export interface ReaderSentence {
  sentenceId: number
  ord: number
  chunkId: number
  start: number
  end: number
}

export class DocumentReaderRepository {
  private readonly s

  constructor(raw: WorkspaceHandle) {
    this.s = {
      document: statement<[number], ReaderDocument>(raw, 'select id as documentId, external_id as externalId, title, text from documents where id = ?'),
      chunks: statement<[number], ReaderChunk>(raw, 'select id as chunkId, ord, start_char as start, end_char as end, token_count as tokenCount from chunks where document_id = ? order by ord'),
      locateSentences: statement<[string], { sentenceId: number; documentId: number; ord: number }>(
        raw,
        'select id as sentenceId, document_id as documentId, ord from sentences where id in (select value from json_each(?))',
      ),
      locateChunks: statement<[string], { chunkId: number; documentId: number }>(raw, 'select id as chunkId, document_id as documentId from chunks where id in (select value from json_each(?))'),
      sentences: statement<[number], ReaderSentence>(raw, 'select id as sentenceId, ord, chunk_id as chunkId, start_char as start, end_char as end from sentences where document_id = ? order by ord'),
    }
  }

  document(documentId: number): ReaderDocument | undefined {
    return this.s.document().get(documentId)
  }

  /** The document's chunks in order, with their spans in the document text. */
  chunks(documentId: number): ReaderChunk[] {
    return this.s.chunks().all(documentId)
  }

  /** The documents (and sentence numbers) of the sentences that exist among `ids`, in no particular order. */
  locateSentences(ids: readonly number[]): { sentenceId: number; documentId: number; ord: number }[] {
    return ids.length ? this.s.locateSentences().all(JSON.stringify(ids)) : []
  }

  /** The documents of the chunks that exist among `ids`, in no particular order. */
  locateChunks(ids: readonly number[]): { chunkId: number; documentId: number }[] {
    return ids.length ? this.s.locateChunks().all(JSON.stringify(ids)) : []
  }

  /** The document's sentences in order, with their spans and home chunks. */
  sentences(documentId: number): ReaderSentence[] {
    return this.s.sentences().all(documentId)
  }
}

export const documentReader: (raw: WorkspaceHandle) => DocumentReaderRepository = perHandle((raw) => new DocumentReaderRepository(raw))
