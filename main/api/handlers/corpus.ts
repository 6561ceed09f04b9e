import type { corpusRoutes } from '../../../preload/contract'
import type { Services } from '../../app/services'
import { corpusStats, questionSets, questionsOf, sourceFiles } from '../../corpus/catalogue'
import { asApiErrors } from '../feature-errors'
import { workspaceRaw, type HandlerGroup } from './handler-group'

export function corpusHandlers(services: Services): HandlerGroup<typeof corpusRoutes> {
  const raw = workspaceRaw(services)
  const { retrievers } = services
  return {
    'corpus.stats': async ({ workspaceId }) => corpusStats(await raw(workspaceId)),
    'corpus.files': async ({ workspaceId, status, limit }) => sourceFiles(await raw(workspaceId), { status, limit }),
    'corpus.search': async ({ workspaceId, query, k, mode }) => {
      const retriever = await retrievers.of(await raw(workspaceId), { dense: mode !== 'bm25' })
      const t = performance.now()
      const result = await asApiErrors(() => retriever.search(query, k, mode))
      return {
        hits: result.hits.map((h) => ({ chunkId: h.chunkId, documentId: h.documentId, title: h.title, score: h.score, rank: h.rank, snippet: h.snippet })),
        mode: result.mode,
        fusedFrom: result.fusedFrom,
        fallback: result.fallback ?? null,
        millis: performance.now() - t,
      }
    },
    'corpus.chunk': async ({ workspaceId, chunkId }) => {
      const chunk = await asApiErrors(async () => (await retrievers.of(await raw(workspaceId))).readChunk(chunkId))
      return {
        chunkId: chunk.chunkId,
        documentId: chunk.documentId,
        title: chunk.title,
        text: chunk.text,
        sentences: chunk.sentences.map((s) => ({ sentenceId: s.sentenceId, ord: s.ord, text: s.text })),
      }
    },
    'questions.sets': async ({ workspaceId }) => questionSets(await raw(workspaceId)),
    'questions.list': async ({ workspaceId, setId, offset, limit }) => questionsOf(await raw(workspaceId), setId, offset, limit),
  }
}
