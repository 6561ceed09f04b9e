import type SQLite from 'better-sqlite3'
import { createRetriever, type Retriever } from '../retrieval'
import type { GgufEmbedder } from '../llm/embedder'
import { readEmbeddingModel } from './embedding-model'

/** Where query embedders come from: the models registry, which loads each model file once. */
export interface EmbedderSource {
  embedderFor(path: string): Promise<GgufEmbedder>
}

/**
 * One retriever per open workspace database, with the workspace's embedding model loaded lazily the
 * first time dense or hybrid search needs it. A model that no longer loads (moved, deleted) leaves
 * BM25, and hybrid then says it fell back.
 */
export class WorkspaceRetrievers {
  // Keyed by connection: a closed or deleted workspace's entry goes with its handle.
  private readonly cache = new WeakMap<SQLite.Database, { retriever: Retriever; path: string | null }>()

  constructor(private readonly embedders: EmbedderSource) {}

  async of(raw: SQLite.Database, options: { dense?: boolean } = {}): Promise<Retriever> {
    const record = options.dense ? readEmbeddingModel(raw) : null
    const cached = this.cache.get(raw)
    if (cached && (!record || cached.path === record.path)) return cached.retriever
    const embedder = record ? await this.embedders.embedderFor(record.path).catch(() => undefined) : undefined
    const retriever = createRetriever(raw, embedder ? { embedder } : {})
    this.cache.set(raw, { retriever, path: embedder ? record!.path : null })
    return retriever
  }
}
