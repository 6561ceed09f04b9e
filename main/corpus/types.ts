/** What every parser and importer produces, before chunking and indexing. */

export interface SourceDocument {
  /** Stable id within its file: the record's own id when it has one, else derived (path, record index). */
  externalId: string
  title: string
  text: string
  /**
   * Sentences as the source gives them (HotpotQA, MuSiQue, the demo world). When present they are kept
   * verbatim, in order, and `text` is their concatenation joined by single spaces; gold sentence indices
   * refer to this array. When absent, the sentence splitter decides.
   */
  sentences?: string[]
  /** Where the text came from, for traceability: file path relative to the ingest root, record index, char offset. */
  source: { path: string; record?: number; offset?: number }
  metadata?: Record<string, unknown>
}

export interface SupportingFact {
  /** Title of the supporting document, as in SourceDocument.title. */
  title: string
  /** Index into that document's sentences. */
  sentence: number
}

export interface GoldQuestion {
  externalId: string
  question: string
  /** Gold answers; the first is canonical, the rest are aliases. */
  answers: string[]
  /** bridge, comparison, compositional, inference, ... when the source says. */
  type?: string
  supportingFacts: SupportingFact[]
  /** Titles (or external ids) of the supporting documents. */
  supportingDocs: string[]
  metadata?: Record<string, unknown>
}

export interface ParsedSource {
  documents: SourceDocument[]
  questions: GoldQuestion[]
}

export type IngestFailureReason =
  | 'unsupported'
  | 'empty'
  | 'binary'
  | 'encoding'
  | 'json'
  | 'corrupt'
  | 'too-large'
  | 'unreadable'

/** A file that cannot be ingested, with a reason a person can act on. The rest of the batch continues. */
export class IngestFileError extends Error {
  constructor(
    readonly reason: IngestFailureReason,
    message: string,
  ) {
    super(message)
    this.name = 'IngestFileError'
  }
}
