import type SQLite from 'better-sqlite3'
import { ApiError, type AppInfo } from '../../preload/contract'
import type { Services } from '../app/services'
import { corpusStats, questionSets, questionsOf, sourceFiles } from '../corpus/catalogue'
import { GraphError, neighbourhood, searchNodes } from '../graph/store'
import { harnessCatalog } from '../experiments/catalog'
import { compareRuns, metricNames } from '../experiments/compare'
import { getEpisode, listEpisodes, listRuns } from '../experiments/queries'
import { validateEvalParams } from '../experiments/validate'
import { readEmbeddingModel } from '../job-kinds/embed'
import { createRetriever, RetrievalError, type Retriever } from '../retrieval'
import type { Handlers } from './dispatch'

/** Capabilities only some hosts have (Electron's native dialogs). */
export interface HostCapabilities {
  mode: AppInfo['mode']
  pickFolder?: (title?: string) => Promise<string | null>
  pickFile?: (title?: string, extensions?: string[]) => Promise<string | null>
}

/** Retrieval and graph errors are the caller's to fix (bad regex, unknown id, no vectors): map them to API errors. */
async function retrieval<T>(fn: () => T | Promise<T>): Promise<T> {
  try {
    return await fn()
  } catch (err) {
    if (err instanceof RetrievalError || err instanceof GraphError) throw new ApiError(err.code === 'not-found' ? 'NOT_FOUND' : 'VALIDATION', err.message)
    throw err
  }
}

export function createHandlers(services: Services, host: HostCapabilities): Handlers {
  const { workspaces, jobs, models } = services
  const retrievers = new WeakMap<SQLite.Database, { retriever: Retriever; path: string | null }>()
  const raw = async (workspaceId: string): Promise<SQLite.Database> => (await workspaces.handle(workspaceId)).raw
  /** The workspace's retriever; with its embedding model (set by a corpus.embed job) loaded lazily for dense and hybrid. */
  const retrieverOf = async (workspaceId: string, dense = false): Promise<Retriever> => {
    const db = await raw(workspaceId)
    const record = dense ? readEmbeddingModel(db) : null
    const cached = retrievers.get(db)
    if (cached && (!record || cached.path === record.path)) return cached.retriever
    // An embedding model that no longer loads (moved, deleted) leaves bm25; hybrid then says it fell back.
    const embedder = record ? await models.embedderFor(record.path).catch(() => undefined) : undefined
    const retriever = createRetriever(db, embedder ? { embedder } : {})
    retrievers.set(db, { retriever, path: embedder ? record!.path : null })
    return retriever
  }
  return {
    'app.info': async () => ({
      name: 'Harness Lab',
      version: services.version,
      mode: host.mode,
      dataDir: services.dataDir,
      platform: process.platform,
      nativeFolderPicker: host.pickFolder !== undefined,
    }),
    'system.pickFolder': async ({ title }) => {
      if (!host.pickFolder) throw new ApiError('UNSUPPORTED', 'No native folder picker in this mode: type the folder path instead')
      return { path: await host.pickFolder(title) }
    },
    'system.pickFile': async ({ title, extensions }) => {
      if (!host.pickFile) throw new ApiError('UNSUPPORTED', 'No native file picker in this mode: type the file path instead')
      return { path: await host.pickFile(title, extensions) }
    },
    'workspace.list': () => workspaces.list(),
    'workspace.create': ({ name }) => workspaces.create(name),
    'workspace.get': ({ id }) => workspaces.open(id),
    'workspace.rename': ({ id, name }) => workspaces.rename(id, name),
    'workspace.delete': async ({ id, confirmName }) => {
      await workspaces.delete(id, confirmName)
      return { deleted: true as const }
    },
    'job.list': ({ workspaceId, limit }) => jobs.list({ workspaceId, limit }),
    'job.start': async (input) => {
      if (input.kind === 'eval.run') await validateEvalParams(await raw(input.workspaceId), input.params)
      return jobs.start(input.kind, 'workspaceId' in input ? input.workspaceId : null, input.params)
    },
    'job.cancel': ({ id }) => jobs.cancel(id),
    'corpus.stats': async ({ workspaceId }) => corpusStats(await raw(workspaceId)),
    'corpus.files': async ({ workspaceId, status, limit }) => sourceFiles(await raw(workspaceId), { status, limit }),
    'corpus.search': async ({ workspaceId, query, k, mode }) => {
      const retriever = await retrieverOf(workspaceId, mode !== 'bm25')
      const t = performance.now()
      const result = await retrieval(() => retriever.search(query, k, mode))
      return {
        hits: result.hits.map((h) => ({ chunkId: h.chunkId, documentId: h.documentId, title: h.title, score: h.score, rank: h.rank, snippet: h.snippet })),
        mode: result.mode,
        fusedFrom: result.fusedFrom,
        fallback: result.fallback ?? null,
        millis: performance.now() - t,
      }
    },
    'corpus.chunk': async ({ workspaceId, chunkId }) => {
      const chunk = await retrieval(async () => (await retrieverOf(workspaceId)).readChunk(chunkId))
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
    'graph.neighbourhood': async ({ workspaceId, center, depth, limit }) => {
      const db = await raw(workspaceId)
      return retrieval(() => neighbourhood(db, center, { depth, limit }))
    },
    'graph.searchNodes': async ({ workspaceId, text, limit }) => {
      const db = await raw(workspaceId)
      return retrieval(() => searchNodes(db, text, limit))
    },
    'harness.catalog': async () => harnessCatalog(),
    'models.list': () => models.list(),
    'models.add': ({ path, role }) => models.add(path, role),
    'models.remove': async ({ id }) => {
      await models.remove(id)
      return { removed: true as const }
    },
    'models.load': ({ id }) => models.load(id),
    'models.unload': ({ id }) => models.unload(id),
    'models.runtime': () => models.runtime(),
    'runs.list': async ({ workspaceId }) => {
      const db = await raw(workspaceId)
      const running = (db.prepare("select job_id from runs where status = 'running' and job_id is not null").pluck().all() as string[])
      const jobsById = new Map<string, { status: string; error: string | null }>()
      for (const id of running) jobsById.set(id, await jobs.get(id).catch(() => ({ status: 'failed', error: 'its job record is gone' })))
      return listRuns(db, (id) => jobsById.get(id))
    },
    'runs.compare': async ({ workspaceId, baselineRunId, runIds, metric }) => {
      const db = await raw(workspaceId)
      return {
        metrics: metricNames(db, [baselineRunId, ...runIds]),
        comparisons: compareRuns(db, baselineRunId, runIds, metric).map((c) => ({
          runId: c.runId, count: c.count, baselineMean: c.baselineMean, candidateMean: c.candidateMean, meanDifference: c.meanDifference,
          lower: c.ci?.lower ?? null, upper: c.ci?.upper ?? null, wins: c.wins, ties: c.ties, losses: c.losses,
        })),
      }
    },
    'runs.episodes': async ({ workspaceId, runId, offset, limit }) => listEpisodes(await raw(workspaceId), runId, offset, limit),
    'runs.episode': async ({ workspaceId, episodeId }) => {
      const episode = getEpisode(await raw(workspaceId), episodeId)
      if (!episode) throw new ApiError('NOT_FOUND', `No episode with id ${episodeId}`)
      return episode
    },
  }
}
