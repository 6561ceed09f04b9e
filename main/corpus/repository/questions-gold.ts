/**
 * The lookups gold references beyond ids and titles need (imports and hand-written questions): documents
 * by the file they came from, sentences by their text, and sentences or documents by row id with what a
 * stored supporting fact names ([title, ord] and the document's external id).
 */
import { statement, type WorkspaceHandle } from './statements'

export interface GoldDocumentHit {
  id: number
  title: string
  externalId: string
}

export interface GoldSentenceHit {
  sentenceId: number
  documentId: number
  chunkId: number
  ord: number
  title: string
  externalId: string
  text: string
}

const SENTENCE = 's.id as sentenceId, s.document_id as documentId, s.chunk_id as chunkId, s.ord, d.title, d.external_id as externalId, s.text'

export class QuestionGoldRepository {
  private readonly s

  constructor(raw: WorkspaceHandle) {
    this.s = {
      // A file name matches the stored path exactly, or its last segments ("notes/a.md" matches "/x/notes/a.md").
      byFile: statement<[string, string], GoldDocumentHit>(
        raw,
        `select d.id, d.title, d.external_id as externalId from documents d join source_files f on f.id = d.file_id
         where f.status = 'ok' and (f.path = ? or f.path like ? escape '\\') order by d.id`,
      ),
      exact: statement<[string], GoldSentenceHit>(raw, `select ${SENTENCE} from sentences s join documents d on d.id = s.document_id where s.text = ? order by s.id limit 50`),
      containing: statement<[string], GoldSentenceHit>(
        raw,
        `select ${SENTENCE} from sentences s join documents d on d.id = s.document_id where instr(lower(s.text), lower(?)) > 0 order by s.id limit 50`,
      ),
      sentence: statement<[number], GoldSentenceHit>(raw, `select ${SENTENCE} from sentences s join documents d on d.id = s.document_id where s.id = ?`),
      document: statement<[number], GoldDocumentHit>(raw, 'select id, title, external_id as externalId from documents where id = ?'),
    }
  }

  /** Documents of the source file whose path is `name` or ends with "/name", ascending ids. */
  documentsByFile(name: string): GoldDocumentHit[] {
    const escaped = name.replace(/[\\%_]/g, (c) => `\\${c}`)
    return this.s.byFile().all(name, `%/${escaped}`)
  }

  /** Sentences whose text is exactly `text` (at most 50). */
  sentencesExactly(text: string): GoldSentenceHit[] {
    return this.s.exact().all(text)
  }

  /** Sentences containing `text`, case-insensitively (at most 50). */
  sentencesContaining(text: string): GoldSentenceHit[] {
    return this.s.containing().all(text)
  }

  sentence(sentenceId: number): GoldSentenceHit | undefined {
    return this.s.sentence().get(sentenceId)
  }

  document(documentId: number): GoldDocumentHit | undefined {
    return this.s.document().get(documentId)
  }
}
