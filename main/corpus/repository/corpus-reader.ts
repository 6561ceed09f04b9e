/**
 * What the environments read of the corpus, as small reader interfaces (never the database): each
 * environment takes the slice it uses. All of it is synchronous (read per step) and uncached; the
 * environments keep the caches, shared across episodes while the corpus revision stays the same.
 */
import type { EntityDocumentRow, EntityLink, EntityRecord, NamedEntity } from './entities'
import type { SentenceWithTitle } from './sentences'
import { perHandle, type WorkspaceHandle } from './statements'
import { corpusRepositories } from './repositories'
import { corpusRevision } from './revisions'

/** Sentences with their documents' titles. */
export interface SentenceReader {
  /** The sentence with its document's title, or undefined when the corpus has no such sentence. */
  sentence(id: number): SentenceWithTitle | undefined
  /** The sentences a chunk holds, by character span (overlapping chunks share them), in document order. */
  chunkSentences(chunkId: number): SentenceWithTitle[]
}

/** The entity graph around sentences: mentions, degrees, links, the documents about an entity. */
export interface EntityReader {
  entity(id: number): EntityRecord | undefined
  /** Entity rows with this canonical key (one per type), filtered ones included, ascending ids. */
  entitiesByCanonical(canonical: string): EntityRecord[]
  /** Entities a sentence mentions, in order of first mention (then id), filtered ones included. */
  sentenceEntities(sentenceId: number): EntityRecord[]
  /** Sentences that mention the entity anywhere in the corpus. */
  entityDegree(entityId: number): number
  /** Neighbour links in both directions, best first (then id). */
  entityLinks(entityId: number): EntityLink[]
  /** Documents titled `name` (case-insensitively; titled 1) and those mentioning any of the entities (0), by ascending id (a document may come twice). */
  entityDocuments(name: string, entityIds: readonly number[]): EntityDocumentRow[]
  /** Distinct LOOKUP-able entities (lookup_ok = 1) the sentences mention, ascending ids. */
  namedEntities(sentenceIds: readonly number[]): NamedEntity[]
}

/** Which state of the corpus these readers see (migration 0013); null when the workspace keeps no revision. */
export interface RevisionReader {
  corpusRevision(): number | null
}

/** Chunks as members of their documents. */
export interface ChunkReader {
  /** The document's chunk ids in document order. */
  documentChunkIds(documentId: number): number[]
  hasChunk(chunkId: number): boolean
}

/** Everything the built-in environments read of the corpus (EnvContext.corpus). */
export interface CorpusReader extends SentenceReader, EntityReader, ChunkReader, RevisionReader {}

/** The corpus reader over a workspace database (one per handle, its statements prepared once). */
export const workspaceCorpus: (raw: WorkspaceHandle) => CorpusReader = perHandle((raw) => {
  const { sentences, entities, chunks } = corpusRepositories(raw)
  return {
    corpusRevision: corpusRevision(raw),
    sentence: (id) => sentences.withTitle(id),
    chunkSentences: (chunkId) => sentences.ofChunk(chunkId),
    entity: (id) => entities.byId(id),
    entitiesByCanonical: (canonical) => entities.byCanonical(canonical),
    sentenceEntities: (sentenceId) => entities.ofSentence(sentenceId),
    entityDegree: (entityId) => entities.degree(entityId),
    entityLinks: (entityId) => entities.links(entityId),
    entityDocuments: (name, entityIds) => entities.documents(name, entityIds),
    namedEntities: (sentenceIds) => entities.namedOfSentences(sentenceIds),
    documentChunkIds: (documentId) => chunks.idsOfDocument(documentId),
    hasChunk: (chunkId) => chunks.exists(chunkId),
  }
})
