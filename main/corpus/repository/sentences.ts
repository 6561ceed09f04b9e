/**
 * Sentences, and the one reader of a sentence with its document's title (what the environments show,
 * scoring maps evidence to, and supporting facts name: [title, ord]).
 */
import type { Selectable } from 'kysely'
import type { DocumentTable, SentenceTable } from '../../db/schema'
import { statement, type WorkspaceHandle } from './statements'

type Sentence = Selectable<SentenceTable>

/** A sentence with its document's title. */
export interface SentenceWithTitle {
  id: Sentence['id']
  documentId: Sentence['document_id']
  /** The sentence's home chunk. */
  chunkId: Sentence['chunk_id']
  /** Index of the sentence in its document (gold supporting facts refer to it). */
  ord: Sentence['ord']
  title: Selectable<DocumentTable>['title']
  text: Sentence['text']
}

/** A sentence with its document and character offsets. */
export interface SentenceSpan {
  documentId: Sentence['document_id']
  start: Sentence['start_char']
  end: Sentence['end_char']
  text: Sentence['text']
}

const WITH_TITLE = 's.id, s.document_id as documentId, s.chunk_id as chunkId, s.ord, d.title, s.text'

export class SentenceRepository {
  private readonly s

  constructor(raw: WorkspaceHandle) {
    this.s = {
      withTitle: statement<[number], SentenceWithTitle>(raw, `select ${WITH_TITLE} from sentences s join documents d on d.id = s.document_id where s.id = ?`),
      // By character span, as the chunk readers do: overlapping chunks share the sentences they both hold.
      ofChunk: statement<[number], SentenceWithTitle>(
        raw,
        `select ${WITH_TITLE} from chunks c join sentences s on s.document_id = c.document_id
           and s.start_char < c.end_char and s.end_char > c.start_char
         join documents d on d.id = s.document_id where c.id = ? order by s.ord`,
      ),
      idAt: statement<[number, number], Sentence['id']>(raw, 'select id from sentences where document_id = ? and ord = ?', { pluck: true }),
      span: statement<[number], SentenceSpan>(raw, 'select document_id as documentId, start_char as start, end_char as end, text from sentences where id = ?'),
    }
  }

  /** The sentence with its document's title, or undefined when there is no such sentence. */
  withTitle(id: number): SentenceWithTitle | undefined {
    return this.s.withTitle().get(id)
  }

  /** The sentences a chunk holds (by character span, so overlapping chunks share them), in document order. */
  ofChunk(chunkId: number): SentenceWithTitle[] {
    return this.s.ofChunk().all(chunkId)
  }

  /** The id of the document's sentence with this ord, or null. */
  idAt(documentId: number, ord: number): number | null {
    return this.s.idAt().get(documentId, ord) ?? null
  }

  span(id: number): SentenceSpan | undefined {
    return this.s.span().get(id)
  }
}
