import type SQLite from 'better-sqlite3'
import { goldEvidence, type GoldEvidence, type GoldQuestion } from '../corpus/gold'
import type { EpisodeOutcome, ResolvedGold } from '../harness'

export interface SentenceRef {
  id: number
  documentId: number
  title: string
  ord: number
  text: string
  chunkId: number
}

export interface ChunkRef {
  id: number
  documentId: number
  title: string
  text: string
}

/** Resolves sentence and chunk ids to what the metrics compare (their documents and sentences), and questions to their gold. */
export class EvidenceResolver {
  private readonly sentence: SQLite.Statement
  private readonly chunk: SQLite.Statement
  /** Gold and evidence as scoring and rewards read them (main/corpus/gold.ts). */
  readonly goldEvidence: GoldEvidence

  constructor(readonly raw: SQLite.Database) {
    this.goldEvidence = goldEvidence(raw)
    this.sentence = raw.prepare('select s.id, s.document_id as documentId, d.title, s.ord, s.text, s.chunk_id as chunkId from sentences s join documents d on d.id = s.document_id where s.id = ?')
    this.chunk = raw.prepare('select c.id, c.document_id as documentId, d.title, c.text from chunks c join documents d on d.id = c.document_id where c.id = ?')
  }

  /** The question's gold by document and sentence id: resolved when it was loaded, else now (main/corpus/gold.ts). */
  gold(question: GoldQuestion): ResolvedGold {
    return this.goldEvidence.gold(question)
  }

  sentences(ids: readonly number[]): SentenceRef[] {
    return ids.map((id) => this.sentence.get(id) as SentenceRef | undefined).filter((s): s is SentenceRef => s !== undefined)
  }

  /** The texts an answerer reads: committed sentences (Harness-G) or curated chunks (Harness-1). */
  evidenceTexts(outcome: EpisodeOutcome): string[] {
    return outcome.evidence.sentenceIds ? this.sentences(outcome.evidence.sentenceIds).map((s) => s.text) : this.chunks(outcome.evidence.chunkIds ?? []).map((c) => c.text)
  }

  chunks(ids: readonly number[]): ChunkRef[] {
    return ids.map((id) => this.chunk.get(id) as ChunkRef | undefined).filter((c): c is ChunkRef => c !== undefined)
  }
}
