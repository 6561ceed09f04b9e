/** The repositories of one workspace database, built once per handle. */
import { ChunkRepository } from './chunks'
import { DocumentRepository } from './documents'
import { EntityRepository } from './entities'
import { QuestionRepository } from './questions'
import { QuestionGenerationRepository } from './questions-generate'
import { QuestionGoldRepository } from './questions-gold'
import { SentenceRepository } from './sentences'
import { SourceRepository } from './sources'
import { perHandle, type WorkspaceHandle } from './statements'

export interface CorpusRepositories {
  documents: DocumentRepository
  sentences: SentenceRepository
  chunks: ChunkRepository
  entities: EntityRepository
  questions: QuestionRepository
  questionGold: QuestionGoldRepository
  questionGeneration: QuestionGenerationRepository
  sources: SourceRepository
}

/** The repositories of a workspace database (one set per handle; statements prepared on first use). */
export const corpusRepositories: (raw: WorkspaceHandle) => CorpusRepositories = perHandle((raw) => ({
  documents: new DocumentRepository(raw),
  sentences: new SentenceRepository(raw),
  chunks: new ChunkRepository(raw),
  entities: new EntityRepository(raw),
  questions: new QuestionRepository(raw),
  questionGold: new QuestionGoldRepository(raw),
  questionGeneration: new QuestionGenerationRepository(raw),
  sources: new SourceRepository(raw),
}))
