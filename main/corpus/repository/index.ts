/**
 * The corpus's repositories: documents, sentences (with their titles), chunks, entities and mentions,
 * question sets and questions, typed against main/db/schema.ts; and the reader interfaces the
 * environments take instead of the database. Layers above pass a workspace handle in, and never
 * write corpus SQL of their own.
 */
export { corpusRepositories, type CorpusRepositories } from './repositories'
export { ChunkRepository, type ChunkSpan, type ChunkWithTitle } from './chunks'
export { DocumentRepository, type DocumentRef } from './documents'
export { EntityRepository, type EntityDocumentRow, type EntityLink, type EntityRecord, type NamedEntity } from './entities'
export { QuestionRepository, type NewQuestion, type QuestionRecord, type QuestionSetRecord, type QuestionSetSummary } from './questions'
export { QuestionGenerationRepository, type GenMention, type GenSentence, type GenSpan } from './questions-generate'
export { QuestionGoldRepository, type GoldDocumentHit, type GoldSentenceHit } from './questions-gold'
export { SentenceRepository, type SentenceSpan, type SentenceWithTitle } from './sentences'
export { SourceRepository } from './sources'
export { perHandle, statement, type Typed, type WorkspaceHandle } from './statements'
export { workspaceCorpus, type ChunkReader, type CorpusReader, type EntityReader, type RevisionReader, type SentenceReader } from './corpus-reader'
export { corpusRevision, workspaceRevisions, type RevisionName } from './revisions'
export { questionColumns, questionGold, setReports, SupportingFactList } from './question-columns'
