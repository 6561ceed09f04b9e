/** Chunks: with their document's title, a document's chunks in order, membership, character spans. */
import type { Selectable } from 'kysely'
import type { ChunkTable, DocumentTable } from '../../db/schema'
import { statement, type WorkspaceHandle } from './statements'

type Chunk = Selectable<ChunkTable>

/** A chunk with its document's title. */
export interface ChunkWithTitle {
  id: Chunk['id']
  documentId: Chunk['document_id']
  title: Selectable<DocumentTable>['title']
  text: Chunk['text']
}

/** Where a chunk lies in its document (character offsets). */
export interface ChunkSpan {
  id: Chunk['id']
  documentId: Chunk['document_id']
  start: Chunk['start_char']
  end: Chunk['end_char']
}

export class ChunkRepository {
  private readonly s

  constructor(raw: WorkspaceHandle) {
    this.s = {
      withTitle: statement<[number], ChunkWithTitle>(raw, 'select c.id, c.document_id as documentId, d.title, c.text from chunks c join documents d on d.id = c.document_id where c.id = ?'),
      ofDocument: statement<[number], Chunk['id']>(raw, 'select id from chunks where document_id = ? order by ord', { pluck: true }),
      exists: statement<[number], 1>(raw, 'select 1 from chunks where id = ?', { pluck: true }),
      spans: statement<[string], ChunkSpan>(raw, 'select id, document_id as documentId, start_char as start, end_char as end from chunks where id in (select value from json_each(?))'),
    }
  }

  /** The chunk with its document's title, or undefined when there is no such chunk. */
  withTitle(id: number): ChunkWithTitle | undefined {
    return this.s.withTitle().get(id)
  }

  /** The document's chunk ids in document order. */
  idsOfDocument(documentId: number): number[] {
    return this.s.ofDocument().all(documentId)
  }

  exists(id: number): boolean {
    return this.s.exists().get(id) !== undefined
  }

  /** Spans of the chunks that exist among `ids` (each id once), in no particular order. */
  spans(ids: readonly number[]): ChunkSpan[] {
    return this.s.spans().all(JSON.stringify(ids))
  }
}
