import type SQLite from 'better-sqlite3'
import type { EpisodeOutcome } from '../harness'

export interface SentenceRef {
  id: number
  title: string
  ord: number
  text: string
  chunkId: number
}

/** Resolves sentence and chunk ids to what the metrics compare: [title, sentence ord] and document titles. */
export class EvidenceResolver {
  private readonly sentence: SQLite.Statement
  private readonly chunk: SQLite.Statement
  private readonly document: SQLite.Statement

  constructor(raw: SQLite.Database) {
    this.sentence = raw.prepare('select s.id, d.title, s.ord, s.text, s.chunk_id as chunkId from sentences s join documents d on d.id = s.document_id where s.id = ?')
    this.chunk = raw.prepare('select c.id, d.title, c.text from chunks c join documents d on d.id = c.document_id where c.id = ?')
    this.document = raw.prepare('select text from documents where title = ? or external_id = ? limit 1').pluck()
  }

  /** Full text of a gold document named by title or external id ('' when the corpus lacks it). */
  documentText(titleOrId: string): string {
    return (this.document.get(titleOrId, titleOrId) as string | undefined) ?? ''
  }

  sentences(ids: readonly number[]): SentenceRef[] {
    return ids.map((id) => this.sentence.get(id) as SentenceRef | undefined).filter((s): s is SentenceRef => s !== undefined)
  }

  /** The texts an answerer reads: committed sentences (Harness-G) or curated chunks (Harness-1). */
  evidenceTexts(outcome: EpisodeOutcome): string[] {
    return outcome.evidence.sentenceIds ? this.sentences(outcome.evidence.sentenceIds).map((s) => s.text) : this.chunks(outcome.evidence.chunkIds ?? []).map((c) => c.text)
  }

  chunks(ids: readonly number[]): { id: number; title: string; text: string }[] {
    return ids.map((id) => this.chunk.get(id) as { id: number; title: string; text: string } | undefined).filter((c) => c !== undefined)
  }
}
