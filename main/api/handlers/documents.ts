import { ApiError, type documentRoutes } from '../../../preload/contract'
import type { Services } from '../../app/services'
import { documentReader } from '../../corpus/repository/documents-reader'
import { readDocumentAt } from '../../corpus/repository/documents-reading'
import { asApiErrors } from '../feature-errors'
import { workspaceRaw, type HandlerGroup } from './handler-group'

export function documentHandlers(services: Services): HandlerGroup<typeof documentRoutes> {
  const raw = workspaceRaw(services)
  return {
    'documents.read': async ({ workspaceId, documentId, sentence, chunkId }) => {
      const doc = readDocumentAt(await raw(workspaceId), documentId, { sentence, chunkId })
      if (!doc) throw new ApiError('NOT_FOUND', `No document with id ${documentId} in this workspace`)
      return doc
    },
    'documents.locate': async ({ workspaceId, sentenceIds, chunkIds }) => {
      const repo = documentReader(await raw(workspaceId))
      return { sentences: repo.locateSentences(sentenceIds), chunks: repo.locateChunks(chunkIds) }
    },
    'corpus.grep': async ({ workspaceId, pattern, flags, maxResults, timeBudgetMs }) => {
      const retriever = await services.retrievers.of(await raw(workspaceId))
      const t = performance.now()
      const r = await asApiErrors(() => retriever.grep(pattern, { flags, maxResults, timeBudgetMs }))
      return { ...r, millis: performance.now() - t, maxResults }
    },
  }
}
